import { describe, expect, it } from 'vitest';
import {
  binomialTable,
  D10TestTables,
  D10Tests,
  EnumeratingDice,
  OutcomeTable,
  PoolScorer,
  PoolTables,
  ScriptedDice,
  streamDice,
  sumOfDiceTable,
  TooManyOutcomesError,
} from '../../engine/dice/index.js';
import type { Dice } from '../../engine/dice/index.js';
import { woundFaceScore } from '../../engine/heroic/compile.js';
import { chiSquareCritical, chiSquareFit } from '../helpers/chi-square.js';
import { binomial } from '../helpers/distribution.js';
import { expectSameDistribution } from '../helpers/two-sample.js';

/**
 * The fast path's tables (engine/dice/outcome-table.ts) and exact enumeration
 * (engine/dice/enumerating.ts): tables against brute-force enumeration of the faces and the closed
 * form of the binomial; the alias draw's probabilities exactly (integer weights / 2³², within 2⁻³²
 * of the table's); sampling by χ² (α = 1e-6, fixed seed 20261122); and the enumerator on small
 * draws whose distribution is known by hand.
 */
const SEED = 20261122;
const ALPHA = 1e-6;
const TWO_POW_32 = 2 ** 32;

/** P(total = t) of n dice scored by `score`, by enumerating all 6ⁿ rolls (the independent check). */
function bruteForce(score: readonly number[], n: number): number[] {
  const totals: number[] = [];
  for (let roll = 0; roll < 6 ** n; roll++) {
    let sum = 0;
    for (let i = 0, rest = roll; i < n; i++, rest = Math.floor(rest / 6)) sum += score[rest % 6] ?? 0;
    totals[sum] = (totals[sum] ?? 0) + 6 ** -n;
  }
  return Array.from(totals, (p) => p ?? 0);
}

function probabilityOf(table: OutcomeTable, value: number): number {
  const index = table.values.indexOf(value);
  return index < 0 ? 0 : (table.probabilities[index] as number);
}

describe('OutcomeTable', () => {
  it.each([1, 2, 4, 7])('sumOfDiceTable: %i dice vs DEF 4 (sixes score 2) equal brute-force enumeration within both error bounds', (n) => {
    const score = woundFaceScore(4);
    const table = sumOfDiceTable(score, n);
    const brute = bruteForce(score, n);
    // The table's stated relative bound, plus the brute force's own: 6ⁿ terms summed in float64.
    const tolerance = table.relativeError + 6 ** n * 2 ** -53;
    expect(table.relativeError).toBeLessThan(1e-13);
    brute.forEach((p, total) => expect(Math.abs(probabilityOf(table, total) - p)).toBeLessThanOrEqual(tolerance * p));
    expect(table.values.length).toBe(brute.filter((p) => p > 0).length);
  });

  it.each([
    [30, 1 / 3],
    [12, 0.4],
    [400, 0.25],
    // Past CONVOLVED_BINOMIAL_MAX the table is built from term ratios (O(n)): the same closed form.
    [1500, 0.7],
    [4000, 0.1],
  ])('binomialTable(%i, %d) equals the closed form to 1e-12', (n, p) => {
    const table = binomialTable(n, p);
    binomial(n, p).forEach((q, k) => expect(Math.abs(probabilityOf(table, k) - q)).toBeLessThan(1e-12));
  });

  it.each([
    ['12 dice vs DEF 4', sumOfDiceTable(woundFaceScore(4), 12)],
    ['Binomial(60, 1/3)', binomialTable(60, 1 / 3)],
    ['three outcomes, one tiny', new OutcomeTable([0, 5, 9], [0.5, 0.5 - 1e-12, 1e-12])],
    ['two outcomes', new OutcomeTable([3, 4], [0.3, 0.7])],
  ])('%s: every outcome is drawn with its integer weight / 2³², within 2⁻³² of its probability; the weights sum to 1', (_label, table) => {
    let sum = 0;
    table.values.forEach((_value, index) => {
      const sampled = table.sampledProbability(index);
      expect(Number.isInteger(sampled * TWO_POW_32)).toBe(true);
      expect(Math.abs(sampled - (table.probabilities[index] as number))).toBeLessThanOrEqual(2 ** -32);
      sum += sampled;
    });
    expect(sum).toBe(1);
  });

  it('a certain outcome: every alias column gives it; scripted dice draw nothing for it', () => {
    const table = new OutcomeTable([7], [1]);
    expect(table.certain).toBe(true);
    expect(table.sampledProbability(0)).toBe(1);
    const dice = streamDice(SEED);
    for (let i = 0; i < 1000; i++) expect(dice.pick(table)).toBe(7);
    expect(new ScriptedDice([]).pick(table)).toBe(7);
  });

  it('refuses probabilities that do not add up to 1, negative ones, and empty tables', () => {
    expect(() => new OutcomeTable([0, 1], [0.5, 0.4])).toThrow(/sum to 0.9/);
    expect(() => new OutcomeTable([0, 1], [1.5, -0.5])).toThrow(/probability -0.5/);
    expect(() => new OutcomeTable([0], [0])).toThrow(/no outcome/);
  });

  it.each([
    ['12 dice vs DEF 4', sumOfDiceTable(woundFaceScore(4), 12)],
    ['Binomial(60, 1/3)', binomialTable(60, 1 / 3)],
    ['a Epic-style markers distribution', new OutcomeTable([0, 1, 2, 3], [0.1, 0.2, 0.3, 0.4])],
  ])('%s: StreamDice.pick follows the table (χ², 300 000 draws)', (_label, table) => {
    const dice = streamDice(SEED, table.values.length);
    const top = Math.max(...table.values);
    const counts = new Float64Array(top + 1);
    const exact = new Float64Array(top + 1);
    table.values.forEach((value, index) => (exact[value] = table.probabilities[index] as number));
    const draws = 300_000;
    for (let i = 0; i < draws; i++) {
      const value = dice.pick(table);
      counts[value] = (counts[value] as number) + 1;
    }
    const { statistic, df } = chiSquareFit(counts, exact, draws);
    expect(df).toBeGreaterThanOrEqual(3);
    expect(statistic).toBeLessThan(chiSquareCritical(ALPHA, df));
  });

  it('PoolTables and D10TestTables draw what PoolScorer and D10Tests roll (two-sample χ², 200 000 each)', () => {
    const draws = 200_000;
    const histogram = (roll: (dice: Dice) => number, stream: number, size: number): number[] => {
      const dice = streamDice(SEED, stream);
      const counts = new Array<number>(size).fill(0);
      for (let i = 0; i < draws; i++) counts[roll(dice)]! += 1;
      return counts;
    };
    const score = woundFaceScore(3);
    const rolled = new PoolScorer(score);
    const tabled = new PoolTables(score);
    expectSameDistribution(
      '13 dice vs DEF 3',
      histogram((dice) => rolled.roll(dice, 13), 1, 27),
      histogram((dice) => tabled.roll(dice, 13), 2, 27),
      ALPHA,
    );
    const tests = new D10Tests();
    const testTables = new D10TestTables();
    expectSameDistribution(
      '20 D10 tests on 6',
      histogram((dice) => tests.count(dice, 20, 6), 3, 21),
      histogram((dice) => testTables.count(dice, 20, 6), 4, 21),
      ALPHA,
    );
    expectSameDistribution(
      '7 D10 tests on 12 (10 fails)',
      histogram((dice) => tests.count(dice, 7, 12), 5, 8),
      histogram((dice) => testTables.count(dice, 7, 12), 6, 8),
      ALPHA,
    );
  });

  it('ScriptedDice.pick takes the outcome itself and refuses an impossible one', () => {
    const table = new OutcomeTable([0, 2, 3], [0.2, 0.3, 0.5]);
    expect(new ScriptedDice([3]).pick(table)).toBe(3);
    expect(() => new ScriptedDice([1]).pick(table)).toThrow(/not a possible outcome/);
  });
});

