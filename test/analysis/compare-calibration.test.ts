import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normalCdf, studentTQuantile } from '../../statistics/distributions.js';
import { comparePaired } from '../../statistics/paired.js';
import type { Kernel, MetricSpec } from '../../engine/kernel.js';
import { compileSpec, kernelSpecOf } from '../../sim/kernel-spec.js';
import { runPaired } from '../../sim/paired-run.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { type Band, bandPower, binomialBand, lagOneAutocorrelation, recording } from '../helpers/calibration.js';
import { convolvePower, type Distribution, mean } from '../helpers/distribution.js';
import { capAt, rolledWounds, singleShield, singleTargetWounds } from '../heroic/oracle.js';

/**
 * Is `crucible compare`'s paired t test calibrated (issue 29)? Each check repeats a small paired run
 * over SEEDS = 2,000 seeds (20261122 + i, fixed before any result was seen) and counts how often
 * p < 0.05 (a null comparison: should be 5%) or the 95% interval holds the exact difference (should
 * be 95%). A count of 2,000 independent repetitions is binomial, and each check accepts the counts
 * inside its 4-standard-error band (helpers/calibration.ts): 63–141 for 5%, 1,859–1,937 for 95%.
 *
 * Power: the band catches a false-positive rate of 9% (about the old pairing's) with probability
 * 0.999 and one of 2% with 0.9996; a coverage of 90.5% with 0.9999 (computed by `bandPower` in the
 * first test). Run against the old pairing — a variant that drew more than the baseline read the
 * next trial's numbers — the "more" checks fail: the hand-built null 206 of 2,000 (lag-1
 * autocorrelation 1/6 by construction, 0.168 measured), its coverage 1,782; the heroic null 180,
 * Wounds dealt covered 1,788. With the fix: 105, 1,899, 95 and 1,905.
 *
 * Exact answers come from outside the code under test: enumeration of the faces for the hand-built
 * kernels, whose scores are defined here; test/heroic/oracle.ts (written from the rule text) for the
 * heroic engine. The draws-more / draws-fewer / draws-the-same cases are by construction.
 */

const FIRST_SEED = 20261122;
const SEEDS = 2000;
const NULL_BAND = binomialBand(SEEDS, 0.05);
const COVERAGE_BAND = binomialBand(SEEDS, 0.95);

/** How many of the seeds' runs `event` held in, for each of `channels` (the tally's order: a − b is baseline − variant). */
function countOverSeeds(
  baseline: Kernel,
  variant: Kernel,
  trials: number,
  channels: readonly string[],
  event: (channel: number, result: ReturnType<typeof comparePaired>[number]) => boolean,
): number[] {
  const counts = channels.map(() => 0);
  let indices: number[] | undefined;
  for (let i = 0; i < SEEDS; i++) {
    const tally = runPaired(baseline, variant, { seed: FIRST_SEED + i, trials });
    indices ??= channels.map((name) => {
      const index = tally.channels.findIndex((channel) => channel.name === name);
      if (index < 0) throw new Error(`no channel ${name}`);
      return index;
    });
    const results = comparePaired(tally);
    indices.forEach((index, k) => {
      if (event(k, results[index] as (typeof results)[number])) counts[k] = (counts[k] as number) + 1;
    });
  }
  return counts;
}

const expectInBand = (label: string, count: number, band: Band): void => {
  expect(count, `${label}: ${count} of ${SEEDS}, band ${band.low}–${band.high}`).toBeGreaterThanOrEqual(band.low);
  expect(count, `${label}: ${count} of ${SEEDS}, band ${band.low}–${band.high}`).toBeLessThanOrEqual(band.high);
};

describe('the bands and their power', () => {
  it('4 standard errors around 5% and 95% over 2,000 seeds; they catch the old rates with probability ≥ 0.999', () => {
    expect(NULL_BAND).toEqual({ low: 63, high: 141 });
    expect(COVERAGE_BAND).toEqual({ low: 1859, high: 1937 });
    expect(bandPower(NULL_BAND, SEEDS, 0.09)).toBeGreaterThan(0.999);
    expect(bandPower(NULL_BAND, SEEDS, 0.02)).toBeGreaterThan(0.999);
    expect(bandPower(COVERAGE_BAND, SEEDS, 0.905)).toBeGreaterThan(0.9999);
    // And rarely fails a right procedure: each tail beyond the band is below the one-sided 4σ tail.
    expect(bandPower(NULL_BAND, SEEDS, 0.05)).toBeLessThan(2 * (1 - normalCdf(4)));
  });
});

