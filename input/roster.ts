import path from 'pathe';
import { z } from 'zod';
import type { DataFiles } from '../engine/rule-system.js';
import { inputFolder, parseWith, readDataFile } from './data-file.js';
import { snapshotDataFiles } from './data-snapshot.js';
import { InputError, type Problem, withinField } from './errors.js';
import { refusedChanges, rosterSituations, type Situation, situationSchema, situationTemplate } from './situations.js';
import type { TrustedPlugins } from './platform.js';

/**
 * A roster: the units a matchup matrix or a balance search sets against each other, and the
 * scenario template they fight in. The template is a scenario of any rule system with two `sides`,
 * written with placeholders — `$A` and `$B` (the two entries' units, also inside longer text),
 * `$A.count` and `$B.count` (their model, stand or unit counts), `$A.name`, `$B.name` — filled in
 * for each pair. `$A` belongs in one side and `$B` in the other (checked); which side each is on
 * does not matter: a pairing is played with the row unit in each seat (the first of `sides` —
 * side A, whatever it does in the template — and the second), and its result is read from whichever side the unit is on, by that
 * side's name in the template's win metric.
 */

const id = z.string().min(1);
export const rosterEntrySchema = z.strictObject({
  id: id.describe("the entry's id in tables, and what $A / $B become unless `unit` is given"),
  unit: id.optional().describe('what $A / $B become, when several entries field the same unit (e.g. at different counts)'),
  name: z.string().min(1).optional().describe('shown in tables (default: the id)'),
  count: z.number().int().min(1).default(1).describe('what $A.count / $B.count become'),
  cost: z.number().min(0).optional().describe('points of one count (one model, stand or unit): what balance weighs'),
});

export const rosterSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  template: z.record(z.string(), z.unknown()).describe('a scenario with $A, $B, $A.count, $B.count, $A.name, $B.name placeholders'),
  situations: z
    .array(situationSchema)
    .min(1)
    .max(64)
    .optional()
    .describe(
      'the fights the units meet, each a change of the template with a weight (default: the template alone); matchups and balance play every pairing in each and weigh the results',
    ),
  winMetric: z
    .string()
    .min(1)
    .default('winner')
    .describe("the category metric whose labels are the sides' names (a side's name: it won; anything else: a draw)"),
  fielded: z
    .enum(['by-count', 'whole'])
    .default('by-count')
    .describe(
      'by-count: balance fields as many models (stands…) of a unit as the budget buys; whole: each entry is fielded entire, as its army list has it, and balance fits costs from a round robin at published points (Warmaster units)',
    ),
  entries: z.array(rosterEntrySchema).min(1),
});
export type RosterEntry = z.output<typeof rosterEntrySchema>;
export type Roster = z.output<typeof rosterSchema>;

/** Seat 0 is the first of the template's `sides` (side A: in heroic it acts first), seat 1 the second. */
export type Seat = 0 | 1;

export interface LoadedRoster {
  readonly file: string;
  readonly roster: Roster;
  /** The seat of the side written with `$A`; `$B`'s is the other. */
  readonly seatOfA: Seat;
  /** The fights the pairings are played in, with their shares of the games (input/situations.ts). */
  readonly situations: readonly Situation[];
  /** Where the seated scenarios' data files are read: one analysis's snapshot (`withDataSnapshot`), else the files as they are. */
  readonly files?: DataFiles;
  /** The plugin modules its seated scenarios may run (input/plugin-trust.ts); none when not given. */
  readonly plugins?: TrustedPlugins;
}

/** The roster for one analysis: all its seated scenarios read their data files through one snapshot (input/data-snapshot.ts). */
export function withDataSnapshot(roster: LoadedRoster): LoadedRoster {
  return roster.files === undefined ? { ...roster, files: snapshotDataFiles() } : roster;
}

/** Does this text use the placeholder (`$A`, `$A.count`, but not only `$A.name`)? */
const usesUnit = (text: string, slot: 'A' | 'B'): boolean => text.replaceAll(`$${slot}.name`, '').includes(`$${slot}`);

function mentions(node: unknown, slot: 'A' | 'B'): boolean {
  if (typeof node === 'string') return usesUnit(node, slot);
  if (Array.isArray(node)) return node.some((item) => mentions(item, slot));
  if (node !== null && typeof node === 'object') return Object.values(node).some((value) => mentions(value, slot));
  return false;
}

