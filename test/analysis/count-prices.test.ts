import { describe, expect, it } from 'vitest';
import { type CountPriceInput, MIXED, priceOneUnit, situationPick, solvePrices } from '../../analysis/count-prices.js';
import { priceRow } from '../../analysis/price-list.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { CHECK_Z } from '../helpers/power.js';
import { type SyntheticGame, SyntheticCells } from '../helpers/synthetic-cells.js';

/**
 * Prices of units bought by count (analysis/count-prices.ts) against games whose truth is known by
 * construction, measured with the noise of real runs (test/helpers/synthetic-cells.ts).
 *
 * The oracle: in a "linear" game a unit's score is ½ + K·(a·wᵤ − b·wᵥ)/BUDGET — a models worth wᵤ
 * each against b worth wᵥ. A side priced c fields BUDGET/c models on average, and the score is linear
 * in the counts, so its equal-points score against v is ½ + K·(κᵤwᵤ − κᵥwᵥ)/BUDGET exactly, and every
 * unit is even with the list exactly when every κᵤwᵤ is the same: prices proportional to worth,
 * cᵤ = wᵤ·e^(−t) with t the mean of the middle half of the ln(wᵤ/pᵤ) (the list's level).
 * One unit alone against the list as published: κᵤwᵤ = mean over the others of κᵥwᵥ at their
 * published prices, so cᵤ = wᵤ / mean(wᵥ/pᵥ).
 *
 * Coverage is judged against its own replications' standard error, per list (a list's units share
 * its noise); each check says the smallest miss it catches.
 */

const BUDGET = 100;
const K = 1;
const TRIALS = { coarse: 1068, fine: 9604 } as const;
const PUBLISHED = [6, 8, 9, 10, 12, 15, 18, 20];

const linearGame = (worth: readonly number[], seed: number, types?: readonly string[]): SyntheticGame => ({
  types: types ?? worth.map((_, u) => `type-${u}`),
  truth: (_s, u, a, v, b) => Math.min(0.98, Math.max(0.02, 0.5 + (K * (a * (worth[u] as number) - b * (worth[v] as number))) / BUDGET)),
  trials: TRIALS,
  seed,
});

const input = (published: readonly number[], free?: number): CountPriceInput => ({
  budget: BUDGET,
  published,
  free: published.map((_, u) => free === undefined || u === free),
  maxCount: 60,
});

/** The interquartile mean (the lowest and highest ⌊n/4⌋ left out), written here from its definition. */
function middleHalfMean(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const cut = Math.floor(sorted.length / 4);
  const kept = sorted.slice(cut, sorted.length - cut);
  return kept.reduce((sum, value) => sum + value, 0) / kept.length;
}

const listTruth = (worth: readonly number[], published: readonly number[]): number[] => {
  const t = middleHalfMean(worth.map((w, u) => Math.log(w / (published[u] as number))));
  return worth.map((w) => w * Math.exp(-t));
};

/** Per-list coverage of `truth` by the price intervals over `lists` lists, with its standard error. */
async function listCoverage(
  lists: number,
  make: (list: number) => { worth: number[]; published: number[] },
): Promise<{ mean: number; se: number }> {
  const rates: number[] = [];
  for (let list = 0; list < lists; list++) {
    const { worth, published } = make(list);
    const truth = listTruth(worth, published);
    const solution = await solvePrices(new SyntheticCells(linearGame(worth, 20261122 + list)), input(published));
    const covered = solution.prices.filter(
      (price, u) =>
        price.interval !== undefined && price.interval.low <= (truth[u] as number) && (truth[u] as number) <= price.interval.high,
    ).length;
    rates.push(covered / worth.length);
  }
  const mean = rates.reduce((sum, rate) => sum + rate, 0) / lists;
  const sd = Math.sqrt(rates.reduce((sum, rate) => sum + (rate - mean) ** 2, 0) / (lists - 1));
  return { mean, se: sd / Math.sqrt(lists) };
}

/** A normal deviate from two uniforms of a list's own little generator (mulberry32), independent of the cells' noise. */
function normals(seed: number, count: number): number[] {
  const uniform = mulberry32(seed);
  return Array.from({ length: count }, () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform()));
}

