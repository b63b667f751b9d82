import { InputError } from '../sim/errors.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import type { Interval } from './intervals.js';
import { entryOf, playSeated, rosterEntries, type Seating, trialsPerSeat } from './matchups.js';
import { combineOutcomes, type Estimate, type Outcome } from './outcome.js';
import { fitRatio, type RatioFit } from './ratio-fit.js';
import { type LoadedRoster, type RosterEntry, type Seat, withDataSnapshot } from './roster.js';
import type { ScenarioResult, ScenarioRunOptions } from './run.js';

/**
 * Fitting a unit's point cost by count (`crucible balance`, rosters fielded `by-count`). At a
 * budget each opponent fields the whole models its published cost buys (at least one), which is
 * rarely exactly the budget: 4 Knights at 16 are 64 points, 2 Ogres at 25 are 50. So the fit does
 * not compare counts with the budget but with what each opponent actually fielded: the unit's
 * expected score (win + ½ draw, both seatings) at count k against an opponent fielding Pₒ points is
 * modelled as logit(score) = αₒ + β·ln(k / Pₒ) — a curve per opponent, sharing its slope
 * (analysis/ratio-fit.ts) — and the fair cost is the c at which the unit's average score over the
 * opponents, each met at equal points (k = Pₒ / c models), is ½. Its interval covers the
 * simulation noise and how loosely the curves fit (the fit's dispersion).
 *
 * The counts measured: a bisection on the count for the average score over the opponents (coarse,
 * at 3× the precision), then the two counts around ½ and one more on either side, at the precision.
 * Every run has fixed trials (the worst case for ±precision on the combined score), so `-p` sets
 * the work.
 */
export interface BalanceOptions {
  readonly budget: number;
  /** Opponents (default: every other entry). */
  readonly against?: readonly string[];
  readonly seed?: number;
  /** ± on each combined score near the answer (default 0.01); the bisection uses 3×. */
  readonly precision?: number;
  /** Default both. */
  readonly seating?: Seating;
  readonly executor?: ShardExecutor;
  readonly maxCount?: number;
  readonly onRun?: (runs: number) => void;
}

/** The unit at one count against one opponent. */
export interface CountObservation {
  readonly opponent: string;
  readonly count: number;
  readonly opponentCount: number;
  /** Points the opponent fielded: its count × its published cost. */
  readonly opponentPoints: number;
  readonly first?: Outcome;
  readonly second?: Outcome;
  readonly combined: Outcome;
}

/** The mean over the opponents at one count. */
export interface CountScore {
  readonly count: number;
  readonly score: Estimate;
  readonly trials: number;
}

/** Against one opponent: the count at which the unit scores ½, and what that makes the unit worth. */
export interface OpponentWorth {
  readonly opponent: string;
  readonly name: string;
  readonly count: number;
  readonly points: number;
  /** Interpolated between the measured counts around ½; undefined when they do not straddle it. */
  readonly fairCount?: number;
  /** points / fairCount: the unit's cost judged by this opponent alone. */
  readonly cost?: number;
}

export interface CountBalance {
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly seed: number;
  readonly unit: string;
  readonly name: string;
  readonly budget: number;
  readonly publishedCost?: number;
  /** Undefined (with `problem`) when the score does not cross ½ between 1 and maxCount models, or the fit fails. */
  readonly fairCost?: number;
  readonly costInterval?: Interval;
  /** budget / fairCost: the models the budget buys at the fair cost. */
  readonly fairCount?: number;
  readonly fit?: Pick<RatioFit, 'intercepts' | 'beta' | 'dispersion' | 'degreesOfFreedom' | 'intervalBasis'>;
  readonly problem?: string;
  readonly curve: readonly CountScore[];
  readonly opponents: readonly OpponentWorth[];
  readonly observations: readonly CountObservation[];
  readonly trials: number;
}

const countFor = (budget: number, cost: number): number => Math.max(1, Math.round(budget / cost));

