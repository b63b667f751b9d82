import { RULE_SYSTEMS } from '../engine/rulesets.js';
import { closestNames } from '../engine/validation.js';
import { InputError } from '../sim/errors.js';
import { type LoadedScenario, loadScenarioData } from '../sim/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import type { RulesProvenance } from '../sim/provenance.js';
import { Z_95 } from './intervals.js';
import { combineOutcomes, type Outcome, outcomeFromCounts, outcomeOf, reversed } from './outcome.js';
import { type LoadedRoster, type RosterEntry, type Seat, seatedScenario, withDataSnapshot } from './roster.js';
import { runScenario, type ScenarioResult, type ScenarioRunOptions } from './run.js';

/**
 * Every roster entry against every entry (or a chosen set), run on one executor (one worker pool
 * for the whole matrix). Each pairing is played in both seatings by default — the row unit as the
 * first side (who acts first, or whatever the template's first side does) and as the second — with
 * equal trials, and reported per seating and combined (the mean of the two: neither side of the
 * template is favoured). Each ordered pair is run once: the run of u seated first against v is
 * also v's game seated second against u, so both seatings cost no more than one.
 *
 * A cell holds P(win), P(draw), P(loss) and the expected score (win + ½ draw), each with its 95%
 * interval (analysis/outcome.ts).
 */
export const SEATINGS = ['both', 'first', 'second'] as const;
export type Seating = (typeof SEATINGS)[number];

export interface MatchupCell {
  /** Entry ids: the row unit's outcome against the column unit. */
  readonly row: string;
  readonly column: string;
  /** The row unit seated first (side A) and second; present for the seatings played. */
  readonly first?: Outcome | undefined;
  readonly second?: Outcome | undefined;
  /** Both seatings weighted equally (or the one played). */
  readonly combined: Outcome;
}

export interface MatchupEntry {
  readonly id: string;
  readonly name: string;
  readonly count: number;
  readonly cost?: number | undefined;
  /** count × cost: the points the entry fields. */
  readonly points?: number | undefined;
}

export interface MatchupsResult extends Omit<RulesProvenance, 'unitsDigest'> {
  readonly roster: string;
  readonly file: string;
  readonly description?: string;
  readonly seating: Seating;
  readonly seed: number;
  /** Trials of each run (each seating of each pairing). */
  readonly trialsPerSeat: number;
  /** The ±precision those trials guarantee on every combined expected score (worst case). */
  readonly precision: number;
  /** Each seating stopped at its own precision (`adaptive`), after at most `trialsPerSeat` trials; each outcome holds its trials. */
  readonly adaptive?: true;
  /** Trials of every run, added up. */
  readonly trialsInAll: number;
  readonly entries: readonly MatchupEntry[];
  readonly cells: readonly MatchupCell[];
}

export interface MatchupOptions {
  /** Entry ids to include (default: all). */
  readonly only?: readonly string[];
  readonly seed?: number;
  /** Default both. */
  readonly seating?: Seating;
  /**
   * Every run gets the trials that bound each cell's expected score within ±precision whatever it
   * is (the worst case; default 0.01), or `trials` per seating.
   */
  readonly precision?: number;
  readonly trials?: number;
  /**
   * With `precision`: stop each seating once its own expected score is within its share of ±precision
   * (sim/score-stop.ts) instead of always running the worst case's trials; a lopsided pairing needs fewer.
   */
  readonly adaptive?: boolean;
  readonly executor?: ShardExecutor;
  /** After each run: how many are done of how many. */
  readonly onRun?: (done: number, total: number) => void;
}

/** The two sides' names: the labels of their wins in the win metric. */
export function sidesOf(loaded: LoadedScenario): readonly [string, string] {
  const sides = loaded.system.sides?.(loaded.scenario);
  if (sides === undefined) {
    const withSides = RULE_SYSTEMS.filter((system) => system.sides !== undefined).map((system) => system.id).join(', ');
    throw new InputError([{ file: loaded.file, path: 'ruleset', message: `a ${loaded.ruleset} scenario has no sides to win: matchups need a rule system with two sides (${withSides}, or a plugin declaring sides)` }]);
  }
  return sides;
}

