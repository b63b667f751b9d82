import { describe, expect, it } from 'vitest';
import { type ComparisonResult, compareVariants } from '../../analysis/compare.js';
import { compareDocument, compareDocumentSchema } from '../../documents/compare-document.js';
import { runScenario, type ScenarioResult } from '../../sim/run-scenario.js';
import { comparePage } from '../../reports/compare-page.js';
import type { ReportPage } from '../../reports/page-model.js';
import { type Dice, StreamDice, streamGenerator } from '../../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../../engine/kernel.js';
import { InputError } from '../../input/errors.js';
import { PairedDice, variantStreamGenerator } from '../../sim/paired-dice.js';
import { runPaired } from '../../sim/paired-run.js';
import { runTrials, SHARD_TRIALS } from '../../sim/run.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { CHECK_Z } from '../helpers/power.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';

/**
 * `crucible compare` reads as titled: the baseline column is `crucible run`'s (the same random
 * streams, count for count), the variant replays each trial from the baseline's random numbers and
 * draws any more from its own stream, and every difference is variant − baseline. Oracles: plain
 * StreamDice read in order (what a run does), `runTrials` and `runScenario` themselves, and an
 * independent run of the variant. Calibration over many seeds: compare-calibration.test.ts.
 */

const SEED = 20261122;
const HEROIC = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const WARMASTER = 'data/warmaster/scenarios/knights-charge-supported-orcs.yaml';

/** A kernel that rolls `draws(t)` D6 in trial t, keeps the faces (unless told not to), and reports the first face − 1. */
function recordingKernel(draws: (trial: number) => number, keep = true): Kernel & { readonly faces: number[][] } {
  const faces: number[][] = [];
  let trials = 0;
  const metrics: MetricSpec[] = [
    { name: 'first', kind: 'category', max: 5, description: 'the first face − 1', labels: ['1', '2', '3', '4', '5', '6'] },
  ];
  return {
    ruleset: 'test',
    engineVersion: 'test-1',
    metrics,
    faces,
    trial(dice: Dice, row: Int32Array) {
      const count = draws(trials++);
      const rolled = [dice.d6()];
      for (let i = 1; i < count; i++) {
        const face = dice.d6();
        if (keep) rolled.push(face);
      }
      if (keep) faces.push(rolled);
      row[0] = (rolled[0] as number) - 1;
    },
  };
}