/** Every path of `trial`, as value → probability. */
function enumerate(trial: (dice: Dice) => number): { distribution: Map<number, number>; paths: number } {
  const dice = new EnumeratingDice();
  const distribution = new Map<number, number>();
  let paths = 0;
  do {
    dice.begin();
    const value = trial(dice);
    distribution.set(value, (distribution.get(value) ?? 0) + dice.probability);
    paths++;
  } while (dice.advance());
  return { distribution, paths };
}

describe('EnumeratingDice', () => {
  it('two D6: 36 paths, P(total = t) = (6 − |t − 7|) / 36', () => {
    const { distribution, paths } = enumerate((dice) => dice.d6() + dice.d6());
    expect(paths).toBe(36);
    for (let t = 2; t <= 12; t++) expect(distribution.get(t)).toBeCloseTo((6 - Math.abs(t - 7)) / 36, 15);
  });

  it('paths of different lengths: a chance, then a table only when it holds', () => {
    const table = new OutcomeTable([1, 2, 3], [0.5, 0.25, 0.25]);
    const { distribution, paths } = enumerate((dice) => (dice.chance(0.4) ? dice.pick(table) : 0));
    expect(paths).toBe(4);
    expect(distribution.get(0)).toBeCloseTo(0.6, 15);
    expect(distribution.get(1)).toBeCloseTo(0.2, 15);
    expect(distribution.get(2)).toBeCloseTo(0.1, 15);
    expect(distribution.get(3)).toBeCloseTo(0.1, 15);
  });

  it('a draw that depends on an earlier one (a D6 number of D6 Wounds, ≥ 5 each)', () => {
    // P(k successes) = Σ_n (1/6) · Binomial(n, 1/3)(k).
    const { distribution } = enumerate((dice) => {
      let wounds = 0;
      for (let n = dice.d6(); n > 0; n--) if (dice.d6() >= 5) wounds++;
      return wounds;
    });
    for (let k = 0; k <= 6; k++) {
      let p = 0;
      for (let n = 1; n <= 6; n++) p += (binomial(n, 1 / 3)[k] ?? 0) / 6;
      // 6⁶ + … paths summed: within paths · 2⁻⁵³ ≈ 6e-12 (sim/exact.ts's bound), far above the products' error.
      expect(Math.abs((distribution.get(k) ?? 0) - p)).toBeLessThan(1e-11);
    }
  });

  it('gives up on a re-roll loop (paths of every length) instead of running forever', () => {
    expect(() =>
      enumerate((dice) => {
        let a = 0;
        let b = 0;
        while (a === b) {
          a = dice.d6();
          b = dice.d6();
        }
        return a > b ? 1 : 0;
      }),
    ).toThrow(TooManyOutcomesError);
  });

  it('notices a kernel that draws differently on a replayed path', () => {
    let calls = 0;
    expect(() => enumerate((dice) => (calls++ === 1 ? dice.d10() : dice.d6()))).toThrow(/drew differently/);
  });
});
