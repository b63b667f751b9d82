import { loadBuiltInRuleSystems } from '../engine/registry.js';
import type { DataFiles } from '../engine/rule-system.js';
import { InputError } from '../input/errors.js';
import { runSeed } from '../sim/run-seed.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { type LoadedScenario, loadScenarioData } from '../input/scenario-file.js';
import { type Outcome, outcomeFromCounts } from '../statistics/outcome.js';
import {
  type LoadedRoster,
  loadInSituation,
  matchupScenario,
  type RosterEntry,
  type ScenarioLoader,
  type Seat,
  type Seated,
  seatedKey,
  seatingOf,
} from '../input/roster.js';
import { type OutcomeRunOptions, runForOutcome } from '../sim/run-scenario.js';
import { fieldLabel } from '../input/field-labels.js';
import type { Situation, SituationChange } from '../input/situations.js';

/**
 * One seated game of a roster, played: `unit` in `seat` against `opponent`, in a situation, at
 * given counts. What matchups and balance are made of. Each game draws from its own seed, derived
 * from the analysis's seed and the game (sim/run-seed.ts), so games are independent samples: the
 * two seatings of a pairing, a unit against different opponents, the same pairing in different
 * situations. The outcome is read for `unit` from the template's win metric.
 */

/** The two sides' names: the labels of their wins in the win metric. */
async function sidesOf(loaded: LoadedScenario): Promise<readonly [string, string]> {
  const sides = loaded.system.sides?.(loaded.scenario);
  if (sides === undefined) {
    const withSides = (await loadBuiltInRuleSystems())
      .filter((system) => system.sides !== undefined)
      .map((system) => system.id)
      .join(', ');
    throw new InputError([
      {
        file: loaded.file,
        path: 'ruleset',
        message: `a ${loaded.system.id} scenario has no sides to win: matchups need a rule system with two sides (${withSides}, or a plugin declaring sides)`,
      },
    ]);
  }
  return sides;
}

/**
 * `task(0)` … `task(count − 1)`, several at once so that every worker stays busy (a run often
 * needs a single shard): as many as the executor takes seated runs in flight (enough for its
 * batches), else twice its workers.
 */
