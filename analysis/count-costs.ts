import { InputError } from '../input/errors.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { type CellLevel, type CellSource, checkSeed, RosterCells } from './count-cells.js';
import {
  type CountPriceInput,
  cornerRequests,
  measuredCurve,
  MIXED,
  type PriceStatus,
  priceOneUnit,
  scoreAt,
  situationPick,
  solvePrices,
} from './count-prices.js';
import { type Interval, Z_95 } from '../statistics/intervals.js';
import { entryOf, type PlayedSituation, rosterEntries, trialsPerSeat } from './matchups.js';
import type { Estimate } from '../statistics/outcome.js';
import { type PriceRow, priceRow, type SituationPrice } from './price-list.js';
import { DEFAULT_TOLERANCE, type Tolerance } from './price-verdict.js';
import { type LoadedRoster, withDataSnapshot } from '../input/roster.js';
import { analysisSeed } from './seated.js';

/**
 * `crucible balance` for units bought by count: what each unit should cost, from games at equal
 * points (analysis/count-prices.ts has the method). Either one unit against the list as published
 * (`unit`), or a whole price list at which every unit is even with the list at the new prices.
 * Every result is checked by playing it again: fresh games at the proposed prices, each unit's
 * equal-points score printed, within ±CHECK_TOLERANCE of ½ (allowing for the replay's own noise)
 * when the prices are right.
 */

export interface CountCostOptions {
  /** Points each side spends. */
  readonly budget: number;
  /** Price this entry alone, the others at their published costs; default: every entry, a price list. */
  readonly unit?: string;
  /** The entries of the list (default: all). */
  readonly only?: readonly string[];
  readonly seed?: number;
  /** ± on each measured score near the answer (default 0.01); the search measures at 3× that. */
  readonly precision?: number;
  readonly tolerance?: Tolerance;
  /** Play the proposed prices again on fresh dice (default true). */
  readonly check?: boolean;
  readonly executor?: ShardExecutor;
  readonly onRun?: (runs: number) => void;
}

/** A replayed score's allowed distance from ½: 2 points. */
export const CHECK_TOLERANCE = 0.02;

export interface OpponentPrice {
  readonly opponent: string;
  readonly name: string;
  /** Models it fields on average at its (proposed) price. */
  readonly count: number;
  /** The unit's models for an even game against this opponent alone, and the price that makes that many equal points. */
  readonly fairCount?: number;
  readonly cost?: number;
  /** Why there is none: the unit wins even at 1 model, or loses even at the most measured. */
  readonly status: PriceStatus;
}

export interface CountUnitPrice extends PriceRow {
  /** Models it fields on average at its proposed price: budget / price. */
  readonly count?: number;
  readonly status: PriceStatus;
  /** Its score against the list with every unit at its published cost. */
  readonly publishedScore?: Estimate;
  /** The whole counts measured, its score against the list at the proposed prices. */
  readonly curve: readonly { readonly count: number; readonly score: Estimate; readonly fine: boolean }[];
  readonly opponents: readonly OpponentPrice[];
  /** The replay: its equal-points score at the proposed prices, on fresh dice. */
  readonly check?: { readonly score: Estimate; readonly pass: boolean };
}

export interface CountCosts {
  readonly scope: 'list' | 'unit';
  readonly budget: number;
  readonly tolerance: Tolerance;
  readonly seed: number;
  readonly precision: number;
  readonly maxCount: number;
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly entries: readonly { readonly id: string; readonly name: string; readonly published: number }[];
  readonly units: readonly CountUnitPrice[];
  readonly check?: { readonly seed: number; readonly passed: boolean; readonly misses: readonly string[] };
  /** False when the price list's iteration did not settle (the check then says how far its prices are from even). */
  readonly converged: boolean;
  readonly situations: readonly PlayedSituation[];
  readonly trials: number;
  readonly runs: number;
  /** The runs by what they were for, each with its trials (per run): the search (coarse), the answer (fine), the check. */
  readonly runsBy: readonly { readonly purpose: 'search' | 'answer' | 'check'; readonly runs: number; readonly trials: number }[];
}

const estimate = (score: number, variance: number): Estimate => {
  const half = Z_95 * Math.sqrt(Math.max(0, variance));
  return { value: score, interval: { low: Math.max(0, score - half), high: Math.min(1, score + half) } };
};