/**
 * Kernels that roll `draws` D6 and score them by a rule written here: s(x) = 1 on 4+, six(x) = 1
 * on a 6, even(x) = 1 on an even face. The metrics: the score (a count) and whether it is 3 or more (a flag).
 */
interface DiceRule {
  readonly name: string;
  readonly draws: number;
  readonly score: (faces: Int32Array) => number;
}
const s = (face: number | undefined): number => ((face as number) >= 4 ? 1 : 0);
const six = (face: number | undefined): number => (face === 6 ? 1 : 0);
const even = (face: number | undefined): number => ((face as number) % 2 === 0 ? 1 : 0);
const METRICS: readonly MetricSpec[] = [
  { name: 'score', kind: 'count', max: 4, description: 'the score' },
  { name: 'high', kind: 'flag', max: 1, description: 'a score of 3 or more' },
];

function diceKernel(rule: DiceRule): Kernel {
  const faces = new Int32Array(rule.draws);
  return {
    ruleset: 'test',
    engineVersion: 'test-1',
    metrics: METRICS,
    trial(dice, row) {
      for (let i = 0; i < rule.draws; i++) faces[i] = dice.d6();
      const score = rule.score(faces);
      row[0] = score;
      row[1] = score >= 3 ? 1 : 0;
    },
  };
}

// Every score below is uniform on 0..3 (two fair bits weighted 1 and 2) or that plus six(x2).
const LIGHT_FIRST: DiceRule = { name: 's1 + 2·s2 (2 draws)', draws: 2, score: (f) => s(f[0]) + 2 * s(f[1]) };
// The same two numbers, read otherwise: even(x) = 1 on an even face, also a fair bit.
const EVEN_FIRST: DiceRule = { name: '2·even1 + s2 (2 draws)', draws: 2, score: (f) => 2 * even(f[0]) + s(f[1]) };
// Its third number is one more than LIGHT_FIRST draws. Had it been the next trial's first (the old
// pairing), the variant's score would weigh it 1 and its next trial's score 2: lag-1 autocorrelation 1/6.
const HEAVY_FIRST_3: DiceRule = { name: '2·s1 + s3 (3 draws)', draws: 3, score: (f) => 2 * s(f[0]) + s(f[2]) };
const BETTER_2: DiceRule = { name: '2·even1 + s2 + six2 (2 draws)', draws: 2, score: (f) => 2 * even(f[0]) + s(f[1]) + six(f[1]) };
const BETTER_3: DiceRule = { name: '2·s1 + s3 + six2 (3 draws)', draws: 3, score: (f) => 2 * s(f[0]) + s(f[2]) + six(f[1]) };

/**
 * The exact joint law of (baseline, variant) in one paired trial: the variant reads the baseline's
 * numbers, then fresh ones, so both read one sequence of independent faces, as long as the longer.
 * Enumerated: E[a − b], var(a − b), and P(high) for each.
 */
function exactPair(baseline: DiceRule, variant: DiceRule): { mean: number; variance: number; highA: number; highB: number } {
  const length = Math.max(baseline.draws, variant.draws);
  const faces = new Int32Array(length);
  const combinations = 6 ** length;
  let sum = 0;
  let squares = 0;
  let highA = 0;
  let highB = 0;
  for (let c = 0; c < combinations; c++) {
    for (let i = 0, rest = c; i < length; i++, rest = Math.floor(rest / 6)) faces[i] = 1 + (rest % 6);
    const a = baseline.score(faces);
    const b = variant.score(faces);
    sum += a - b;
    squares += (a - b) ** 2;
    highA += a >= 3 ? 1 : 0;
    highB += b >= 3 ? 1 : 0;
  }
  const m = sum / combinations;
  return { mean: m, variance: squares / combinations - m * m, highA: highA / combinations, highB: highB / combinations };
}

