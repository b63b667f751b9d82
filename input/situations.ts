import { z } from 'zod';
import { formatPath, type Problem, withinField } from './errors.js';
import { parseFieldPath, setField } from './scenario-patch.js';

/**
 * A roster's situations: the fights its units meet, each a change of the template with a weight.
 * A unit's value depends on where it fights — a missile unit shooting at chargers, infantry
 * defending an obstacle or supported by a rear rank — so a price fitted from one fight is a price
 * for that fight only. A roster may list several situations; matchups and balance play every
 * pairing in each and weigh the results (the weights are shares of the games, normalised).
 *
 * A situation changes fields of the template as a scenario's variants do (`set`: field path →
 * value, placeholders allowed). A change that a pairing's units cannot take — the rule system
 * refuses it, e.g. cavalry cannot be defended, two models cannot form a formation — is left out
 * for that pairing only (it plays the rest of the situation), and the results say so. A change
 * that no entry can take is an error of the roster (`checkRoster`).
 */

export const situationSchema = z.strictObject({
  name: z.string().min(1).describe('shown in every table of the situation, e.g. "charging in the open"'),
  weight: z
    .number()
    .positive()
    .max(1e6)
    .default(1)
    .describe('its share of the games, relative to the other situations (normalised): how often the units meet this fight'),
  description: z.string().optional(),
  set: z
    .record(z.string().min(1), z.unknown())
    .default({})
    .describe(
      'changes to the template: field path → value (e.g. { "sides[1].units[0].position": "defended" }); $A, $B and the other placeholders may appear in values',
    ),
});
export type SituationInput = z.output<typeof situationSchema>;

export interface SituationChange {
  /** The field path as errors print it: `sides[1].units[0].position`. */
  readonly path: string;
  readonly value: unknown;
}

export interface Situation {
  readonly name: string;
  /** Its share of the games: the weights normalised to add up to 1. */
  readonly share: number;
  readonly description?: string;
  readonly changes: readonly SituationChange[];
}

/** The one situation of a roster that lists none: the template as written. */
const AS_WRITTEN_SITUATION = 'the template';

/**
 * The roster's situations, checked against its template: every changed path must exist there
 * (a typo fails at once, before any run). Without `situations`, the template alone.
 */
export function rosterSituations(
  file: string,
  template: Record<string, unknown>,
  given: readonly SituationInput[] | undefined,
): { situations: Situation[]; problems: Problem[] } {
  if (given === undefined) return { situations: [{ name: AS_WRITTEN_SITUATION, share: 1, changes: [] }], problems: [] };
  const problems: Problem[] = [];
  const total = given.reduce((sum, situation) => sum + situation.weight, 0);
  const names = new Set<string>();
  const situations = given.map((situation, index): Situation => {
    if (names.has(situation.name))
      problems.push({
        file,
        path: `situations[${index}].name`,
        message: `two situations are named ${JSON.stringify(situation.name)}: each needs its own name`,
      });
    names.add(situation.name);
    const changes: SituationChange[] = [];
    for (const [path, value] of Object.entries(situation.set)) {
      const steps = parseFieldPath(path);
      const where = `situations[${index}].set`;
      if (steps === undefined) {
        problems.push({ file, path: where, message: `${JSON.stringify(path)} is not a field path (e.g. sides[1].units[0].position)` });
        continue;
      }
      const applied = setField(template, path, value);
      if ('problem' in applied) problems.push({ file, path: where, message: `${applied.problem} (the path is read in the template)` });
      else changes.push({ path: formatPath(steps), value });
    }
    return {
      name: situation.name,
      share: situation.weight / total,
      ...(situation.description === undefined ? {} : { description: situation.description }),
      changes,
    };
  });
  return { situations, problems };
}

/** The template with a situation's changes made (those in `leftOut` skipped). */
export function situationTemplate(
  template: Record<string, unknown>,
  changes: readonly SituationChange[],
  leftOut: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  let data: unknown = template;
  for (const change of changes) {
    if (leftOut.has(change.path)) continue;
    const applied = setField(data, change.path, change.value);
    // Checked when the roster was loaded: every path exists in the template.
    if ('data' in applied) data = applied.data;
  }
  return data as Record<string, unknown>;
}

/**
 * The changes a scenario's problems blame (those still made): the ones a pairing cannot take. Empty
 * when no problem concerns a change — then the problems are the template's or the entries' own.
 */
export function refusedChanges(problems: readonly Problem[], changes: readonly SituationChange[], leftOut: ReadonlySet<string>): string[] {
  return changes
    .filter((change) => !leftOut.has(change.path) && problems.some((problem) => withinField(problem.path, change.path)))
    .map((change) => change.path);
}

/** A change in words, for what a situation left out: "position defended", "shoots at chargers", "a new set-up of the unit". */
export function changeWords(field: string, value: unknown): string {
  if (value === true) return field;
  if (value === false) return `no ${field}`;
  if (typeof value === 'string' || typeof value === 'number') return `${field} ${value}`;
  return 'a new set-up of the unit';
}
