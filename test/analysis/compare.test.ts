import { describe, expect, it } from 'vitest';
import { type ComparisonResult, compareVariants } from '../../analysis/compare.js';
import { compareDocument, compareDocumentSchema } from '../../analysis/compare-document.js';
import { runScenario, type ScenarioResult } from '../../analysis/run.js';
import { type Dice, StreamDice, streamGenerator } from '../../engine/dice/index.js';
import type { Kernel, MetricSpec } from '../../engine/kernel.js';
import { InputError } from '../../sim/errors.js';
import { RewindableDice, runPaired } from '../../sim/paired-run.js';
import { runTrials, SHARD_TRIALS } from '../../sim/run.js';
import { loadScenarioChanged } from '../../sim/scenario-file.js';
import { CHECK_Z } from '../helpers/power.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';

/**
 * `crucible compare` reads as titled: the baseline column is `crucible run`'s (the same random
 * streams, count for count), the variant replays each trial from the baseline's random state, and
 * every difference is variant − baseline. Oracles: plain StreamDice read in order (what a run
 * does), `runTrials` and `runScenario` themselves, and an independent run of the variant.
 */

const SEED = 20261122;
const HEROIC = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const WARMASTER = 'data/warmaster/scenarios/knights-charge-supported-orcs.yaml';

