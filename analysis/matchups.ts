import { closestNames } from '../engine/validation.js';
import { InputError } from '../input/errors.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { provenanceOf, type RulesProvenance } from '../input/provenance.js';
import { Z_95 } from '../statistics/intervals.js';
import { combineOutcomes, mixOutcomes, type Outcome, outcomeFromCounts, reversed } from '../statistics/outcome.js';
import { type LoadedRoster, type RosterEntry, sameGame, seatingOf, withDataSnapshot } from '../input/roster.js';
import { analysisSeed, inLanes, LeftOutTally, type PlayedSituation, playSeated } from './seated.js';
import type { Situation } from '../input/situations.js';

/**
 * Every roster entry against every entry (or a chosen set), run on one executor (one worker pool
 * for the whole matrix). Each pairing is played in both seatings by default — the row unit as the
 * first side (who acts first, or whatever the template's first side does) and as the second — with
 * equal trials, and reported per seating and combined (the mean of the two: neither side of the
 * template is favoured). Each ordered pair is run once: the run of u seated first against v is
 * also v's game seated second against u, so both seatings cost no more than one. Every run draws
 * from its own seed (analysis/seated.ts), so the two seatings of a cell are independent samples
 * and the combined interval treats them so; a unit against itself (or an identical copy) is one
 * game seen from both sides, exactly even.
 *
 * A roster with several situations plays every pairing in each; a cell holds each situation's
 * outcome and their mix, each weighted by its share of the games.
 *
 * A cell holds P(win), P(draw), P(loss) and the expected score (win + ½ draw), each with its 95%
 * interval (statistics/outcome.ts).
 */
export const SEATINGS = ['both', 'first', 'second'] as const;
export type Seating = (typeof SEATINGS)[number];

/** A pairing's outcomes for the row unit: seated first (side A), second, and both weighted equally. */
export interface SeatingOutcomes {
  /** The row unit seated first (side A) and second; present for the seatings played. */
  readonly first?: Outcome | undefined;
  readonly second?: Outcome | undefined;
  /** Both seatings weighted equally (or the one played). */
  readonly combined: Outcome;
}

export interface SituationCell extends SeatingOutcomes {
  readonly situation: string;
}

export interface MatchupCell extends SeatingOutcomes {
  /** Entry ids: the row unit's outcome against the column unit. */
  readonly row: string;
  readonly column: string;
  /** With several situations: each situation's outcomes (the cell's own are their mix, by share). */
  readonly situations?: readonly SituationCell[] | undefined;
}

export type { PlayedSituation } from './seated.js';

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
  /** The fights every pairing was played in (one, the template, unless the roster lists several). */
  readonly situations: readonly PlayedSituation[];
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
   * (statistics/score-stop.ts) instead of always running the worst case's trials; a lopsided pairing needs fewer.
   */
  readonly adaptive?: boolean;
  readonly executor?: ShardExecutor;
  /** After each run: how many are done of how many. */
  readonly onRun?: (done: number, total: number) => void;
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
    throw new InputError([
      {
        file: roster.file,
        path: '--only',
        message: `the roster has no entry ${missing.map(hint).join(', ')}; its entries: ${ids.join(', ')}`,
      },
    ]);
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

export function entryOf(entry: RosterEntry): MatchupEntry {
  return {
    id: entry.id,
    name: entry.name ?? entry.id,
    count: entry.count,
    ...(entry.cost === undefined ? {} : { cost: entry.cost, points: entry.cost * entry.count }),
  };
}

/** A cell's outcomes from the row unit's game seated first and the column unit's seated first (mirrored: one game seen from both sides). */
function seatingOutcomes(first: Outcome, asSecond: Outcome, seating: Seating, mirror: boolean): SeatingOutcomes {
  const second = reversed(asSecond);
  if (seating === 'first') return { first, combined: first };
  if (seating === 'second') return { second, combined: second };
  // A mirror pairing's two seatings are one game: its combined score is exactly ½.
  return { first, second, combined: mirror ? mirrorOutcome(first) : combineOutcomes([first, second]) };
}

