import { InputError } from '../sim/errors.js';
import { loadScenarioData } from '../sim/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import type { Interval } from './intervals.js';
import { rosterEntries, winOf } from './matchups.js';
import { type LoadedRoster, matchupScenario, type RosterEntry } from './roster.js';
import { runScenario } from './run.js';

/**
 * Fitting a unit's point cost (`crucible balance`). At a budget, a unit costing c fields budget / c
 * models (stands, units: whatever the roster's count is); each opponent fields what the budget
 * buys at its published cost. The fair cost is where the unit's win rate, averaged over the
 * opponents, meets the target: one half (`win-half`), or the roster's own average win rate at its
 * published costs (`roster-average`). Counts are whole, so the win rate is found at every count
 * the search needs (bisection on the count), refined with more trials near the answer, and
 * interpolated linearly between the two counts around the target: fair count k*, fair cost
 * budget / k*. The interval on the cost comes from the win rates' 95% intervals at those counts.
 */
export const BALANCE_TARGETS = ['win-half', 'roster-average'] as const;
export type BalanceTarget = (typeof BALANCE_TARGETS)[number];

export interface BalanceOptions {
  readonly budget: number;
  readonly target?: BalanceTarget;
  /** Opponents (default: every other entry). */
  readonly against?: readonly string[];
  readonly seed?: number;
  /** Precision of each win rate near the answer (default 0.01); the first pass uses 3×. */
  readonly precision?: number;
  readonly executor?: ShardExecutor;
  readonly maxCount?: number;
  readonly onRun?: (runs: number) => void;
}

export interface CountWinRate {
  readonly count: number;
  readonly winRate: number;
  /** 95% interval of the average (each opponent's Wilson half-width, combined as independent). */
  readonly interval: Interval;
  readonly trials: number;
}

export interface BalanceResult {
  readonly unit: string;
  readonly budget: number;
  readonly target: BalanceTarget;
  readonly targetWinRate: number;
  readonly publishedCost?: number;
  /** undefined when the target is not crossed between 1 and maxCount models. */
  readonly fairCost?: number;
  readonly costInterval?: Interval;
  readonly fairCount?: number;
  readonly curve: readonly CountWinRate[];
}

const countFor = (budget: number, cost: number): number => Math.max(1, Math.round(budget / cost));

async function winRateAt(roster: LoadedRoster, unit: RosterEntry, opponents: readonly RosterEntry[], count: number, budget: number, options: BalanceOptions, precision: number): Promise<CountWinRate> {
  let sum = 0;
  let variance = 0;
  let trials = 0;
  for (const opponent of opponents) {
    if (opponent.cost === undefined) throw new InputError([{ file: roster.file, path: 'entries', message: `${opponent.id} has no cost: balance needs every opponent's published cost` }]);
    const { file, data } = matchupScenario(roster, unit, opponent, { a: count, b: countFor(budget, opponent.cost) });
    const loaded = await loadScenarioData(file, data);
    const result = await runScenario(loaded, {
      precision,
      precisionMetrics: [roster.roster.winMetric],
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.executor === undefined ? {} : { executor: options.executor }),
    });
    const win = winOf(result, loaded, roster.roster.winMetric);
    sum += win.probability;
    const half = Math.max(win.probability - win.interval.low, win.interval.high - win.probability);
    variance += half * half;
    trials += result.trials;
  }
  const n = opponents.length;
  const winRate = sum / n;
  const half = Math.sqrt(variance) / n;
  return { count, winRate, interval: { low: Math.max(0, winRate - half), high: Math.min(1, winRate + half) }, trials };
}

/** The count where a (non-decreasing) curve crosses `target`, interpolated; undefined if it does not. */
export function crossing(points: readonly { count: number; value: number }[], target: number): number | undefined {
  const sorted = [...points].sort((a, b) => a.count - b.count);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const low = sorted[i]!;
    const high = sorted[i + 1]!;
    if (low.value <= target && high.value >= target) {
      return high.value === low.value ? low.count : low.count + ((target - low.value) / (high.value - low.value)) * (high.count - low.count);
    }
  }
  if (sorted[0] !== undefined && sorted[0].value >= target) return sorted[0].count;
  return undefined;
}

export async function balance(roster: LoadedRoster, unitId: string, options: BalanceOptions): Promise<BalanceResult> {
  const [unit] = rosterEntries(roster, [unitId]);
  if (unit === undefined) throw new InputError([{ file: roster.file, path: 'entries', message: `no entry ${JSON.stringify(unitId)}` }]);
  const opponents = rosterEntries(roster, options.against ?? roster.roster.entries.filter((entry) => entry.id !== unitId).map((entry) => entry.id));
  const target = options.target ?? 'win-half';
  const precision = options.precision ?? 0.01;
  let runs = 0;
  let targetWinRate = 0.5;
  if (target === 'roster-average') {
    // The roster's own average win rate at its published costs, over the same opponents.
    let sum = 0;
    for (const entry of opponents) {
      const others = opponents.filter((other) => other.id !== entry.id);
      if (entry.cost === undefined || others.length === 0) continue;
      sum += (await winRateAt(roster, entry, others, countFor(options.budget, entry.cost), options.budget, options, precision * 3)).winRate;
      options.onRun?.(++runs);
    }
    targetWinRate = sum / opponents.length;
  }
  const maxCount = options.maxCount ?? Math.max(2, Math.ceil(options.budget));
  const curve = new Map<number, CountWinRate>();
  const at = async (count: number, fine: boolean) => {
    const known = curve.get(count);
    if (known !== undefined && (!fine || known.trials > 0)) return known;
    const measured = await winRateAt(roster, unit, opponents, count, options.budget, options, fine ? precision : precision * 3);
    curve.set(count, measured);
    options.onRun?.(++runs);
    return measured;
  };
  // Bisection on the count: the win rate grows with the models fielded.
  let low = 1;
  let high = maxCount;
  if ((await at(low, false)).winRate >= targetWinRate) high = low;
  else if ((await at(high, false)).winRate < targetWinRate) low = high;
  else {
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if ((await at(middle, false)).winRate < targetWinRate) low = middle;
      else high = middle;
    }
  }
  // Refine the two counts around the answer.
  curve.delete(low);
  curve.delete(high);
  const lowRate = await at(low, true);
  const highRate = await at(high, true);
  const points = (pick: (rate: CountWinRate) => number) => [lowRate, highRate].map((rate) => ({ count: rate.count, value: pick(rate) }));
  const fairCount = crossing(points((rate) => rate.winRate), targetWinRate);
  // A higher win rate means fewer models reach the target: the upper bound of the count comes from the lower rates.
  const countHigh = crossing(points((rate) => rate.interval.low), targetWinRate) ?? high;
  const countLow = crossing(points((rate) => rate.interval.high), targetWinRate) ?? low;
  const result: BalanceResult = {
    unit: unit.id,
    budget: options.budget,
    target,
    targetWinRate,
    ...(unit.cost === undefined ? {} : { publishedCost: unit.cost }),
    curve: [...curve.values()].sort((a, b) => a.count - b.count),
  };
  if (fairCount === undefined || lowRate.winRate > targetWinRate || highRate.winRate < targetWinRate) return result;
  return {
    ...result,
    fairCount,
    fairCost: options.budget / fairCount,
    costInterval: { low: options.budget / Math.max(countHigh, fairCount), high: options.budget / Math.min(countLow, fairCount) },
  };
}