/** The unit at `count` against one opponent, in the seatings asked for. */
async function observe(roster: LoadedRoster, unit: RosterEntry, opponent: RosterEntry, count: number, budget: number, seating: Seating, run: ScenarioRunOptions, seen: (result: ScenarioResult) => void): Promise<CountObservation> {
  const cost = opponent.cost as number;
  const opponentCount = countFor(budget, cost);
  const seats: Seat[] = seating === 'both' ? [0, 1] : seating === 'first' ? [0] : [1];
  const outcomes: Outcome[] = [];
  for (const seat of seats) {
    const played = await playSeated(roster, unit, opponent, seat, run, { unit: count, opponent: opponentCount });
    outcomes.push(played.outcome);
    seen(played.result);
  }
  const [first, second] = seating === 'second' ? [undefined, outcomes[0]] : [outcomes[0], outcomes[1]];
  return {
    opponent: opponent.id,
    count,
    opponentCount,
    opponentPoints: opponentCount * cost,
    ...(first === undefined ? {} : { first }),
    ...(second === undefined ? {} : { second }),
    combined: combineOutcomes(outcomes),
  };
}

/** The count where measured points cross `target`, interpolated; undefined if they do not. */
export function crossing(points: readonly { count: number; value: number }[], target: number): number | undefined {
  const sorted = [...points].sort((a, b) => a.count - b.count);
  for (let i = 0; i + 1 < sorted.length; i++) {
    const low = sorted[i]!;
    const high = sorted[i + 1]!;
    if (low.value <= target && high.value >= target) {
      return high.value === low.value ? low.count : low.count + ((target - low.value) / (high.value - low.value)) * (high.count - low.count);
    }
  }
  return undefined;
}