/** A kernel that rolls `draws(t)` D6 in trial t, keeps the faces (unless told not to), and reports the first face − 1. */
function recordingKernel(draws: (trial: number) => number, keep = true): Kernel & { readonly faces: number[][] } {
  const faces: number[][] = [];
  let trials = 0;
  const metrics: MetricSpec[] = [{ name: 'first', kind: 'category', max: 5, description: 'the first face − 1', labels: ['1', '2', '3', '4', '5', '6'] }];
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
  it('baseline faces are the plain stream in order; each variant trial starts with the faces its baseline trial started with', () => {
    const trials = 300;
    // The variant draws more than the baseline in some trials and fewer in others.
    const baselineDraws = (t: number): number => 1 + ((t * 7) % 5);
    const variantDraws = (t: number): number => 1 + ((t * 3) % 7);
    const baseline = recordingKernel(baselineDraws);
    const variant = recordingKernel(variantDraws);
    runPaired(baseline, variant, { seed: SEED, trials });
    const plain = new StreamDice(streamGenerator(SEED, 0));
    const stream = Array.from({ length: 4000 }, () => plain.d6());
    let start = 0;
    for (let t = 0; t < trials; t++) {
      const mine = baseline.faces[t] ?? [];
      expect(mine).toEqual(stream.slice(start, start + baselineDraws(t)));
      expect(variant.faces[t]).toEqual(stream.slice(start, start + variantDraws(t)));
      start += mine.length;
    }
  });

  it('across a shard boundary, the baseline tally is runTrials\' count for count', () => {
    const trials = SHARD_TRIALS + 1000;
    const baseline = recordingKernel((t) => 1 + (t % 3), false);
    const variant = recordingKernel(() => 5, false);
    const paired = runPaired(baseline, variant, { seed: SEED, trials });
    const alone = runTrials(recordingKernel((t) => 1 + (t % 3), false), { seed: SEED, trials });
    paired.channels.forEach((channel, c) => expect(paired.channelSums(c).sumA).toBe(alone.counts[0]?.[channel.value]));
  });

  it('RewindableDice replays the trial from its start however far the rereading goes', () => {
    const dice = new RewindableDice(streamGenerator(SEED, 3));
    const plain = new StreamDice(streamGenerator(SEED, 3));
    dice.startTrial();
    const first = Array.from({ length: 5 }, () => dice.d10());
    const stop = dice.rewind();
    const reread = Array.from({ length: 3000 }, () => dice.d10());
    dice.seek(stop);
    dice.startTrial();
    const next = Array.from({ length: 10 }, () => dice.d10());
    const expected = Array.from({ length: 3000 }, () => plain.d10());
    expect(first).toEqual(expected.slice(0, 5));
    expect(reread).toEqual(expected);
    expect(next).toEqual(expected.slice(5, 15));
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
  const run = await runScenario(await loadScenarioChanged(file, {}), { seed: SEED, trials, method: method === 'mc' ? 'tables' : 'dice' });
  expect(compared.outcomes.length).toBeGreaterThan(10);
  for (const outcome of compared.outcomes) expect(outcome.baseline.mean, `${outcome.metric} ${outcome.label ?? ''}`).toBe(runValue(run, outcome.metric, outcome.value));
  return compared;
}

describe('compareVariants on bundled scenarios', () => {
  // The stream layout across shards is checked above on a cheap kernel; here the real kernels, both methods.
  it('heroic, mc and mc-dice: the baseline column is the run\'s', async () => {
    for (const method of ['mc', 'mc-dice'] as const) await expectBaselineIsTheRun(HEROIC, 'no-regeneration', 10_000, method);
  });

  it('warmaster: the baseline column is the run\'s; the round a unit fell in is probabilities, never a mean', async () => {
    const compared = await expectBaselineIsTheRun(WARMASTER, 'knights-stand', 10_000, 'mc');
    const fell = compared.outcomes.filter((outcome) => outcome.metric === 'orcs.destroyedInRound');
    expect(fell.map((outcome) => outcome.label).slice(0, 3)).toEqual(['not destroyed', 'in round 1', 'in round 2']);
    for (const outcome of compared.outcomes) expect(outcome.measure).toBe(outcome.kind === 'count' ? 'mean' : 'probability');
    // Standing instead of pursuing can only save the Orcs: P(not destroyed) rises.
    expect(fell[0]?.difference.interval.low).toBeGreaterThan(0);
    const document = compareDocument(compared);
    expect(compareDocumentSchema.parse(JSON.parse(JSON.stringify(document)))).toEqual(document);
    // Round 1 is fought before the variants part: identical in every trial, an infinite saving.
    const round1 = document.outcomes.find((outcome) => outcome.metric === 'round1' && outcome.label === 'Orcs');
    expect(round1?.unpairedTrialsFactor).toBeNull();
    expect(round1?.difference).toMatchObject({ estimate: 0, pValue: 1 });
  });

  it('difference = variant − baseline: no regeneration lowers the Ogre\'s wins, and the variant agrees with its own run', async () => {
    const trials = 20_000;
    const compared = await compareVariants(HEROIC, undefined, 'no-regeneration', { seed: SEED, trials });
    expect(compared.baseline).toMatchObject({ name: '(as written)', asWritten: true, changes: [] });
    expect(compared.variant.changes.map((change) => [change.field.label, change.value])).toEqual([['Regenerating Ogre › ogre: unit', 'ogre']]);
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
    const compared = await compareVariants(HEROIC, 'least-damaged', 'no-regeneration', { seed: SEED, trials: 2000, metrics: ['B.modelsLost', 'winner'] });
    expect(compared.baseline.name).toBe('least-damaged');
    expect(compared.metrics).toEqual(['winner', 'B.modelsLost']);
    expect(new Set(compared.outcomes.map((outcome) => outcome.metric))).toEqual(new Set(['winner', 'B.modelsLost']));
    const started = cpuMilliseconds();
    const error = await compareVariants(HEROIC, undefined, 'no-regeneration', { trials: 1e9, metrics: ['winner', 'modelsLost'] }).catch((caught: unknown) => caught);
    expect(cpuMilliseconds() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toBe(
      `${HEROIC}: --metric: no metric "modelsLost" in this comparison; its metrics are winner, rounds, A.woundsDealt, B.woundsDealt, A.modelsLost, B.modelsLost, ogre.woundsTaken, ogre.modelsLost, ogre.vanquished, knights.woundsTaken, knights.modelsLost, knights.vanquished, knights.formationBroken`,
    );
  });
});