describe('the paired run: the baseline draws as a run, the variant from the same state', () => {
  it("baseline faces are the plain stream in order; each variant trial starts with its baseline trial's faces, then draws from its own stream, never the next trial's", () => {
    const trials = 300;
    // The variant draws more than the baseline in some trials and fewer in others.
    const baselineDraws = (t: number): number => 1 + ((t * 7) % 5);
    const variantDraws = (t: number): number => 1 + ((t * 3) % 7);
    const baseline = recordingKernel(baselineDraws);
    const variant = recordingKernel(variantDraws);
    runPaired(baseline, variant, { seed: SEED, trials });
    const plain = new StreamDice(streamGenerator(SEED, 0));
    const stream = Array.from({ length: 4000 }, () => plain.d6());
    const ownPlain = new StreamDice(variantStreamGenerator(SEED, 0));
    const own = Array.from({ length: 4000 }, () => ownPlain.d6());
    let start = 0;
    let ownStart = 0;
    let drewMore = 0;
    for (let t = 0; t < trials; t++) {
      const mine = baseline.faces[t] ?? [];
      expect(mine).toEqual(stream.slice(start, start + baselineDraws(t)));
      const shared = Math.min(baselineDraws(t), variantDraws(t));
      const extra = variantDraws(t) - shared;
      expect(variant.faces[t]).toEqual([...mine.slice(0, shared), ...own.slice(ownStart, ownStart + extra)]);
      start += mine.length;
      ownStart += extra;
      if (extra > 0) drewMore++;
    }
    expect(drewMore).toBeGreaterThan(trials / 4);
  });

  it("across a shard boundary, the baseline tally is runTrials' count for count, and the variant's own stream jumps with the shard", () => {
    const trials = SHARD_TRIALS + 1000;
    const baseline = recordingKernel((t) => 1 + (t % 3), false);
    // The variant draws 5 faces and keeps them: faces 2..5 of trial t come from its own stream whenever the baseline drew fewer.
    const variant = recordingKernel(() => 5);
    const paired = runPaired(baseline, variant, { seed: SEED, trials });
    const alone = runTrials(
      recordingKernel((t) => 1 + (t % 3), false),
      { seed: SEED, trials },
    );
    paired.channels.forEach((channel, c) => expect(paired.channelSums(c).sumA).toBe(alone.counts[0]?.[channel.value]));
    // The first trial of shard 1 (the baseline drew 1 + 65536 mod 3 = 2 faces): its faces 3..5 open the variant's stream 1.
    const shard1 = new StreamDice(variantStreamGenerator(SEED, 1));
    expect(variant.faces[SHARD_TRIALS]?.slice(2)).toEqual([shard1.d6(), shard1.d6(), shard1.d6()]);
  });

  it('PairedDice: the variant rereads the trial from its start however far it reads, then its own stream; the next trial goes on where the baseline stopped', () => {
    const dice = new PairedDice(streamGenerator(SEED, 3), variantStreamGenerator(SEED, 3));
    const plain = new StreamDice(streamGenerator(SEED, 3));
    const ownPlain = new StreamDice(variantStreamGenerator(SEED, 3));
    const expected = Array.from({ length: 3000 }, () => plain.d10());
    const ownExpected = Array.from({ length: 3000 }, () => ownPlain.d10());
    dice.startBaseline();
    const first = Array.from({ length: 5 }, () => dice.d10());
    dice.startVariant();
    const reread = Array.from({ length: 3000 }, () => dice.d10());
    dice.startBaseline();
    const next = Array.from({ length: 10 }, () => dice.d10());
    dice.startVariant();
    const rereadNext = Array.from({ length: 12 }, () => dice.d10());
    expect(first).toEqual(expected.slice(0, 5));
    expect(reread).toEqual([...expected.slice(0, 5), ...ownExpected.slice(0, 2995)]);
    expect(next).toEqual(expected.slice(5, 15));
    expect(rereadNext).toEqual([...expected.slice(5, 15), ...ownExpected.slice(2995, 2997)]);
  });
});

/** The baseline's number for an outcome, as the run reports it. */
function runValue(run: ScenarioResult, metric: string, value: number | undefined): number {
  const summary = run.summary.find((candidate) => candidate.name === metric);
  if (summary === undefined) throw new Error(`no metric ${metric}`);
  return value === undefined ? summary.mean : (summary.distribution.find((entry) => entry.value === value)?.probability ?? 0);
}

async function expectBaselineIsTheRun(file: string, variant: string, trials: number, method: 'mc' | 'mc-dice'): Promise<ComparisonResult> {
  const compared = await compareVariants(file, undefined, variant, { seed: SEED, trials, method });
  const run = await runScenario(await loadScenarioChanged(file, {}), { seed: SEED, trials, method });
  expect(compared.outcomes.length).toBeGreaterThan(10);
  for (const outcome of compared.outcomes)
    expect(outcome.baseline.mean, `${outcome.metric} ${outcome.label ?? ''}`).toBe(runValue(run, outcome.metric, outcome.value));
  return compared;
}