export async function balance(given: LoadedRoster, unitId: string, options: BalanceOptions): Promise<CountBalance> {
  const roster = withDataSnapshot(given);
  if (roster.roster.fielded === 'whole') {
    throw new InputError([{ file: roster.file, path: 'fielded', message: 'this roster fields each entry whole (fielded: whole): its costs are fitted from a round robin at published points (balance --all), not by varying counts' }]);
  }
  const [unit] = rosterEntries(roster, [unitId]);
  if (unit === undefined) throw new InputError([{ file: roster.file, path: 'entries', message: `no entry ${JSON.stringify(unitId)}` }]);
  const opponents = rosterEntries(roster, options.against ?? roster.roster.entries.filter((entry) => entry.id !== unitId).map((entry) => entry.id));
  if (opponents.length === 0) throw new InputError([{ file: roster.file, path: 'entries', message: `${unitId} has no opponents: balance needs another entry (or --only ${unitId} alone, for the unit against itself)` }]);
  opponents.forEach((opponent) => {
    if (opponent.cost === undefined) {
      const index = roster.roster.entries.indexOf(opponent);
      throw new InputError([{ file: roster.file, path: `entries[${index}].cost`, message: `${opponent.id} has no cost: balance needs every opponent's published cost` }]);
    }
  });
  const seating = options.seating ?? 'both';
  const precision = options.precision ?? 0.01;
  const base = { ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.executor === undefined ? {} : { executor: options.executor }) };
  const coarse: ScenarioRunOptions = { ...base, trials: trialsPerSeat(Math.min(0.45, precision * 3), seating) };
  const fine: ScenarioRunOptions = { ...base, trials: trialsPerSeat(precision, seating) };
  let runs = 0;
  let meta: { ruleset: string; engineVersion: string; seed: number } | undefined;
  const seen = (result: ScenarioResult) => {
    meta ??= { ruleset: result.ruleset, engineVersion: result.engineVersion, seed: result.seed };
  };
  const measured = new Map<number, { fine: boolean; observations: CountObservation[] }>();
  const at = async (count: number, isFine: boolean) => {
    const known = measured.get(count);
    if (known !== undefined && (known.fine || !isFine)) return known.observations;
    const observations: CountObservation[] = [];
    for (const opponent of opponents) observations.push(await observe(roster, unit, opponent, count, options.budget, seating, isFine ? fine : coarse, seen));
    measured.set(count, { fine: isFine, observations });
    options.onRun?.(++runs);
    return observations;
  };
  const meanScore = (observations: readonly CountObservation[]) => observations.reduce((sum, observation) => sum + observation.combined.score.value, 0) / observations.length;

  // Bisection on the count: the score grows with the models fielded.
  const maxCount = options.maxCount ?? Math.max(2, Math.ceil(options.budget));
  let low = 1;
  let high = maxCount;
  let problem: string | undefined;
  if (meanScore(await at(low, false)) >= 0.5) problem = `one model already scores ${(meanScore(await at(low, false)) * 100).toFixed(0)}% at ${options.budget} points: the unit is worth at least the budget (try a larger one)`;
  else if (meanScore(await at(high, false)) < 0.5) problem = `even ${maxCount} models score below ½: the unit is worth less than ${(options.budget / maxCount).toPrecision(2)} points (or cannot win in this template)`;
  else {
    while (high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      if (meanScore(await at(middle, false)) < 0.5) low = middle;
      else high = middle;
    }
  }
  // The counts around ½, and one more on either side for the slope, at full precision.
  const counts = problem === undefined ? [low - 1, low, high, high + 1].filter((count) => count >= 1 && count <= maxCount) : [...measured.keys()];
  for (const count of counts) await at(count, problem === undefined);
  // Every count measured, coarse ones too: far from ½ they still tell each opponent's curve.
  const observations = [...measured.keys()].sort((a, b) => a - b).flatMap((count) => measured.get(count)?.observations ?? []);

  const curve: CountScore[] = [...measured.keys()].sort((a, b) => a - b).map((count) => {
    const at = measured.get(count)?.observations ?? [];
    const combined = combineOutcomes(at.map((observation) => observation.combined));
    return { count, score: combined.score, trials: combined.trials };
  });
  const worths: OpponentWorth[] = opponents.map((opponent) => {
    const mine = observations.filter((observation) => observation.opponent === opponent.id && (problem !== undefined || counts.includes(observation.count)));
    const fairCount = crossing(mine.map((observation) => ({ count: observation.count, value: observation.combined.score.value })), 0.5);
    const opponentCount = countFor(options.budget, opponent.cost as number);
    const points = opponentCount * (opponent.cost as number);
    return { opponent: opponent.id, name: opponent.name ?? opponent.id, count: opponentCount, points, ...(fairCount === undefined || fairCount <= 0 ? {} : { fairCount, cost: points / fairCount }) };
  });
  const trials = [...measured.values()].reduce((sum, entry) => sum + entry.observations.reduce((total, observation) => total + observation.combined.trials, 0), 0);
  const result = {
    ruleset: meta?.ruleset ?? '',
    engineVersion: meta?.engineVersion ?? '',
    seed: meta?.seed ?? 0,
    unit: unit.id,
    name: entryOf(unit).name,
    budget: options.budget,
    ...(unit.cost === undefined ? {} : { publishedCost: unit.cost }),
    curve,
    opponents: worths,
    observations,
    trials,
  };
  if (problem !== undefined) return { ...result, problem };
  try {
    const fit = fitRatio(
      observations.map((observation) => ({
        opponent: observation.opponent,
        count: observation.count,
        opponentPoints: observation.opponentPoints,
        score: observation.combined.score.value,
        variance: observation.combined.scoreVariance,
        trials: observation.combined.trials,
      })),
    );
    return {
      ...result,
      fairCost: fit.cost,
      costInterval: fit.costInterval,
      fairCount: options.budget / fit.cost,
      fit: { intercepts: fit.intercepts, beta: fit.beta, dispersion: fit.dispersion, degreesOfFreedom: fit.degreesOfFreedom, intervalBasis: fit.intervalBasis },
    };
  } catch (error) {
    if (error instanceof RangeError) return { ...result, problem: `the score against the points ratio could not be fitted: ${error.message}` };
    throw error;
  }
}