/** Which seat the template gives `$A`: it must be in exactly one side, and `$B` in the other. */
function seatOfA(file: string, template: Record<string, unknown>): { seat?: Seat; problems: Problem[] } {
  const sides = template.sides;
  if (!Array.isArray(sides) || sides.length !== 2)
    return {
      problems: [{ file, path: 'template.sides', message: 'a roster template needs exactly two sides, one with $A and one with $B' }],
    };
  const where = (slot: 'A' | 'B') => sides.flatMap((side, index) => (mentions(side, slot) ? [index] : []));
  const a = where('A');
  const b = where('B');
  const problems: Problem[] = [];
  for (const [slot, seats] of [
    ['A', a],
    ['B', b],
  ] as const) {
    if (seats.length !== 1)
      problems.push({
        file,
        path: 'template.sides',
        message:
          seats.length === 0
            ? `no side fields $${slot}: one side must hold $${slot} (its unit), the other $${slot === 'A' ? 'B' : 'A'}`
            : `both sides use $${slot}: $A's unit belongs in one side and $B's in the other`,
      });
  }
  if (problems.length > 0) return { problems };
  if (a[0] === b[0])
    return {
      problems: [{ file, path: `template.sides[${a[0]}]`, message: 'this side holds both $A and $B: each belongs in its own side' }],
    };
  return { seat: a[0] === 0 ? 0 : 1, problems };
}

export async function loadRoster(file: string, options: { readonly plugins?: TrustedPlugins } = {}): Promise<LoadedRoster> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) throw new InputError(parsed.problems);
  const { value, problems } = parseWith(rosterSchema, file, parsed.data);
  if (value === undefined) throw new InputError(problems);
  const ids = new Set<string>();
  value.entries.forEach((entry, e) => {
    if (ids.has(entry.id)) problems.push({ file, path: `entries[${e}].id`, message: `duplicate entry ${JSON.stringify(entry.id)}` });
    ids.add(entry.id);
  });
  const seats = seatOfA(file, value.template);
  problems.push(...seats.problems);
  const { situations, problems: situationProblems } = rosterSituations(file, value.template, value.situations);
  problems.push(...situationProblems);
  if (problems.length > 0 || seats.seat === undefined) throw new InputError(problems);
  return { file, roster: value, seatOfA: seats.seat, situations, ...(options.plugins === undefined ? {} : { plugins: options.plugins }) };
}

/** The value a placeholder stands for, for entry `a` as side A and `b` as side B, or undefined. */
function placeholder(text: string, a: RosterEntry, b: RosterEntry, counts: { a: number; b: number }): unknown {
  if (text === '$A.count') return counts.a;
  if (text === '$B.count') return counts.b;
  return text
    .replaceAll('$A.name', a.name ?? a.id)
    .replaceAll('$B.name', b.name ?? b.id)
    .replaceAll('$A', a.unit ?? a.id)
    .replaceAll('$B', b.unit ?? b.id);
}

function fill(node: unknown, a: RosterEntry, b: RosterEntry, counts: { a: number; b: number }): unknown {
  if (typeof node === 'string') return node.includes('$') ? placeholder(node, a, b, counts) : node;
  if (Array.isArray(node)) return node.map((item) => fill(item, a, b, counts));
  if (node !== null && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, fill(value, a, b, counts)]));
  return node;
}

/**
 * The template filled in with `a` as $A and `b` as $B (counts default to the entries'), in a
 * situation (its changes made, but those in `leftOut`), and the path a scenario made from it should
 * be treated as coming from (relative paths in the template, such as a units file, are relative to
 * the roster file).
 */
export function matchupScenario(
  roster: LoadedRoster,
  a: RosterEntry,
  b: RosterEntry,
  counts?: { a: number; b: number },
  situation?: Situation,
  leftOut?: ReadonlySet<string>,
): { file: string; data: unknown } {
  const template =
    situation === undefined || situation.changes.length === 0 ? roster.roster.template : situatedTemplate(roster, situation, leftOut);
  const data = fill(template, a, b, counts ?? { a: a.count, b: b.count });
  const where = roster.situations.length > 1 && situation !== undefined ? `.${slug(situation.name)}` : '';
  const file = path.join(
    inputFolder(roster.file),
    `${path.basename(roster.file, path.extname(roster.file))}${where}.${a.id.replaceAll('/', '_')}-vs-${b.id.replaceAll('/', '_')}.yaml`,
  );
  return { file, data };
}

