import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { comparePaired } from '../../statistics/paired.js';
import type { BattleforgeRefs, Scenario as BattleforgeScenario } from '../../engine/battleforge/index.js';
import { StreamDice, streamGenerator } from '../../engine/dice/index.js';
import type { EpicRefs, Scenario as EpicScenario } from '../../engine/epic/index.js';
import type { DrawMethod, Kernel } from '../../engine/kernel.js';
import type { Scenario as WarmasterScenario, WarmasterRefs } from '../../engine/warmaster/index.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runPaired } from '../../sim/paired-run.js';
import { runTrials } from '../../sim/run.js';
import { type LoadedScenario, loadScenarioChanged } from '../../input/scenario-file.js';
import { exactAttack } from '../battleforge/oracle.js';
import { exactEpic } from '../epic/oracle.js';
import { lagOneAutocorrelation, recording } from '../helpers/calibration.js';
import { convolvePower, type Distribution, mean } from '../helpers/distribution.js';
import { REPOSITORY } from '../helpers/repository.js';
import { capAt, rolledWounds, singleShield, singleTargetWounds } from '../heroic/oracle.js';
import { exactRound1 } from '../warmaster/oracle.js';

/**
 * One paired comparison per rule system through its real engine, a bundled scenario against a
 * variant of it (fields changed as a scenario's `variants` change them) that draws more random
 * numbers than the baseline in many trials — the case that used to borrow the next trial's numbers.
 * Each side's exact answer comes from the rule system's oracle (test/<system>/oracle.ts, written
 * from the rule text, not the engine). Over 20,000 paired trials (seed 20261122):
 *
 * - the paired difference lies within 4 standard errors of the exact one (power 0.99 against a
 *   bias of 6.3 standard errors; the SE is each case's own, printed on failure);
 * - the lag-1 autocorrelation of the trial-by-trial differences is within 4/√n = 0.028 of 0 (power
 *   0.99 against a correlation of 0.045; before the fix the heroic case's was 0.26);
 * - the baseline's tally is `runTrials`' count for count (what `crucible run` draws).
 */

const SEED = 20261122;
const TRIALS = 20_000;
const scenario = (system: string, name: string): string => path.join(REPOSITORY, 'data', system, 'scenarios', `${name}.yaml`);

interface SystemCase {
  readonly system: string;
  readonly file: string;
  readonly baseline: readonly (readonly [string, unknown])[];
  readonly variant: readonly (readonly [string, unknown])[];
  readonly method: DrawMethod;
  readonly metric: string;
  /** A category's code whose probability is compared; absent: a count's mean. */
  readonly value?: number;
  /** The exact mean (or probability of `value`) of the metric for a loaded scenario. */
  readonly exact: (loaded: LoadedScenario) => number;
}

const records = <T>(value: Readonly<Record<string, T>>): ReadonlyMap<string, T> => new Map(Object.entries(value));

const SYLVAN_OGRE = { might: 4, woundsTaken: 0, shield: true, resistant: false, invulnerable: false };

const CASES: readonly SystemCase[] = [
  {
    // Three knights' 6 dice pooled into one Attack Action (one Shield roll), or three actions of 2.
    system: 'heroic',
    file: scenario('heroic', 'sylvan-knights-formation'),
    baseline: [],
    variant: [['sides[0].groups[0].formation', false]],
    method: 'tables',
    metric: 'A.woundsDealt',
    exact: (loaded) => {
      const formation =
        (loaded.scenario as unknown as { sides: { groups: { formation: boolean }[] }[] }).sides[0]?.groups[0]?.formation === true;
      const wounds: Distribution = formation
        ? singleTargetWounds(rolledWounds(6, 3), SYLVAN_OGRE, 0)
        : capAt(convolvePower(singleShield(rolledWounds(2, 3)), 3), 4);
      return mean(wounds);
    },
  },
  {
    // One volley of 10 Bowmen at the Orc Warriors, or of 20: more dice rolled one by one.
    system: 'battleforge',
    file: scenario('battleforge', 'bowmen-hold-vs-orc-charge'),
    baseline: [['mode', 'attack']],
    variant: [
      ['mode', 'attack'],
      ['sides[0].units[0].models', 20],
    ],
    method: 'dice',
    metric: 'orc-warriors.woundsLost',
    exact: (loaded) =>
      mean(exactAttack(loaded.scenario as unknown as BattleforgeScenario, records((loaded.refs as BattleforgeRefs).profiles)).woundsLost),
  },
  {
    // The first round of Knights charging supported Orcs with 2 stands in contact, or all 3 (as
    // written): more attack dice rolled one by one.
    system: 'warmaster',
    file: scenario('warmaster', 'knights-charge-supported-orcs-first-round'),
    baseline: [['sides[0].units[0].contact.front', 2]],
    variant: [],
    method: 'dice',
    metric: 'round1',
    value: 1,
    exact: (loaded) => exactRound1(loaded.scenario as unknown as WarmasterScenario, records((loaded.refs as WarmasterRefs).units)).aWins,
  },
  {
    // A Guard company under fire for 4 turns, or 5.
    system: 'epic',
    file: scenario('epic', 'guard-company-under-fire'),
    baseline: [],
    variant: [['turns', 5]],
    method: 'tables',
    metric: 'company.unitsLost',
    exact: (loaded) =>
      mean(
        exactEpic(loaded.scenario as unknown as EpicScenario, records((loaded.refs as EpicRefs).armies)).get('company.unitsLost') ??
          new Float64Array(1),
      ),
  },
];