describe('hand-built kernels: the variant draws more, fewer or the same numbers as the baseline', () => {
  const TRIALS = 200;

  it.each([
    ['more', LIGHT_FIRST, HEAVY_FIRST_3],
    ['fewer', HEAVY_FIRST_3, LIGHT_FIRST],
    ['the same', LIGHT_FIRST, EVEN_FIRST],
  ] as const)('null, the variant draws %s: p < 0.05 in 5% of seeds, for the score and the flag', (_, baseline, variant) => {
    const exact = exactPair(baseline, variant);
    expect(exact.mean).toBe(0);
    expect(exact.highA).toBe(exact.highB);
    const [score, high] = countOverSeeds(
      diceKernel(baseline),
      diceKernel(variant),
      TRIALS,
      ['score', 'high'],
      (_c, result) => result.difference.pValue < 0.05,
    );
    expectInBand(`${baseline.name} → ${variant.name}: score`, score as number, NULL_BAND);
    expectInBand(`${baseline.name} → ${variant.name}: high`, high as number, NULL_BAND);
  });

  // Exact difference of the means ∓1/6 (six(x2) added); of P(high), whatever the enumeration gives.
  // Power to detect it (paired t test at 0.05, n = 200): Φ(|δ|√n/σ − t) + Φ(−|δ|√n/σ − t), with the
  // exact σ of the difference: 0.54 when the variant draws more or fewer (σ² = 47/36), 0.59 when
  // it reads the same two numbers otherwise (σ² = 41/36). The detection count must fall in the
  // 4-standard-error band around it (983–1161 of 2,000 at 0.54).
  it.each([
    ['more', LIGHT_FIRST, BETTER_3, 0.54],
    ['fewer', BETTER_3, LIGHT_FIRST, 0.54],
    ['the same', LIGHT_FIRST, BETTER_2, 0.59],
  ] as const)(
    'a real difference, the variant draws %s: 95% intervals hold the exact one in 95% of seeds; p < 0.05 as often as its power says',
    (_, baseline, variant, statedPower) => {
      const exact = exactPair(baseline, variant);
      const truth = [exact.mean, exact.highA - exact.highB];
      expect(Math.abs(exact.mean)).toBeCloseTo(1 / 6, 12);
      const t = studentTQuantile(0.975, TRIALS - 1);
      const shift = (Math.abs(exact.mean) * Math.sqrt(TRIALS)) / Math.sqrt(exact.variance);
      const power = normalCdf(shift - t) + normalCdf(-shift - t);
      expect(power).toBeCloseTo(statedPower, 2);
      const covered = countOverSeeds(diceKernel(baseline), diceKernel(variant), TRIALS, ['score', 'high'], (c, result) => {
        const value = truth[c] as number;
        return result.difference.interval.low <= value && value <= result.difference.interval.high;
      });
      expectInBand(`${baseline.name} → ${variant.name}: score covered`, covered[0] as number, COVERAGE_BAND);
      expectInBand(`${baseline.name} → ${variant.name}: high covered`, covered[1] as number, COVERAGE_BAND);
      const [detected] = countOverSeeds(
        diceKernel(baseline),
        diceKernel(variant),
        TRIALS,
        ['score'],
        (_c, result) => result.difference.pValue < 0.05,
      );
      expectInBand(`${baseline.name} → ${variant.name}: detected`, detected as number, binomialBand(SEEDS, power));
    },
  );

  it("the lag-1 autocorrelation of the paired differences is 0 within 4/√n when the variant draws more (1/6 by construction had it read the next trial's numbers)", () => {
    // 100,000 trials: 4/√n = 0.0126; a correlation of 0.02 would be caught with power 0.99.
    const trials = 100_000;
    const a: number[] = [];
    const b: number[] = [];
    runPaired(recording(diceKernel(LIGHT_FIRST), 'score', a), recording(diceKernel(HEAVY_FIRST_3), 'score', b), {
      seed: FIRST_SEED,
      trials,
    });
    const r = lagOneAutocorrelation(a.map((x, t) => x - (b[t] as number)));
    expect(Math.abs(r), `r = ${r}`).toBeLessThan(4 / Math.sqrt(trials));
  });
});

/**
 * The cases through the heroic engine (outcomes drawn from tables, as `crucible compare`
 * does by default), with the exact answers of test/heroic/oracle.ts.
 */
