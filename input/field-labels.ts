import { z } from 'zod';
import type { MetricSpec } from '../engine/kernel.js';
import type { LoadedScenario } from './scenario-file.js';
import { parseFieldPath } from './scenario-patch.js';

/**
 * Human words for what the analysis commands print: a scenario's field paths (`sides[1].groups[0].models`,
 * as `--set` and variants name them) and a metric's outcomes (`B.modelsLost`, `winner=Sylvan Knights`).
 *
 * A field is named from the scenario itself and its rule system's descriptor alone, so it works for
 * every rule system, plugins included: the things the path goes through (a side by its name, a group
 * or unit by its id and the profile it uses, an entry of `units:` by its profile's display name, looked
 * up in what the loader read), then the field's own title — the schema's short term where its
 * description starts with one ("DEF: …"), else its key in words ("shieldSave" → "shield save").
 */
export interface FieldLabel {
  /** The path as given. */
  readonly path: string;
  /** E.g. "Sylvan Knights › knights (Sylvan Knight): models", "Shield save". */
  readonly label: string;
  /** The field alone: "models", "shield save", "DEF". */
  readonly title: string;
  /** What the field belongs to, when it belongs to something named: "Sylvan Knights › knights (Sylvan Knight)". */
  readonly owner?: string;
  /** The schema's description of the field. */
  readonly description?: string;
}

const OWNER_SEPARATOR = ' › ';

type Schema = z.ZodType;

/** A schema without the wrappers that do not change what a field is (default, optional, a pipe's input…). */
function unwrap(schema: Schema): Schema {
  let inner = schema;
  for (;;) {
    if (
      inner instanceof z.ZodDefault ||
      inner instanceof z.ZodPrefault ||
      inner instanceof z.ZodOptional ||
      inner instanceof z.ZodNullable ||
      inner instanceof z.ZodReadonly
    )
      inner = inner.unwrap() as Schema;
    else if (inner instanceof z.ZodPipe) inner = inner.in as Schema;
    else if (inner instanceof z.ZodLazy) inner = inner.unwrap() as Schema;
    else return inner;
  }
}

/** The first description found on a field's schema or the wrappers around it. */
function describedBy(schema: Schema | undefined): string | undefined {
  let current = schema;
  while (current !== undefined) {
    if (current.description !== undefined) return current.description;
    const inner = unwrap(current);
    if (inner === current) return undefined;
    current =
      current instanceof z.ZodDefault ||
      current instanceof z.ZodPrefault ||
      current instanceof z.ZodOptional ||
      current instanceof z.ZodNullable
        ? (current.unwrap() as Schema)
        : inner;
  }
  return undefined;
}

