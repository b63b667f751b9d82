import path from 'node:path';
import { z } from 'zod';
import { parseWith, readDataFile } from '../sim/data-file.js';
import { InputError } from '../sim/errors.js';

/**
 * A roster: the units a matchup matrix or a balance search sets against each other, and the
 * scenario template they fight in. The template is a scenario of any ruleset written with
 * placeholders — `$A` and `$B` (the two entries' units, also inside longer text), `$A.count` and
 * `$B.count` (their model, stand or unit counts), `$A.name`, `$B.name` — filled in for each pair.
 * Side A's name (after filling in) labels a win in the template's `winner` metric.
 */

const id = z.string().min(1);
export const rosterEntrySchema = z.strictObject({
  id: id.describe('the entry\'s id in tables, and what $A / $B become unless `unit` is given'),
  unit: id.optional().describe('what $A / $B become, when several entries field the same unit (e.g. at different counts)'),
  name: z.string().min(1).optional().describe('shown in tables (default: the id)'),
  count: z.number().int().min(1).default(1).describe('what $A.count / $B.count become'),
  cost: z.number().min(0).optional().describe('points of one count (one model, stand or unit): what balance weighs'),
});

export const rosterSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().optional(),
  template: z.record(z.string(), z.unknown()).describe('a scenario with $A, $B, $A.count, $B.count, $A.name, $B.name placeholders'),
  winMetric: z.string().min(1).default('winner').describe('the category metric whose side-A label is a win'),
  entries: z.array(rosterEntrySchema).min(1),
});
export type RosterEntry = z.output<typeof rosterEntrySchema>;
export type Roster = z.output<typeof rosterSchema>;

export interface LoadedRoster {
  readonly file: string;
  readonly roster: Roster;
}

export async function loadRoster(file: string): Promise<LoadedRoster> {
  const parsed = await readDataFile(file);
  if (!parsed.ok) throw new InputError(parsed.problems);
  const { value, problems } = parseWith(rosterSchema, file, parsed.data);
  if (value === undefined) throw new InputError(problems);
  const ids = new Set<string>();
  value.entries.forEach((entry, e) => {
    if (ids.has(entry.id)) problems.push({ file, path: `entries[${e}].id`, message: `duplicate entry ${JSON.stringify(entry.id)}` });
    ids.add(entry.id);
  });
  if (problems.length > 0) throw new InputError(problems);
  return { file, roster: value };
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
  if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, fill(value, a, b, counts)]));
  return node;
}

/**
 * The template filled in for `a` against `b` (counts default to the entries'), and the path a
 * scenario made from it should be treated as coming from (relative paths in the template, such
 * as a units file, are relative to the roster file).
 */
export function matchupScenario(roster: LoadedRoster, a: RosterEntry, b: RosterEntry, counts?: { a: number; b: number }): { file: string; data: unknown } {
  const data = fill(roster.roster.template, a, b, counts ?? { a: a.count, b: b.count });
  const file = path.join(path.dirname(roster.file), `${path.basename(roster.file, path.extname(roster.file))}.${a.id.replaceAll('/', '_')}-vs-${b.id.replaceAll('/', '_')}.yaml`);
  return { file, data };
}
