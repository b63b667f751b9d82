import { RULE_SYSTEMS } from '../engine/rulesets.js';
import { InputError } from '../sim/errors.js';
import { type LoadedScenario, loadScenarioData } from '../sim/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { type Interval, Z_95 } from './intervals.js';
import { type LoadedRoster, matchupScenario, type RosterEntry } from './roster.js';
import { runScenario, type ScenarioResult } from './run.js';

/**
 * Every roster entry against every entry (or a chosen set): the chance side A wins each pairing,
 * with its interval, run on one executor (one worker pool for the whole matrix).
 */
export interface MatchupCell {
  readonly a: string;
  readonly b: string;
  /** P(side A wins), its 95% Wilson interval, and the trials run. */
  readonly winProbability: number;
  readonly interval: Interval;
  readonly trials: number;
}

export interface MatchupOptions {
  /** Entry ids to include (default: all). */
  readonly only?: readonly string[];
  readonly seed?: number;
  /**
   * Every pairing runs the trials that bound P(A wins)'s 95% interval within ±precision whatever the
   * probability (the worst case, p = ½: ⌈z² / 4ε²⌉, 9,604 for ±1 point; default 0.01), or `trials`.
   */
  readonly precision?: number;
  readonly trials?: number;
  readonly executor?: ShardExecutor;
  /** After each pairing: how many are done of how many. */
  readonly onCell?: (done: number, total: number, cell: MatchupCell) => void;
}

/** Side A's name: the label of its wins in the `winner` metric. */
export function sideAName(loaded: LoadedScenario): string {
  const sides = loaded.system.sides?.(loaded.scenario);
  if (sides === undefined) {
    const withSides = RULE_SYSTEMS.filter((system) => system.sides !== undefined).map((system) => system.id).join(', ');
    throw new InputError([{ file: loaded.file, path: 'ruleset', message: `a ${loaded.ruleset} scenario has no sides to win: matchups need a rule system with two sides (${withSides}, or a plugin declaring sides)` }]);
  }
  return sides[0];
}

/** P(side A wins) from a run, by the win metric's side-A label. */
export function winOf(result: ScenarioResult, loaded: LoadedScenario, winMetric: string): { probability: number; interval: Interval } {
  const summary = result.summary.find((metric) => metric.name === winMetric);
  if (summary === undefined) throw new InputError([{ file: loaded.file, path: 'winMetric', message: `the scenario has no metric ${JSON.stringify(winMetric)}` }]);
  const label = sideAName(loaded);
  const entry = summary.distribution.find((value) => value.label === label);
  if (entry === undefined) throw new InputError([{ file: loaded.file, path: 'winMetric', message: `${winMetric} has no label ${JSON.stringify(label)} (side A's name)` }]);
  return { probability: entry.probability, interval: entry.interval };
}

export function rosterEntries(roster: LoadedRoster, only?: readonly string[]): RosterEntry[] {
  if (only === undefined) return roster.roster.entries;
  const missing = only.filter((id) => !roster.roster.entries.some((entry) => entry.id === id));
  if (missing.length > 0) throw new InputError([{ file: roster.file, path: 'entries', message: `no entries ${missing.map((id) => JSON.stringify(id)).join(', ')}` }]);
  return roster.roster.entries.filter((entry) => only.includes(entry.id));
}

/** Trials that bound a proportion's 95% interval within ±precision at any p (the worst case p = ½). */
export function worstCaseTrials(precision: number): number {
  return Math.ceil((Z_95 * Z_95) / (4 * precision * precision));
}

export async function matchups(roster: LoadedRoster, options: MatchupOptions = {}): Promise<MatchupCell[]> {
  const trials = options.trials ?? worstCaseTrials(options.precision ?? 0.01);
  const entries = rosterEntries(roster, options.only);
  const pairs = entries.flatMap((a) => entries.map((b) => [a, b] as const));
  const cells: (MatchupCell | undefined)[] = pairs.map(() => undefined);
  const winMetric = roster.roster.winMetric;
  let done = 0;
  const play = async (index: number): Promise<void> => {
    const [a, b] = pairs[index] as readonly [RosterEntry, RosterEntry];
    const { file, data } = matchupScenario(roster, a, b);
    const loaded = await loadScenarioData(file, data);
    const result = await runScenario(loaded, {
      trials,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.executor === undefined ? {} : { executor: options.executor }),
    });
    const win = winOf(result, loaded, winMetric);
    const cell = { a: a.id, b: b.id, winProbability: win.probability, interval: win.interval, trials: result.trials };
    cells[index] = cell;
    options.onCell?.(++done, pairs.length, cell);
  };
  // Several pairings at once keep every worker busy: a pairing often needs a single shard.
  const lanes = Math.max(1, 2 * (options.executor?.workers ?? 1));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, pairs.length) }, async () => {
      while (next < pairs.length) await play(next++);
    }),
  );
  return cells.filter((cell): cell is MatchupCell => cell !== undefined);
}