describe('compareVariants on bundled scenarios', () => {
  // The stream layout across shards is checked above on a cheap kernel; here the real kernels, both methods.
  it("heroic, mc and mc-dice: the baseline column is the run's", async () => {
    for (const method of ['mc', 'mc-dice'] as const) await expectBaselineIsTheRun(HEROIC, 'no-regeneration', 10_000, method);
  });

  it("warmaster: the baseline column is the run's; the round a unit fell in is probabilities, never a mean", async () => {
    const compared = await expectBaselineIsTheRun(WARMASTER, 'knights-stand', 10_000, 'mc');
    const fell = compared.outcomes.filter((outcome) => outcome.metric === 'orcs.destroyedInRound');
    expect(fell.map((outcome) => outcome.label).slice(0, 3)).toEqual(['not destroyed', 'in round 1', 'in round 2']);
    for (const outcome of compared.outcomes) expect(outcome.measure).toBe(outcome.kind === 'count' ? 'mean' : 'probability');
    // Standing instead of pursuing can only save the Orcs: P(not destroyed) rises.
    expect(fell[0]?.difference.interval.low).toBeGreaterThan(0);
    const document = compareDocument(compared);
    expect(compareDocumentSchema.parse(JSON.parse(JSON.stringify(document)))).toEqual(document);
    // The pairing scheme is recorded, and the page says what it means; a document written before
    // it had the field still reads, and its page says its intervals were too narrow.
    expect(document.pairingVersion).toBe(2);
    const methods = (page: ReportPage): string => page.methods.join('\n');
    expect(methods(comparePage(document))).toContain('come from a stream of its own, so every trial is independent of the others');
    const { pairingVersion: _, ...older } = document;
    expect(methods(comparePage(compareDocumentSchema.parse(older)))).toContain('Made before pairing version 2');
    // Round 1 is fought before the variants part: identical in every trial, an infinite saving.
    const round1 = document.outcomes.find((outcome) => outcome.metric === 'round1' && outcome.label === 'Orcs');
    expect(round1?.unpairedTrialsFactor).toBeNull();
    expect(round1?.difference).toMatchObject({ estimate: 0, pValue: 1 });
  });

  it("difference = variant − baseline: no regeneration lowers the Ogre's wins, and the variant agrees with its own run", async () => {
    const trials = 20_000;
    const compared = await compareVariants(HEROIC, undefined, 'no-regeneration', { seed: SEED, trials });
    expect(compared.baseline).toMatchObject({ name: '(as written)', asWritten: true, changes: [] });
    expect(compared.variant.changes.map((change) => [change.field.label, change.value])).toEqual([
      ['Regenerating Ogre › ogre: unit', 'ogre'],
    ]);
    const ogreWins = compared.outcomes.find((outcome) => outcome.metric === 'winner' && outcome.label === 'Regenerating Ogre');
    if (ogreWins === undefined) throw new Error('no winner=Regenerating Ogre');
    for (const outcome of compared.outcomes) expect(outcome.difference.mean).toBeCloseTo(outcome.variant.mean - outcome.baseline.mean, 12);
    expect(ogreWins.difference.interval.high).toBeLessThan(0);
    // The variant on the baseline's dice against the variant run on a seed of its own: one distribution.
    const own = await runScenario(await loadScenarioChanged(HEROIC, { variant: 'no-regeneration' }), { seed: SEED + 1, trials });
    const p = runValue(own, 'winner', ogreWins.value);
    const standardError = Math.sqrt((p * (1 - p) * 2) / trials);
    expect(Math.abs(ogreWins.variant.mean - p)).toBeLessThanOrEqual(CHECK_Z * standardError);
  });

  it('--metric keeps the metrics named; an unknown one is an InputError listing them, before any trial runs', async () => {
    const compared = await compareVariants(HEROIC, 'least-damaged', 'no-regeneration', {
      seed: SEED,
      trials: 2000,
      metrics: ['B.modelsLost', 'winner'],
    });
    expect(compared.baseline.name).toBe('least-damaged');
    expect(compared.metrics).toEqual(['winner', 'B.modelsLost']);
    expect(new Set(compared.outcomes.map((outcome) => outcome.metric))).toEqual(new Set(['winner', 'B.modelsLost']));
    const started = cpuMilliseconds();
    const error = await compareVariants(HEROIC, undefined, 'no-regeneration', { trials: 1e9, metrics: ['winner', 'modelsLost'] }).catch(
      (caught: unknown) => caught,
    );
    expect(cpuMilliseconds() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `${HEROIC}: --metric: no metric "modelsLost" in this comparison; its metrics are winner, rounds, A.woundsDealt, B.woundsDealt, A.modelsLost, B.modelsLost, ogre.woundsTaken, ogre.modelsLost, ogre.vanquished, knights.woundsTaken, knights.modelsLost, knights.vanquished, knights.formationBroken`,
    );
  });
});