describe('a price list from games at equal points', () => {
  it('puts every unit where the game says: prices proportional to worth, the fairly priced majority kept where it was', async () => {
    // Three of eight mispriced: worth 40% more, 30% less, 15% more than their price.
    const worth = PUBLISHED.map((p, u) => p * (u === 1 ? 1.4 : u === 4 ? 0.7 : u === 6 ? 1.15 : 1));
    const solution = await solvePrices(new SyntheticCells(linearGame(worth, 20261122)), input(PUBLISHED));
    solution.prices.forEach((price, u) => {
      expect(price.status).toBe('priced');
      // Within its own interval's half-width of the truth (the noise), and the interval narrow: ±1%.
      expect(Math.abs(Math.log(price.price / (worth[u] as number)))).toBeLessThan(0.01);
      expect(price.interval?.low).toBeLessThanOrEqual(price.price);
      expect(price.interval?.high).toBeGreaterThanOrEqual(price.price);
    });
  });

  it('covers the true prices 95% of the time, a list with a few mispriced units or every unit mispriced at random', async () => {
    // 120 lists each: the per-list coverage's standard error is about 0.01, so a true coverage of 90% fails with probability above 0.9.
    const few = await listCoverage(120, (list) => {
      const [z] = normals(list + 1, 1);
      return {
        worth: PUBLISHED.map((p, u) => p * (u === 1 ? 1.4 : u === 4 ? 0.7 : u === 6 ? 1 + 0.1 * (z ?? 0) : 1)),
        published: PUBLISHED,
      };
    });
    const random = await listCoverage(120, (list) => {
      const z = normals(1000 + list, PUBLISHED.length);
      return { worth: PUBLISHED.map((p, u) => p * Math.exp(0.15 * (z[u] ?? 0))), published: PUBLISHED };
    });
    if (process.env.CRUCIBLE_REPORT_RATES !== undefined)
      console.log(
        `price list coverage: few mispriced ${few.mean.toFixed(4)} ± ${few.se.toFixed(4)}, all at random ${random.mean.toFixed(4)} ± ${random.se.toFixed(4)}`,
      );
    for (const { mean, se } of [few, random])
      expect(Math.abs(mean - 0.95), `coverage ${mean} ± ${se}`).toBeLessThanOrEqual(CHECK_Z * se + 0.01);
  });

  it('prices one unit against the list as published, covering its truth 95% of the time', async () => {
    const runs = 400;
    let covered = 0;
    for (let run = 0; run < runs; run++) {
      const worth = PUBLISHED.map((p, u) => p * (u === 3 ? 1.3 : 1) * Math.exp(0.1 * (normals(run + 5000, PUBLISHED.length)[u] ?? 0)));
      const others = worth.filter((_, u) => u !== 3).map((w, i) => w / (PUBLISHED.filter((_, u) => u !== 3)[i] as number));
      const truth = (worth[3] as number) / (others.reduce((sum, value) => sum + value, 0) / others.length);
      const solution = await solvePrices(new SyntheticCells(linearGame(worth, 30_000 + run)), input(PUBLISHED, 3));
      const price = solution.prices[3];
      if (price?.interval !== undefined && price.interval.low <= truth && truth <= price.interval.high) covered++;
      // The others stay at their published costs.
      solution.prices.forEach((other, u) => u !== 3 && expect(other.price).toBeCloseTo(PUBLISHED[u] as number, 9));
    }
    if (process.env.CRUCIBLE_REPORT_RATES !== undefined) console.log(`one unit against the list: covered ${covered} of ${runs}`);
    // Independent runs: binomial. 400 runs catch a coverage of 90% with probability 0.93.
    expect(Math.abs(covered - 0.95 * runs)).toBeLessThanOrEqual(CHECK_Z * Math.sqrt(runs * 0.95 * 0.05));
  });

  it('flags a unit copied at a wrong price and a strictly worse copy, prices identical copies alike, and does not depend on the order of the entries', async () => {
    // Entry 8: a copy of entry 2 (worth 9) sold at 6; entry 9: a copy of entry 5 at its price (15) but worth 35% less; entry 10: an identical copy of entry 3.
    const worth = [...PUBLISHED, 9, 15 * 0.65, 10];
    const published = [...PUBLISHED, 6, 15, 10];
    const types = [...PUBLISHED.map((_, u) => `type-${u}`), 'type-2', 'worse', 'type-3'];
    const lists = 60;
    let cheap = 0;
    let worse = 0;
    for (let list = 0; list < lists; list++) {
      const solution = await solvePrices(new SyntheticCells(linearGame(worth, 40_000 + list, types)), input(published));
      const verdict = (u: number) => {
        const price = solution.prices[u];
        return price === undefined
          ? undefined
          : priceRow({ id: String(u), name: String(u), published: published[u] as number }, price.price, price.interval, {
              kind: 'percent',
              value: 10,
            }).verdict;
      };
      if (verdict(8) === 'under-costed') cheap++;
      if (verdict(9) === 'over-costed') worse++;
      // Copies share their games, so their prices are the same number.
      expect(solution.prices[10]?.price).toBeCloseTo(solution.prices[3]?.price ?? Number.NaN, 12);
      if (list === 0) {
        // The same entries in reverse order: the same prices.
        const order = worth.map((_, u) => worth.length - 1 - u);
        const reversed = await solvePrices(
          new SyntheticCells(
            linearGame(
              order.map((u) => worth[u] as number),
              40_000,
              order.map((u) => types[u] as string),
            ),
          ),
          input(order.map((u) => published[u] as number)),
        );
        order.forEach((u, i) => expect(reversed.prices[i]?.price).toBeCloseTo(solution.prices[u]?.price ?? Number.NaN, 6));
      }
    }
    // 50% and 35% off with ±1% intervals: caught every time (a power below 0.9 fails with probability above 0.998).
    expect(cheap).toBe(lists);
    expect(worse).toBe(lists);
  });

  it('prices each situation on its own and says when a price depends on the mix', async () => {
    // Two situations, equal shares: unit 0 is worth 6 in the first and 12 in the second; every other unit the same in both.
    const worthIn = [PUBLISHED.map((p, u) => (u === 0 ? 6 : p)), PUBLISHED.map((p, u) => (u === 0 ? 12 : p))];
    const game: SyntheticGame = {
      types: PUBLISHED.map((_, u) => `type-${u}`),
      shares: [0.5, 0.5],
      truth: (s, u, a, v, b) =>
        Math.min(
          0.98,
          Math.max(0.02, 0.5 + (K * (a * ((worthIn[s] as number[])[u] as number) - b * ((worthIn[s] as number[])[v] as number))) / BUDGET),
        ),
      trials: TRIALS,
      seed: 50_000,
    };
    const cells = new SyntheticCells(game);
    const solution = await solvePrices(cells, input(PUBLISHED));
    // Mixed: unit 0 is worth (6 + 12)/2 per model against the others (the score is linear), so 9; the rest as published.
    expect(solution.prices[0]?.price).toBeCloseTo(9, 1);
    const alone = await Promise.all([0, 1].map((s) => priceOneUnit(cells, input(PUBLISHED), solution.kappa, 0, situationPick(s), 'fine')));
    // In each situation alone, the others at the mixed prices: 6 and 12.
    expect(alone[0]?.price).toBeCloseTo(6, 1);
    expect(alone[1]?.price).toBeCloseTo(12, 1);
    const row = priceRow(
      { id: 'u0', name: 'u0', published: 6 },
      solution.prices[0]?.price,
      solution.prices[0]?.interval,
      { kind: 'percent', value: 10 },
      alone.map((price, s) => ({ situation: `s${s}`, share: 0.5, deserved: price?.price, interval: price?.interval })),
    );
    expect(row.mixSensitive).toBe(true);
    expect(row.drivenBy).toBe('s1');
    // Against one opponent alone (others unchanged): the same answer as the list in a linear game where every opponent is fair.
    const one = await priceOneUnit(cells, input(PUBLISHED), solution.kappa, 1, MIXED, 'coarse', 2);
    expect(one.price).toBeCloseTo(8, 0);
  });

  it('says when a price is out of reach: a unit that wins at 1 model, one that loses at the most models measured', async () => {
    const worth = [...PUBLISHED, 300, 0.5];
    const published = [...PUBLISHED, 20, 6];
    const cells = new SyntheticCells(linearGame(worth, 60_000));
    const strong = await solvePrices(cells, input(published, 8));
    expect(strong.prices[8]?.status).toBe('wins at 1 model');
    expect(strong.prices[8]?.interval).toBeUndefined();
    const weak = await solvePrices(cells, input(published, 9));
    expect(weak.prices[9]?.status).toBe('loses at the maximum');
  });
});