/** The schema of `key` inside `schema`, through unions (the first option that has it). */
function childOf(schema: Schema | undefined, key: string | number): Schema | undefined {
  if (schema === undefined) return undefined;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && typeof key === 'string') return (inner.shape as Record<string, Schema | undefined>)[key];
  if (inner instanceof z.ZodArray && typeof key === 'number') return inner.element as Schema;
  if (inner instanceof z.ZodRecord) return inner.valueType as Schema;
  if (inner instanceof z.ZodUnion || inner instanceof z.ZodDiscriminatedUnion) {
    for (const option of inner.options as readonly Schema[]) {
      const found = childOf(option, key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** True when `key` of `schema` is a named field (not a list index or a record's free key). */
function isNamedField(schema: Schema | undefined, key: string | number): boolean {
  if (schema === undefined || typeof key === 'number') return false;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) return key in inner.shape;
  if (inner instanceof z.ZodUnion || inner instanceof z.ZodDiscriminatedUnion)
    return (inner.options as readonly Schema[]).some((option) => isNamedField(option, key));
  return false;
}

/**
 * The description of a field named `key` in the rule system's data files (a unit profile's `def`),
 * for `units.<id>.<field>`, which the scenario schema leaves free-form: searched a few levels deep.
 */
function dataFieldDescription(schemas: readonly Schema[], key: string): string | undefined {
  const seen = new Set<Schema>();
  const search = (schema: Schema, depth: number): string | undefined => {
    const inner = unwrap(schema);
    if (depth > 4 || seen.has(inner)) return undefined;
    seen.add(inner);
    if (inner instanceof z.ZodObject) {
      const shape = inner.shape as Record<string, Schema>;
      if (key in shape) return describedBy(shape[key]);
      for (const field of Object.values(shape)) {
        const found = search(field, depth + 1);
        if (found !== undefined) return found;
      }
    }
    if (inner instanceof z.ZodArray) return search(inner.element as Schema, depth + 1);
    if (inner instanceof z.ZodRecord) return search(inner.valueType as Schema, depth + 1);
    if (inner instanceof z.ZodUnion)
      for (const option of inner.options as readonly Schema[]) {
        const found = search(option, depth + 1);
        if (found !== undefined) return found;
      }
    return undefined;
  };
  for (const schema of schemas) {
    const found = search(schema, 0);
    if (found !== undefined) return found;
  }
  return undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The display name the loaded data gives `reference` (a unit id, `<army>/<unit>`, a faction entry):
 * an entry keyed by it, or an object whose id or reference it is, that has a `name`.
 */
function displayName(refs: unknown, reference: string): string | undefined {
  const search = (node: unknown, depth: number): string | undefined => {
    if (depth > 4) return undefined;
    if (Array.isArray(node)) {
      for (const element of node) {
        const found = search(element, depth + 1);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    if (!isRecord(node)) return undefined;
    if ((node.id === reference || node.reference === reference) && typeof node.name === 'string') return node.name;
    const keyed = node[reference];
    if (Object.hasOwn(node, reference) && isRecord(keyed) && typeof keyed.name === 'string') return keyed.name;
    for (const value of Object.values(node)) {
      if (typeof value !== 'object') continue;
      const found = search(value, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return search(refs, 0);
}

/**
 * "knights (Sylvan Knight)": a list element by its name or id, and the profile it uses where that
 * says more than the element's own name and the names already given (`known`).
 */
function elementName(element: unknown, refs: unknown, known: readonly string[]): string | undefined {
  if (!isRecord(element)) return undefined;
  const own = typeof element.name === 'string' ? element.name : typeof element.id === 'string' ? element.id : undefined;
  const reference = [element.unit, element.army, element.reference].find((value): value is string => typeof value === 'string');
  const profile = reference === undefined ? undefined : (displayName(refs, reference) ?? reference);
  if (own === undefined) return profile;
  const said = [own, ...known].map((name) => name.toLowerCase());
  return profile === undefined || said.includes(profile.toLowerCase()) ? own : `${own} (${profile})`;
}

/** "shieldSave" → "shield save", "enemyWithin30" → "enemy within 30", "to_charge" → "to charge". */
export function words(key: string): string {
  return key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([a-zA-Z])(\d)/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(' ')
    .map((word) => (/^[A-Z][a-z]/.test(word) ? word.toLowerCase() : word))
    .join(' ')
    .trim();
}

/** The first letter in upper case, unless the first word is a unit or symbol of two letters or fewer ("cm the loser…"). */
export const capitalized = (text: string): string => (/^[a-z]{3,}/.test(text) ? `${text[0]?.toUpperCase() ?? ''}${text.slice(1)}` : text);

/** A description that opens with the rules' own short term ("DEF: …", "MIGHT (R): …") names the field by it. */
const TERM = /^([A-Z][A-Z0-9]+(?: \([A-Z]\))?):\s/;

/** The field at `path` of a loaded scenario in human words (see FieldLabel). */
export function fieldLabel(loaded: LoadedScenario, path: string): FieldLabel {
  const steps = parseFieldPath(path);
  const last = steps?.at(-1);
  if (steps === undefined || last === undefined) return { path, label: path, title: path };
  const owners: string[] = [];
  let schema: Schema | undefined = loaded.system.scenarioSchema;
  let data: unknown = loaded.scenario;
  steps.forEach((step, i) => {
    if (i === steps.length - 1) return;
    const next = steps[i + 1] as string | number;
    const named = isNamedField(schema, step);
    const child: unknown =
      Array.isArray(data) && typeof step === 'number' ? data[step] : isRecord(data) && typeof step === 'string' ? data[step] : undefined;
    if (typeof step === 'number') {
      const name = elementName(child, loaded.refs, owners);
      owners.push(name ?? `${words(String(steps[i - 1] ?? 'item'))} ${step + 1}`);
    } else if (!named) {
      // A free key (an entry of `units:`, a model by name): the profile's display name where there is one.
      owners.push(displayName(loaded.refs, step) ?? step);
    } else if (i > 0 && isNamedField(childOf(schema, step), next)) {
      // A nested group of fields (a side's `reactions`): part of the owner; top-level ones (rules, options) are not.
      owners.push(words(step));
    }
    schema = childOf(schema, step);
    data = child;
  });
  const own = typeof last === 'string' && isNamedField(schema, last) ? describedBy(childOf(schema, last)) : undefined;
  const description =
    own ??
    (typeof last === 'string'
      ? dataFieldDescription(
          (loaded.system.dataSchemas ?? []).map((file) => file.schema),
          last,
        )
      : undefined);
  const term = description === undefined ? undefined : TERM.exec(description)?.[1];
  const title = term ?? (typeof last === 'number' ? `item ${last + 1}` : words(last));
  const owner = owners.length === 0 ? undefined : owners.join(OWNER_SEPARATOR);
  const label = owner === undefined ? capitalized(title) : `${owner}: ${title}`;
  return { path, label, title, ...(owner === undefined ? {} : { owner }), ...(description === undefined ? {} : { description }) };
}

/** A metric in words: its description (a category's without the parenthesis explaining its labels). */
export function metricTitle(metric: Pick<MetricSpec, 'name' | 'kind' | 'description'>): string {
  const description = metric.description.trim();
  if (description === '') return metric.name;
  const text = metric.kind === 'category' ? description.replace(/\s*\([^()]*:[^()]*\)\s*$/, '') : description;
  return capitalized(text);
}

/** One outcome in words: a category's label ("Side that won…: Empire"), a flag or a count by its metric's title. */
export function outcomeTitle(metric: Pick<MetricSpec, 'name' | 'kind' | 'description'>, label?: string): string {
  return metric.kind === 'category' && label !== undefined ? `${metricTitle(metric)}: ${label}` : metricTitle(metric);
}