/** Several situations' outcomes of one pairing, mixed by their shares (one situation: its own). */
function mixSituations(cells: readonly SituationCell[], situations: readonly Situation[]): SeatingOutcomes {
  const [only] = cells;
  if (only === undefined) throw new RangeError('no situation played');
  if (cells.length === 1)
    return {
      ...(only.first === undefined ? {} : { first: only.first }),
      ...(only.second === undefined ? {} : { second: only.second }),
      combined: only.combined,
    };
  const shares = situations.map((situation) => situation.share);
  const mix = (pick: (cell: SituationCell) => Outcome | undefined): Outcome | undefined => {
    const outcomes = cells.map(pick);
    return outcomes.every((outcome): outcome is Outcome => outcome !== undefined) ? mixOutcomes(outcomes, shares) : undefined;
  };
  const first = mix((cell) => cell.first);
  const second = mix((cell) => cell.second);
  return {
    ...(first === undefined ? {} : { first }),
    ...(second === undefined ? {} : { second }),
    combined: mix((cell) => cell.combined) as Outcome,
  };
}

export async function matchups(given: LoadedRoster, options: MatchupOptions = {}): Promise<MatchupsResult> {
  const roster = withDataSnapshot(given);
  const seating = options.seating ?? 'both';
  const precision = options.precision ?? 0.01;
  const trials = options.trials ?? trialsPerSeat(precision, seating);
  const adaptive = options.adaptive === true && options.trials === undefined;
  const seed = analysisSeed(roster, options.seed);
  const { situations } = roster;
  let trialsInAll = 0;
  const entries = rosterEntries(roster, options.only);
  // Run u seated first against v for every ordered pair, in every situation: cell (u, v) seated first, and cell (v, u) seated second.
  // A pair's situations one after the other: those it cannot take are the same game, which then meets its kernel still compiled in the worker.
  const runs = entries.flatMap((a) => entries.flatMap((b) => situations.map((situation) => [situation, a, b] as const)));
  const firstSeated = new Map<string, Outcome>();
  const leftOut = new LeftOutTally();
  let provenance: RulesProvenance | undefined;
  let done = 0;
  const key = (situation: Situation, row: string, column: string) => `${situation.name}\u0000${row}\u0000${column}`;
  const play = async (index: number): Promise<void> => {
    const [situation, unit, opponent] = runs[index] as (typeof runs)[number];
    const played = await playSeated(
      roster,
      { unit, opponent, seat: 0, situation },
      { trials, seed, ...(options.executor === undefined ? {} : { executor: options.executor }) },
      adaptive ? seatHalfWidth(precision, seating) : undefined,
    );
    trialsInAll += played.outcome.trials;
    firstSeated.set(key(situation, unit.id, opponent.id), played.outcome);
    leftOut.add(roster, situation, played);
    provenance ??= provenanceOf(played.loaded);
    options.onRun?.(++done, runs.length);
  };
  await inLanes(runs.length, options.executor, play);
  const cells = entries.flatMap((row) =>
    entries.map((column): MatchupCell => {
      const bySituation = situations.map((situation): SituationCell => {
        const first = firstSeated.get(key(situation, row.id, column.id));
        const asSecond = firstSeated.get(key(situation, column.id, row.id));
        if (first === undefined || asSecond === undefined) throw new Error(`pairing ${row.id} – ${column.id} was not run`);
        return { situation: situation.name, ...seatingOutcomes(first, asSecond, seating, sameGame(seatingOf(roster, row, column, 0))) };
      });
      return {
        row: row.id,
        column: column.id,
        ...mixSituations(bySituation, situations),
        ...(situations.length > 1 ? { situations: bySituation } : {}),
      };
    }),
  );
  const { unitsDigest: _digest, ...rules } = provenance ?? { ruleset: '', engineVersion: '', unitsDigest: '' };
  return {
    ...rules,
    roster: roster.roster.name,
    file: roster.file,
    ...(roster.roster.description === undefined ? {} : { description: roster.roster.description }),
    seating,
    seed,
    trialsPerSeat: trials,
    precision: options.trials === undefined ? precision : achievedPrecision(trials, seating),
    ...(adaptive ? { adaptive: true as const } : {}),
    trialsInAll,
    entries: entries.map(entryOf),
    cells,
    situations: leftOut.played(situations),
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