describe('the heroic engine: the cases issue 29 measured', () => {
  const folder = mkdtemp(path.join(tmpdir(), 'crucible-calibration-'));
  afterAll(async () => rm(await folder, { recursive: true, force: true }));
  const kernel = async (file: string, variant?: string): Promise<Kernel> =>
    compileSpec(kernelSpecOf(await loadScenarioChanged(file, variant === undefined ? {} : { variant }), 'tables'));

  // 4 ATK dice on one model, or the same 4 dice on two models of 2 (two Attack Actions: two table
  // draws instead of one), at a DEF 4, MIGHT 100 target without Shield: no cap, nothing saved.
  const nullFile = folder.then(async (directory) => {
    const units = `units:
  - { id: four, name: Four dice, def: 3, might: 100, will: 4, weapons: [{ name: Club, type: melee, atk: 4 }] }
  - { id: two, name: Two dice, def: 3, might: 100, will: 4, weapons: [{ name: Club, type: melee, atk: 2 }] }
  - { id: wall, name: Wall, def: 4, might: 100, will: 4, weapons: [{ name: Fist, type: melee, atk: 1 }] }
`;
    const scenario = `ruleset: heroic
name: Four dice on one model or two
unitsFile: units.yaml
mode: attack
sides:
  - { name: Attackers, groups: [{ id: attackers, unit: four, models: 1, target: wall }] }
  - { name: Wall, groups: [{ id: wall, unit: wall, models: 1 }] }
variants:
  - { name: split, set: { "sides[0].groups[0].unit": two, "sides[0].groups[0].models": 2 } }
`;
    await writeFile(path.join(directory, 'units.yaml'), units);
    await writeFile(path.join(directory, 'null.yaml'), scenario);
    return path.join(directory, 'null.yaml');
  });

  // Before the fix: p < 0.05 in 9.1% of 4,000 seeds when the split side was the variant (it draws
  // more), 5.3% the other way.
  it.each(['more', 'fewer'] as const)(
    'null, the variant draws %s: p < 0.05 on Wounds dealt in 5% of 2,000 seeds of 200 trials',
    async (draws) => {
      // The oracle: 4 dice against DEF 4, or 2 and 2: one distribution of Wounds.
      const whole = rolledWounds(4, 4);
      const split = convolvePower(rolledWounds(2, 4), 2);
      whole.forEach((p, wounds) => expect(split[wounds]).toBeCloseTo(p, 14));
      const file = await nullFile;
      const [one, two] = [await kernel(file), await kernel(file, 'split')];
      const [baseline, variant] = draws === 'more' ? [one, two] : [two, one];
      const [rejected] = countOverSeeds(baseline, variant, 200, ['A.woundsDealt'], (_c, result) => result.difference.pValue < 0.05);
      expectInBand(`null, variant draws ${draws}`, rejected as number, NULL_BAND);
    },
  );

  // Three Sylvan Knights (ATK 2 each, DEF 4 (S)) against an Ogre (DEF 3 (S), MIGHT 4): one pooled
  // Attack Action with one Shield roll, or three with one each (the variant `singly`, which draws
  // more). Before the fix, at 2,000 trials: the interval held the exact difference of Wounds dealt
  // in 89.2% of 4,000 seeds, of P(vanquished) in 94.4%.
  it.each(['more', 'fewer'] as const)(
    'sylvan-knights-formation.yaml, the variant draws %s: 95% intervals hold the exact differences in 95% of 2,000 seeds of 500 trials',
    async (draws) => {
      const file = path.join(import.meta.dirname, '../../data/heroic/scenarios/sylvan-knights-formation.yaml');
      const ogre = { might: 4, woundsTaken: 0, shield: true, resistant: false, invulnerable: false };
      const pooled: Distribution = singleTargetWounds(rolledWounds(6, 3), ogre, 0);
      const oneByOne: Distribution = capAt(convolvePower(singleShield(rolledWounds(2, 3)), 3), 4);
      const formation = { kernel: await kernel(file), wounds: mean(pooled), vanquished: pooled[4] as number };
      const singly = { kernel: await kernel(file, 'singly'), wounds: mean(oneByOne), vanquished: oneByOne[4] as number };
      const [baseline, variant] = draws === 'more' ? [formation, singly] : [singly, formation];
      const truth = [baseline.wounds - variant.wounds, baseline.vanquished - variant.vanquished];
      const covered = countOverSeeds(baseline.kernel, variant.kernel, 500, ['A.woundsDealt', 'ogre.vanquished'], (c, result) => {
        const value = truth[c] as number;
        return result.difference.interval.low <= value && value <= result.difference.interval.high;
      });
      expectInBand('Wounds dealt covered', covered[0] as number, COVERAGE_BAND);
      expectInBand('P(vanquished) covered', covered[1] as number, COVERAGE_BAND);
    },
  );
});