export function rosterEntries(roster: LoadedRoster, only?: readonly string[]): RosterEntry[] {
  if (only === undefined) return roster.roster.entries;
  const missing = only.filter((id) => !roster.roster.entries.some((entry) => entry.id === id));
  if (missing.length > 0) {
    const ids = roster.roster.entries.map((entry) => entry.id);
    const hint = (id: string) => {
      const [near] = closestNames(id, ids, 1);
      return near === undefined ? JSON.stringify(id) : `${JSON.stringify(id)} (did you mean ${JSON.stringify(near)}?)`;
    };
    throw new InputError([{ file: roster.file, path: '--only', message: `the roster has no entry ${missing.map(hint).join(', ')}; its entries: ${ids.join(', ')}` }]);
  }
  return roster.roster.entries.filter((entry) => only.includes(entry.id));
}

/** Trials that bound a proportion's 95% interval within ±precision at any p (the worst case p = ½). */
export function worstCaseTrials(precision: number): number {
  return Math.ceil((Z_95 * Z_95) / (4 * precision * precision));
}

/**
 * Trials per seating for ±precision on the combined score: a score's variance is at most ¼ per
 * trial, and the mean of two seatings of n trials each has at most ¼/(2n).
 */
export function trialsPerSeat(precision: number, seating: Seating): number {
  return seating === 'both' ? Math.ceil((Z_95 * Z_95) / (8 * precision * precision)) : worstCaseTrials(precision);
}

/** One pairing as played: `unit` in `seat` against `opponent`, the outcome for `unit`; with `stopAt`, stopped once its score is within ±stopAt. */
export async function playSeated(roster: LoadedRoster, unit: RosterEntry, opponent: RosterEntry, seat: Seat, run: ScenarioRunOptions, counts?: { unit: number; opponent: number }, stopAt?: number): Promise<{ outcome: Outcome; result: ScenarioResult; loaded: LoadedScenario }> {
  const { file, data } = seatedScenario(roster, unit, opponent, seat, counts);
  let loaded: LoadedScenario;
  try {
    loaded = await loadScenarioData(file, data, roster.files);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // The scenario exists only in memory: say it of the roster, and of the pairing that made it.
    const pairing = `${unit.id} ×${counts?.unit ?? unit.count} against ${opponent.id} ×${counts?.opponent ?? opponent.count}`;
    throw new InputError(error.problems.map((problem) => (problem.file === file ? { file: roster.file, path: 'template', message: `${pairing}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}` } : problem)));
  }
  const names = sidesOf(loaded);
  if (names[0] === names[1]) throw new InputError([{ file: roster.file, path: 'template.sides', message: `both sides are named ${JSON.stringify(names[0])} when ${unit.id} meets ${opponent.id}: the win metric cannot tell them apart (use $A.name and $B.name in the side names)` }]);
  const [side, other] = seat === 0 ? names : [names[1], names[0]];
  const { winMetric } = roster.roster;
  const result = await runScenario(loaded, stopAt === undefined ? run : { ...run, scoreStop: { winMetric, side, other, halfWidth: stopAt } });
  const outcome = outcomeOf(result, loaded, winMetric, side, other);
  return { outcome, result, loaded };
}

export function entryOf(entry: RosterEntry): MatchupEntry {
  return {
    id: entry.id,
    name: entry.name ?? entry.id,
    count: entry.count,
    ...(entry.cost === undefined ? {} : { cost: entry.cost, points: entry.cost * entry.count }),
  };
}