/** Counts the random numbers drawn. */
class CountingDice extends StreamDice {
  draws = 0;
  override next(): number {
    this.draws++;
    return super.next();
  }
}

/** The share of trials in which `variant` draws more numbers than `baseline`, both from trial t's own starting state. */
function drawsMoreShare(baseline: Kernel, variant: Kernel, trials: number): number {
  const dice = new CountingDice(streamGenerator(SEED, 0));
  const drawsOf = (kernel: Kernel, t: number): number => {
    dice.reseedForTrial(SEED, t);
    const before = dice.draws;
    kernel.trial(dice, new Int32Array(kernel.metrics.length));
    return dice.draws - before;
  };
  let more = 0;
  for (let t = 0; t < trials; t++) if (drawsOf(variant, t) > drawsOf(baseline, t)) more++;
  return more / trials;
}

describe('a paired comparison in each rule system: exact difference, independent trials, the baseline drawn as a run', () => {
  it.each(CASES.map((entry) => [entry.system, entry] as const))('%s', async (_, entry) => {
    const [baselineLoaded, variantLoaded] = await Promise.all([
      loadScenarioChanged(entry.file, { fields: entry.baseline }),
      loadScenarioChanged(entry.file, { fields: entry.variant }),
    ]);
    const baseline = compileSpec(kernelSpecOf(baselineLoaded, entry.method));
    const variant = compileSpec(kernelSpecOf(variantLoaded, entry.method));
    expect(drawsMoreShare(baseline, variant, 2000)).toBeGreaterThan(0.1);

    const a: number[] = [];
    const b: number[] = [];
    const tally = runPaired(recording(baseline, entry.metric, a), recording(variant, entry.metric, b), { seed: SEED, trials: TRIALS });
    const c = tally.channels.findIndex(
      (channel) => tally.metrics[channel.metric]?.name === entry.metric && channel.value === (entry.value ?? -1),
    );
    const result = comparePaired(tally)[c];
    if (result === undefined) throw new Error(`no channel ${entry.metric} ${entry.value ?? ''}`);

    // The tally's difference is baseline − variant.
    const exact = entry.exact(baselineLoaded) - entry.exact(variantLoaded);
    expect(Math.abs(exact), 'the variant changes the outcome').toBeGreaterThan(0.01);
    expect(
      Math.abs(result.difference.mean - exact),
      `difference ${result.difference.mean}, exact ${exact}, SE ${result.difference.standardError}`,
    ).toBeLessThanOrEqual(4 * result.difference.standardError);

    const indicator = (x: number): number => (entry.value === undefined ? x : x === entry.value ? 1 : 0);
    const r = lagOneAutocorrelation(a.map((x, t) => indicator(x) - indicator(b[t] as number)));
    expect(Math.abs(r), `lag-1 autocorrelation ${r}`).toBeLessThanOrEqual(4 / Math.sqrt(TRIALS));

    const alone = runTrials(baseline, { seed: SEED, trials: TRIALS });
    tally.channels.forEach((channel, k) => {
      const histogram = alone.histogram(tally.metrics[channel.metric]?.name ?? '');
      const expected = channel.value < 0 ? histogram.reduce((sum, count, v) => sum + v * count, 0) : (histogram[channel.value] ?? 0);
      expect(tally.channelSums(k).sumA, channel.name).toBe(expected);
    });
  });
});