/** Each situation's template, by the changes left out: made once, however many seatings a roster plays in it (never changed: `fill` copies). */
const situatedTemplates = new WeakMap<Record<string, unknown>, WeakMap<Situation, Map<string, Record<string, unknown>>>>();

function situatedTemplate(roster: LoadedRoster, situation: Situation, leftOut: ReadonlySet<string> = new Set()): Record<string, unknown> {
  const { template } = roster.roster;
  let bySituation = situatedTemplates.get(template);
  if (bySituation === undefined) situatedTemplates.set(template, (bySituation = new WeakMap()));
  let byLeftOut = bySituation.get(situation);
  if (byLeftOut === undefined) bySituation.set(situation, (byLeftOut = new Map()));
  const key = [...leftOut].sort().join('\u0000');
  let made = byLeftOut.get(key);
  if (made === undefined) byLeftOut.set(key, (made = situationTemplate(template, situation.changes, leftOut)));
  return made;
}

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'situation';

/** Who sits where in a pairing as played: side A's entry and count, side B's. */
export interface Seated {
  readonly a: RosterEntry;
  readonly b: RosterEntry;
  readonly counts: { readonly a: number; readonly b: number };
}

/** A pairing as played: `unit` in `seat` and `opponent` in the other (counts default to the entries'). */
export function seatingOf(
  roster: LoadedRoster,
  unit: RosterEntry,
  opponent: RosterEntry,
  seat: Seat,
  counts?: { unit: number; opponent: number },
): Seated {
  const unitIsA = seat === roster.seatOfA;
  const unitCount = counts?.unit ?? unit.count;
  const opponentCount = counts?.opponent ?? opponent.count;
  return unitIsA
    ? { a: unit, b: opponent, counts: { a: unitCount, b: opponentCount } }
    : { a: opponent, b: unit, counts: { a: opponentCount, b: unitCount } };
}

/**
 * What a seated game is, for its random numbers (sim/run-seed.ts): the situation, and the unit and
 * count in each of the template's sides, in side order. Entries of the same unit at the same count
 * play the same game.
 */
export function seatedKey(roster: LoadedRoster, seated: Seated, situation: Situation): (string | number)[] {
  const sideA = [seated.a.unit ?? seated.a.id, seated.counts.a];
  const sideB = [seated.b.unit ?? seated.b.id, seated.counts.b];
  return [situation.name, ...(roster.seatOfA === 0 ? [...sideA, ...sideB] : [...sideB, ...sideA])];
}

/** Are two seatings the same game (the same unit at the same count on both sides)? Then it is a mirror. */
export function sameGame(seated: Seated): boolean {
  return (seated.a.unit ?? seated.a.id) === (seated.b.unit ?? seated.b.id) && seated.counts.a === seated.counts.b;
}

/** Does this parsed file look like a roster (a template and entries) rather than a scenario? */
export function isRosterData(data: unknown): boolean {
  return data !== null && typeof data === 'object' && 'template' in data && 'entries' in data && !('ruleset' in data);
}

/** A scenario loader, as input/scenario-file.ts's `loadScenarioData` (injected: this module reads no rule system). */
export type ScenarioLoader<Loaded> = (file: string, data: unknown) => Promise<Loaded>;

/**
 * The seated game loaded in its situation: the situation's changes made, except those the rule
 * system refuses for this pairing's units (the problems it reports are at those fields, or inside
 * them): they are left out, and listed. Any other problem is the template's or an entry's, and is
 * thrown as it is.
 */
export async function loadInSituation<Loaded>(
  roster: LoadedRoster,
  seated: Seated,
  situation: Situation,
  load: ScenarioLoader<Loaded>,
): Promise<{ loaded: Loaded; file: string; leftOut: string[] }> {
  const leftOut = new Set<string>();
  for (;;) {
    const { file, data } = matchupScenario(roster, seated.a, seated.b, seated.counts, situation, leftOut);
    try {
      return { loaded: await load(file, data), file, leftOut: [...leftOut] };
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      const refused = refusedChanges(
        error.problems.filter((problem) => problem.file === file),
        situation.changes,
        leftOut,
      );
      if (refused.length === 0) throw error;
      for (const change of refused) leftOut.add(change);
    }
  }
}