export async function inLanes(count: number, executor: ShardExecutor | undefined, task: (index: number) => Promise<void>): Promise<void> {
  const lanes = Math.max(1, executor?.outcomesInFlight ?? 2 * (executor?.workers ?? 1));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(lanes, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

/** The seed an analysis starts from: the one asked for, else the template's, else 1 (every rule system's default). */
export function analysisSeed(roster: LoadedRoster, seed: number | undefined): number {
  const written = roster.roster.template.seed;
  return seed ?? (typeof written === 'number' && Number.isInteger(written) && written >= 0 ? written : 1);
}

export interface SeatedPlay {
  /** For `unit`, with the run's seed. */
  readonly outcome: Outcome;
  /** The scenario played (its rules' provenance: input/provenance.ts). */
  readonly loaded: LoadedScenario;
  /** The situation's changes this pairing's units could not take (left out of this game). */
  readonly leftOut: readonly string[];
  /** Side A's and side B's entries and counts, as played. */
  readonly seated: Seated;
}

export interface SeatedGame {
  readonly unit: RosterEntry;
  readonly opponent: RosterEntry;
  readonly seat: Seat;
  readonly situation: Situation;
  /** Models (stands, units) of each; default the entries' counts. */
  readonly counts?: { readonly unit: number; readonly opponent: number };
}

/**
 * Play one seated game. `run.seed` is the analysis's seed: the game's own is derived from it. With
 * `stopAt`, the run stops once the unit's score is within ±stopAt (statistics/score-stop.ts).
 */
export async function playSeated(
  roster: LoadedRoster,
  game: SeatedGame,
  run: Omit<OutcomeRunOptions, 'target'>,
  stopAt?: number,
): Promise<SeatedPlay> {
  const { unit, opponent, seat, situation, counts } = game;
  const seated = seatingOf(roster, unit, opponent, seat, counts);
  let loaded: LoadedScenario;
  let leftOut: readonly string[];
  try {
    ({ loaded, leftOut } = await loadInSituation(roster, seated, situation, seatedLoader(roster)));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    // The scenario exists only in memory: say it of the roster, and of the pairing that made it.
    const { file } = matchupScenario(roster, seated.a, seated.b, seated.counts, situation);
    const pairing = `${unit.id} ×${counts?.unit ?? unit.count} against ${opponent.id} ×${counts?.opponent ?? opponent.count}${roster.situations.length > 1 ? ` (${situation.name})` : ''}`;
    throw new InputError(
      error.problems.map((problem) =>
        problem.file === file
          ? {
              file: roster.file,
              path: 'template',
              message: `${pairing}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`,
            }
          : problem,
      ),
    );
  }
  const names = await sidesOf(loaded);
  if (names[0] === names[1])
    throw new InputError([
      {
        file: roster.file,
        path: 'template.sides',
        message: `both sides are named ${JSON.stringify(names[0])} when ${unit.id} meets ${opponent.id}: the win metric cannot tell them apart (use $A.name and $B.name in the side names)`,
      },
    ]);
  const [side, other] = seat === 0 ? names : [names[1], names[0]];
  const { winMetric } = roster.roster;
  const seed = runSeed(run.seed, seatedKey(roster, seated, situation));
  const { wins, losses, trials } = await runForOutcome(loaded, { ...run, seed, target: { winMetric, side, other, halfWidth: stopAt } });
  const outcome = outcomeFromCounts(wins, trials - wins - losses, losses);
  return { outcome: { ...outcome, seed }, loaded, leftOut, seated };
}

/** Seated scenarios loaded, by their content, per analysis (its data snapshot). */
const loadsBySnapshot = new WeakMap<DataFiles, Map<string, LoadedScenario>>();

/**
 * Seated scenarios kept per analysis, the latest loaded: a pair's situations are played one after
 * the other (analysis/matchups.ts), so its template game is still here when a situation it cannot
 * take asks for it again; a round robin of 39,204 pairings does not keep them all.
 */
const LOADS_KEPT = 256;

/**
 * The roster's seated scenarios loaded through its data snapshot, a game loaded again taken from
 * the last ones loaded: a situation change a pairing cannot take leaves it the game of the template
 * as written (a third of a Warmaster matchup's runs). A load depends on its content and its folder
 * (all of a roster's seated scenarios are beside it), so a game loaded again only takes its own
 * file name. Failures are not kept: their problems name the file.
 */
function seatedLoader(roster: LoadedRoster): ScenarioLoader<LoadedScenario> {
  const load = (at: string, data: unknown) => loadScenarioData(at, data, roster.files, { plugins: roster.plugins });
  if (roster.files === undefined) return load;
  let loads = loadsBySnapshot.get(roster.files);
  if (loads === undefined) loadsBySnapshot.set(roster.files, (loads = new Map()));
  const known = loads;
  return async (at, data) => {
    const key = JSON.stringify(data);
    const loaded = known.get(key);
    if (loaded !== undefined)
      return loaded.file === at
        ? loaded
        : { ...loaded, file: at, inputs: loaded.inputs.map((input) => (input === loaded.file ? at : input)) };
    const fresh = await load(at, data);
    known.set(key, fresh);
    if (known.size > LOADS_KEPT) known.delete(known.keys().next().value as string);
    return fresh;
  };
}

/** Which entry's games a change was left out of, and how many of its games (with the change on its side) those were. */
export interface LeftOutEntry {
  readonly id: string;
  readonly runs: number;
  readonly of: number;
}

/** A situation as played: its share, its changes, and the changes some pairings could not take. */
export interface PlayedSituation {
  readonly name: string;
  readonly share: number;
  readonly description?: string | undefined;
  readonly changes: readonly SituationChange[];
  /** Each change left out of some runs: the field in words, and the entries on the side it changes whose runs it was left out of. */
  readonly leftOut: readonly { readonly change: string; readonly field: string; readonly entries: readonly LeftOutEntry[] }[];
}

/** Side index of a field path (`sides[1].units[0].position` → 1), or undefined. */
function sideOfPath(path: string): number | undefined {
  const match = /^sides\[(\d+)\]/.exec(path);
  return match === null ? undefined : Number(match[1]);
}

/**
 * Changes left out of seated games: for each situation's change, each entry on the side the change
 * is on, the games it played and those the change was left out of — all of them (it cannot take
 * it) or some (at some counts only, a formation of too few models).
 */
export class LeftOutTally {
  private readonly byChange = new Map<string, { field?: string; entries: Map<string, { runs: number; of: number }> }>();

  add(roster: LoadedRoster, situation: Situation, played: Pick<SeatedPlay, 'leftOut' | 'seated' | 'loaded'>): void {
    const { a, b } = played.seated;
    for (const change of situation.changes) {
      const key = `${situation.name}\u0000${change.path}`;
      const known = this.byChange.get(key) ?? { entries: new Map<string, { runs: number; of: number }>() };
      const refused = played.leftOut.includes(change.path);
      if (refused) known.field ??= fieldLabel(played.loaded, change.path).title;
      const side = sideOfPath(change.path);
      const owners = side === undefined ? [a.id, b.id] : [side === roster.seatOfA ? a.id : b.id];
      for (const id of new Set(owners)) {
        const count = known.entries.get(id) ?? { runs: 0, of: 0 };
        count.of += 1;
        if (refused) count.runs += 1;
        known.entries.set(id, count);
      }
      this.byChange.set(key, known);
    }
  }

  played(situations: readonly Situation[]): PlayedSituation[] {
    return situations.map((situation) => ({
      name: situation.name,
      share: situation.share,
      ...(situation.description === undefined ? {} : { description: situation.description }),
      changes: situation.changes,
      leftOut: situation.changes.flatMap((change) => {
        const known = this.byChange.get(`${situation.name}\u0000${change.path}`);
        const entries = [...(known?.entries.entries() ?? [])]
          .filter(([, count]) => count.runs > 0)
          .map(([id, count]) => ({ id, ...count }))
          .sort((x, y) => (x.id < y.id ? -1 : 1));
        return known?.field === undefined || entries.length === 0 ? [] : [{ change: change.path, field: known.field, entries }];
      }),
    }));
  }
}