/** The most models a search may field: a price down to an eighth of the cheapest published one (and 1 point). */
function maxCountFor(budget: number, published: readonly number[]): number {
  const cheapest = Math.min(...published);
  return Math.max(2, Math.min(Math.ceil(budget), Math.ceil((8 * budget) / cheapest)));
}

function statusText(status: PriceStatus, budget: number, maxCount: number): string {
  return status === 'wins at 1 model'
    ? `wins at 1 model: worth at least the budget (${budget} points); try a larger --budget`
    : `loses at ${maxCount} models: worth less than ${(budget / maxCount).toPrecision(2)} points`;
}

export async function countCosts(given: LoadedRoster, options: CountCostOptions): Promise<CountCosts> {
  const roster = withDataSnapshot(given);
  if (roster.roster.fielded === 'whole')
    throw InputError.at(
      roster.file,
      'fielded',
      'this roster fields each entry whole (fielded: whole): its costs come from a round robin at published points, not from counts',
    );
  const entries = rosterEntries(roster, options.only);
  if (options.unit !== undefined && !entries.some((entry) => entry.id === options.unit)) {
    rosterEntries(roster, [options.unit]);
    throw InputError.at(roster.file, 'entries', `${options.unit} is not among the entries priced (--only)`);
  }
  if (entries.length < 2)
    throw InputError.at(roster.file, 'entries', 'pricing needs at least 2 entries: a unit is priced against the others');
  entries.forEach((entry) => {
    const index = roster.roster.entries.indexOf(entry);
    if (entry.cost === undefined || !(entry.cost > 0))
      throw InputError.at(
        roster.file,
        `entries[${index}].cost`,
        `${entry.id} has no cost above 0: pricing needs every entry's published cost`,
      );
    if (entry.cost > options.budget)
      throw InputError.at(
        roster.file,
        `entries[${index}].cost`,
        `${entry.id} costs ${entry.cost}, more than the budget of ${options.budget} points: give a --budget of at least ${entry.cost}`,
      );
  });
  const published = entries.map((entry) => entry.cost as number);
  const precision = options.precision ?? 0.01;
  const tolerance = options.tolerance ?? DEFAULT_TOLERANCE;
  const seed = analysisSeed(roster, options.seed);
  const maxCount = maxCountFor(options.budget, published);
  const trials: Record<CellLevel, number> = {
    coarse: trialsPerSeat(Math.min(0.45, precision * 3), 'both'),
    fine: trialsPerSeat(precision, 'both'),
  };
  let runs = 0;
  const counted = () => {
    runs += 1;
    options.onRun?.(runs);
  };
  const cells = new RosterCells(roster, entries, seed, trials, options.executor, counted);
  const unitIndex = options.unit === undefined ? undefined : entries.findIndex((entry) => entry.id === options.unit);
  const free = entries.map((_, u) => unitIndex === undefined || u === unitIndex);
  const input: CountPriceInput = { budget: options.budget, published, free, maxCount };

  // How each unit fares today: everyone at its published cost.
  const atPublished = published.map((cost) => Math.min(maxCount, Math.max(1, options.budget / cost)));
  await cells.measure(cornerRequests(atPublished, free, maxCount), 'fine');
  const solution = await solvePrices(cells, input);
  const stuck = solution.prices.flatMap((price, u) =>
    free[u] && price.status !== 'priced' ? [`${entries[u]?.id}: ${statusText(price.status, options.budget, maxCount)}`] : [],
  );
  if (unitIndex === undefined && stuck.length > 0)
    throw InputError.at(roster.file, 'entries', `no price list can make every unit even at ${options.budget} points: ${stuck.join('; ')}`);
  const { kappa } = solution;

  const several = roster.situations.length > 1;
  const check = options.check ?? true;
  const checkCells = check ? new RosterCells(roster, entries, checkSeed(seed), trials, options.executor, counted) : undefined;
  const replays = checkCells === undefined ? undefined : await replayCheck(checkCells, kappa, free, maxCount);

  const units: CountUnitPrice[] = [];
  for (const [u, entry] of entries.entries()) {
    if (!free[u]) continue;
    const price = solution.prices[u];
    if (price === undefined) continue;
    const name = entryOf(entry).name;
    const situations: SituationPrice[] | undefined = several
      ? await Promise.all(
          roster.situations.map(async (situation, s) => {
            const own = await priceOneUnit(cells, input, kappa, u, situationPick(s), 'fine');
            return {
              situation: situation.name,
              share: situation.share,
              ...(own.status === 'priced' ? { deserved: own.price } : {}),
              ...(own.interval === undefined ? {} : { interval: own.interval }),
            };
          }),
        )
      : undefined;
    const opponents = await Promise.all(
      entries.map(async (opponent, v): Promise<OpponentPrice | undefined> => {
        if (v === u) return undefined;
        const alone = await priceOneUnit(cells, input, kappa, u, MIXED, 'coarse', v);
        return {
          opponent: opponent.id,
          name: entryOf(opponent).name,
          count: kappa[v] as number,
          status: alone.status,
          ...(alone.status === 'priced' ? { fairCount: alone.kappa, cost: alone.price } : {}),
        };
      }),
    );
    const today = scoreAt(cells, maxCount, u, atPublished);
    const replay = replays?.[u];
    const priced = price.status === 'priced';
    const row = priceRow(
      { id: entry.id, name, published: published[u] as number },
      priced ? price.price : undefined,
      priced ? (price.interval as Interval | undefined) : undefined,
      tolerance,
      situations,
    );
    units.push({
      ...row,
      ...(priced ? { count: price.kappa } : { problem: statusText(price.status, options.budget, maxCount) }),
      status: price.status,
      publishedScore: estimate(today.score, today.variance),
      curve: measuredCurve(cells, maxCount, u, kappa).map((point) => ({
        count: point.count,
        score: estimate(point.score, point.variance),
        fine: point.fine,
      })),
      opponents: opponents.filter((entry): entry is OpponentPrice => entry !== undefined),
      ...(replay === undefined || !priced ? {} : { check: { score: estimate(replay.score, replay.variance), pass: replay.pass } }),
    });
  }
  const misses = units.filter((unit) => unit.check?.pass === false).map((unit) => unit.id);
  const provenance = cells.provenance ?? { ruleset: '', engineVersion: '' };
  return {
    scope: unitIndex === undefined ? 'list' : 'unit',
    budget: options.budget,
    tolerance,
    seed,
    precision,
    maxCount,
    ruleset: provenance.ruleset,
    engineVersion: provenance.engineVersion,
    entries: entries.map((entry, u) => ({ id: entry.id, name: entryOf(entry).name, published: published[u] as number })),
    units,
    ...(checkCells === undefined ? {} : { check: { seed: checkSeed(seed), passed: misses.length === 0, misses } }),
    converged: solution.converged,
    situations: cells.leftOut.played(roster.situations),
    trials: cells.trialsInAll + (checkCells?.trialsInAll ?? 0),
    runs,
    runsBy: [
      { purpose: 'search' as const, runs: cells.runsAt.coarse, trials: trials.coarse },
      { purpose: 'answer' as const, runs: cells.runsAt.fine, trials: trials.fine },
      ...(checkCells === undefined ? [] : [{ purpose: 'check' as const, runs: checkCells.runsAt.fine, trials: trials.fine }]),
    ].filter((entry) => entry.runs > 0),
  };
}

/**
 * The check: each free unit's score against the list at κ, read from cells of their own (fresh dice:
 * `source` seeded apart from the cells the prices came from), and whether it is within
 * ±CHECK_TOLERANCE of ½ allowing for its own noise — it misses only when its 95% interval lies
 * wholly beyond, so the replay's noise alone does not call a right price wrong at any precision
 * (without the allowance it did, for one unit in eight at -p 0.05: test/analysis/replay-check.test.ts).
 */
export async function replayCheck(
  source: CellSource,
  kappa: readonly number[],
  free: readonly boolean[],
  maxCount: number,
): Promise<({ readonly score: number; readonly variance: number; readonly pass: boolean } | undefined)[]> {
  await source.measure(cornerRequests(kappa, free, maxCount), 'fine');
  return kappa.map((_, u) => {
    if (!free[u]) return undefined;
    const { score, variance } = scoreAt(source, maxCount, u, kappa);
    return { score, variance, pass: Math.abs(score - 0.5) - Z_95 * Math.sqrt(variance) <= CHECK_TOLERANCE };
  });
}