type SidesLoader = ScenarioLoader<{ system: { sides?: (scenario: never) => readonly [string, string] | undefined }; scenario: unknown }>;

/**
 * Check a roster through and through: every entry filled into the template (as $A against the
 * first entry as $B, and the other way round) makes a valid scenario of its rule system, and the
 * two sides are told apart by name; every change a situation makes is taken by some of those
 * pairings (a change no pairing can take is a mistake, not a unit that cannot do it). `load` is the
 * scenario loader (input/scenario-file.ts).
 */
export async function checkRoster(roster: LoadedRoster, load: SidesLoader): Promise<void> {
  const [first] = roster.roster.entries;
  if (first === undefined) return;
  const byEntry: Problem[][] = [];
  for (const [index, entry] of roster.roster.entries.entries()) {
    const problems: Problem[] = [];
    byEntry.push(problems);
    for (const [a, b] of [
      [entry, first],
      [first, entry],
    ] as const) {
      const { file, data } = matchupScenario(roster, a, b);
      try {
        const loaded = await load(file, data);
        const names = loaded.system.sides?.(loaded.scenario as never);
        if (names !== undefined && names[0] === names[1] && a !== b)
          problems.push({
            file: roster.file,
            path: 'template.sides',
            message: `both sides are named ${JSON.stringify(names[0])} when ${a.id} meets ${b.id}: use $A.name and $B.name in the side names`,
          });
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        // The template's problems, said of the entry that caused them.
        problems.push(
          ...error.problems.map((problem) => ({
            file: roster.file,
            path: `entries[${index}]`,
            message: `${entry.id} in the template: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`,
          })),
        );
      }
      if (a === b) break;
    }
  }
  // A problem every entry has is the template's: said once.
  const text = (problem: Problem) => problem.message.slice(problem.message.indexOf(' in the template: ') + ' in the template: '.length);
  const everywhere = new Set(
    (byEntry[0] ?? []).map(text).filter((message) => byEntry.every((problems) => problems.some((problem) => text(problem) === message))),
  );
  const problems = [
    ...[...everywhere].map((message) => ({ file: roster.file, path: 'template', message })),
    ...byEntry.flat().filter((problem) => !everywhere.has(text(problem))),
  ];
  if (problems.length === 0) problems.push(...(await situationProblems(roster, first, load)));
  if (problems.length > 0)
    throw new InputError([...new Map(problems.map((problem) => [`${problem.path}\u0000${problem.message}`, problem])).values()]);
}

/** Each situation's changes, tried with every entry against the first in both seats: a change none of them takes is an error, with the reason the first gave. */
async function situationProblems(roster: LoadedRoster, first: RosterEntry, load: SidesLoader): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const [index, situation] of roster.situations.entries()) {
    if (situation.changes.length === 0) continue;
    const taken = new Set<string>();
    const reasons = new Map<string, string>();
    for (const entry of roster.roster.entries) {
      for (const [a, b] of [
        [entry, first],
        [first, entry],
      ] as const) {
        const seated: Seated = { a, b, counts: { a: a.count, b: b.count } };
        const tried = await loadInSituation(roster, seated, situation, async (file, data) => {
          try {
            return await load(file, data);
          } catch (error) {
            if (error instanceof InputError)
              for (const problem of error.problems) if (!reasons.has(problem.path)) reasons.set(problem.path, problem.message);
            throw error;
          }
        });
        for (const change of situation.changes) if (!tried.leftOut.includes(change.path)) taken.add(change.path);
        if (a === b) break;
      }
      if (taken.size === situation.changes.length) break;
    }
    for (const change of situation.changes) {
      if (taken.has(change.path)) continue;
      const reason = [...reasons.entries()].find(([at]) => withinField(at, change.path));
      problems.push({
        file: roster.file,
        path: `situations[${index}].set`,
        message: `no entry can take ${change.path} = ${JSON.stringify(change.value)}${reason === undefined ? '' : `: ${reason[0]}: ${reason[1]}`}`,
      });
    }
  }
  return problems;
}