export async function matchups(given: LoadedRoster, options: MatchupOptions = {}): Promise<MatchupsResult> {
  const roster = withDataSnapshot(given);
  const seating = options.seating ?? 'both';
  const precision = options.precision ?? 0.01;
  const trials = options.trials ?? trialsPerSeat(precision, seating);
  const adaptive = options.adaptive === true && options.trials === undefined;
  let trialsInAll = 0;
  const entries = rosterEntries(roster, options.only);
  // Run u seated first against v for every ordered pair: cell (u, v) seated first, and cell (v, u) seated second.
  const pairs = entries.flatMap((a) => entries.map((b) => [a, b] as const));
  const firstSeated = new Map<string, Outcome>();
  let provenance: RulesProvenance | undefined;
  let seed = options.seed;
  let done = 0;
  const key = (row: string, column: string) => `${row}\u0000${column}`;
  const play = async (index: number): Promise<void> => {
    const [unit, opponent] = pairs[index] as readonly [RosterEntry, RosterEntry];
    const { outcome, result } = await playSeated(
      roster,
      unit,
      opponent,
      0,
      {
        trials,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.executor === undefined ? {} : { executor: options.executor }),
      },
      undefined,
      adaptive ? seatHalfWidth(precision, seating) : undefined,
    );
    trialsInAll += outcome.trials;
    firstSeated.set(key(unit.id, opponent.id), outcome);
    provenance ??= result;
    seed ??= result.seed;
    options.onRun?.(++done, pairs.length);
  };
  // Several pairings at once keep every worker busy: a pairing often needs a single shard.
  const lanes = Math.max(1, 2 * (options.executor?.workers ?? 1));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, pairs.length) }, async () => {
      while (next < pairs.length) await play(next++);
    }),
  );
  const cells = entries.flatMap((row) =>
    entries.map((column): MatchupCell => {
      const first = firstSeated.get(key(row.id, column.id));
      const asSecond = firstSeated.get(key(column.id, row.id));
      if (first === undefined || asSecond === undefined) throw new Error(`pairing ${row.id} – ${column.id} was not run`);
      const second = reversed(asSecond);
      if (seating === 'first') return { row: row.id, column: column.id, first, combined: first };
      if (seating === 'second') return { row: row.id, column: column.id, second, combined: second };
      // A mirror pairing's two seatings are one run: its combined score is exactly ½.
      return { row: row.id, column: column.id, first, second, combined: row.id === column.id ? mirrorOutcome(first) : combineOutcomes([first, second]) };
    }),
  );
  const { unitsDigest: _digest, ...rules } = provenance ?? { ruleset: '', engineVersion: '', unitsDigest: '' };
  return {
    ...rules,
    roster: roster.roster.name,
    file: roster.file,
    ...(roster.roster.description === undefined ? {} : { description: roster.roster.description }),
    seating,
    seed: seed ?? 0,
    trialsPerSeat: trials,
    precision: options.trials === undefined ? precision : achievedPrecision(trials, seating),
    ...(adaptive ? { adaptive: true as const } : {}),
    trialsInAll,
    entries: entries.map(entryOf),
    cells,
  };
}

/** The ± each seating's score must reach for ±precision on the combined score: the mean of two seatings has half their summed variances. */
export function seatHalfWidth(precision: number, seating: Seating): number {
  return seating === 'both' ? precision * Math.SQRT2 : precision;
}

/** The worst-case ±half-width of a combined score from `trials` per seating. */
export function achievedPrecision(trials: number, seating: Seating): number {
  return Z_95 * Math.sqrt(1 / ((seating === 'both' ? 8 : 4) * trials));
}

/**
 * A unit against itself in both seatings: one run seen from either side, so the combined outcome
 * is its wins as the first side plus its wins as the second over twice the trials — the score is
 * exactly ½ (win and loss are the same number), with no interval; P(win) and P(draw) keep theirs.
 */
function mirrorOutcome(first: Outcome): Outcome {
  const n = first.trials;
  const wins = Math.round(first.win.value * n);
  const losses = Math.round(first.loss.value * n);
  const pooled = outcomeFromCounts(wins + losses, 2 * (n - wins - losses), wins + losses);
  // Exactly ½ by construction, whatever the dice: no interval around it.
  return { ...pooled, score: { value: 0.5, interval: { low: 0.5, high: 0.5 } }, scoreVariance: 0 };
}
