import { has, isRecord, type Path, type PathKey, pathPattern, setAt } from './schema-form-paths.js';

export * from './schema-form-paths.js';

/**
 * The logic of the workbench's schema form (schema-form.tsx), without DOM or Preact: what kind of
 * field a JSON Schema node is (as zod 4's `z.toJSONSchema(…, { io: 'input' })` writes them), the
 * alternatives of a union and the one a value matches, immutable edits of plain JSON data by path,
 * a new value for a node, and the words, ids and paths the form shows.
 */

/** The JSON Schema keywords the form reads (draft 2020-12, plus draft-7 `definitions` and OpenAPI `nullable`). */
export interface JsonSchema {
  type?: string | readonly string[];
  title?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: readonly unknown[];
  properties?: Readonly<Record<string, JsonSchema | boolean>>;
  required?: readonly string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema | boolean;
  items?: JsonSchema | boolean;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  anyOf?: readonly (JsonSchema | boolean)[];
  oneOf?: readonly (JsonSchema | boolean)[];
  allOf?: readonly (JsonSchema | boolean)[];
  $ref?: string;
  $defs?: Readonly<Record<string, JsonSchema | boolean>>;
  definitions?: Readonly<Record<string, JsonSchema | boolean>>;
  nullable?: boolean;
  [key: string]: unknown;
}

export type SchemaNode = JsonSchema | boolean | undefined;

export const FIELD_KINDS = ['object', 'map', 'array', 'enum', 'const', 'string', 'integer', 'number', 'boolean', 'union', 'any'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** Deeper than this (path length), containers are edited as JSON text. */
export const MAX_FORM_DEPTH = 8;

const META_KEYS = ['title', 'description', 'default'] as const;

function pointer(root: JsonSchema, ref: string): SchemaNode {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isRecord(node) || !has(node, key)) return undefined;
    node = node[key];
  }
  return typeof node === 'boolean' || isRecord(node) ? (node as JsonSchema | boolean) : undefined;
}

function mergeAll(parts: readonly JsonSchema[]): JsonSchema {
  const merged: JsonSchema = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isRecord(value))
        merged.properties = { ...merged.properties, ...(value as Record<string, JsonSchema | boolean>) };
      else if (key === 'required' && Array.isArray(value))
        merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
      else if (!has(merged, key)) merged[key] = value;
    }
  }
  return merged;
}

/**
 * The node with `$ref` followed (its sibling keywords win), `allOf` merged, and a type list or
 * `nullable` written as an `anyOf` of single types; `true`/absent is `{}` (any), `false` too.
 */
export function resolveSchema(node: SchemaNode, root: JsonSchema): JsonSchema {
  let schema: JsonSchema = typeof node === 'object' ? node : {};
  for (let hops = 0; typeof schema.$ref === 'string' && hops < 32; hops++) {
    const { $ref, ...siblings } = schema;
    const target = pointer(root, $ref);
    schema = { ...(typeof target === 'object' ? target : {}), ...siblings };
  }
  if (typeof schema.$ref === 'string') return {};
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    schema = mergeAll([rest, ...allOf.map((part) => resolveSchema(part, root))]);
  }
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? [...schema.type] : undefined;
  if (schema.nullable === true && types !== undefined && !types.includes('null')) types.push('null');
  if (types !== undefined && types.length > 1 && schema.anyOf === undefined && schema.oneOf === undefined) {
    const { type: _type, nullable: _nullable, title, description, default: fallback, ...rest } = schema;
    const union: JsonSchema = { anyOf: types.map((type) => (type === 'null' ? { type } : { ...rest, type })) };
    if (title !== undefined) union.title = title;
    if (description !== undefined) union.description = description;
    if (fallback !== undefined || has(schema, 'default')) union.default = fallback;
    return union;
  }
  if (types !== undefined && types.length === 1 && Array.isArray(schema.type)) schema = { ...schema, type: types[0] as string };
  return schema;
}

/** The alternatives of a union node (anyOf or oneOf), resolved; undefined when it is not one. */
function rawAlternatives(schema: JsonSchema): readonly SchemaNode[] | undefined {
  if (Array.isArray(schema.anyOf) && schema.anyOf.length > 0) return schema.anyOf;
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) return schema.oneOf;
  return undefined;
}

/** A union with one alternative is that alternative (the union's title, description and default kept). */
function collapse(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const alternatives = rawAlternatives(schema);
  if (alternatives === undefined || alternatives.length !== 1) return schema;
  const { anyOf: _anyOf, oneOf: _oneOf, ...outer } = schema;
  const inner = resolveSchema(alternatives[0], root);
  const merged: JsonSchema = { ...inner };
  for (const key of META_KEYS) if (has(outer, key)) (merged as Record<string, unknown>)[key] = outer[key];
  return collapse(merged, root);
}

/** resolveSchema, and a one-alternative union unwrapped: what the form works with. */
export function schemaOf(node: SchemaNode, root: JsonSchema): JsonSchema {
  return collapse(resolveSchema(node, root), root);
}

/** The value schema of a map node (additionalProperties as a schema), or undefined. */
export function mapValueSchema(schema: JsonSchema): SchemaNode {
  const extra = schema.additionalProperties;
  if (typeof extra === 'object') return extra;
  if (schema.properties === undefined && extra !== false) return {};
  return undefined;
}

export function fieldKind(node: SchemaNode, root: JsonSchema): FieldKind {
  const schema = schemaOf(node, root);
  if (has(schema, 'const')) return 'const';
  if (Array.isArray(schema.enum)) return schema.enum.length === 1 ? 'const' : 'enum';
  if (rawAlternatives(schema) !== undefined) return 'union';
  switch (schema.type) {
    case 'object':
      return schema.properties === undefined && mapValueSchema(schema) !== undefined ? 'map' : 'object';
    case 'array':
      return 'array';
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return schema.type;
    case 'null':
      return 'const';
    default:
      if (isRecord(schema.properties)) return 'object';
      if (typeof schema.additionalProperties === 'object') return 'map';
      if (schema.items !== undefined) return 'array';
      return 'any';
  }
}

/** The fixed value of a const node (`const`, a one-value `enum`, or `type: null`). */
export function constValue(schema: JsonSchema): unknown {
  if (has(schema, 'const')) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return schema.enum[0];
  return null;
}

export interface Property {
  readonly key: string;
  readonly schema: SchemaNode;
  readonly required: boolean;
}

export function propertiesOf(schema: JsonSchema): Property[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, node]) => ({ key, schema: node, required: required.has(key) }));
}

const LEAF_KINDS: ReadonlySet<FieldKind> = new Set(['enum', 'string', 'integer', 'number', 'boolean', 'union']);

/** An optional property that is not set is shown in place (its default as a placeholder) when it has a default and is a single value; else it waits under "Add field". */
export function showsUnsetInPlace(node: SchemaNode, root: JsonSchema): boolean {
  const schema = schemaOf(node, root);
  return has(schema, 'default') && schema.default !== undefined && LEAF_KINDS.has(fieldKind(schema, root));
}

export interface Alternative {
  readonly schema: JsonSchema;
  readonly label: string;
}

const SHORT_LABELS: Readonly<Record<string, string>> = {
  string: 'text',
  integer: 'number',
  number: 'number',
  boolean: 'yes/no',
  any: 'any value',
  map: 'named entries',
};

function keyList(schema: JsonSchema): string {
  const keys = Object.keys(schema.properties ?? {});
  return `{${keys.slice(0, 4).join(', ')}${keys.length > 4 ? ', …' : ''}}`;
}

/** Short words for what a node holds: "number", "text", "list of {value, p}", "object", "true". */
export function shortLabel(node: SchemaNode, root: JsonSchema, depth = 0): string {
  const schema = schemaOf(node, root);
  if (typeof schema.title === 'string' && schema.title !== '') return schema.title;
  const kind = fieldKind(schema, root);
  switch (kind) {
    case 'const': {
      const value = constValue(schema);
      return value === null ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);
    }
    case 'enum':
      return schema.enum?.every((value) => typeof value === 'string') === true && (schema.enum?.length ?? 0) <= 3
        ? (schema.enum ?? []).join(' / ')
        : 'choice';
    case 'object':
      return 'object';
    case 'array': {
      if (depth > 2) return 'list';
      const items = schemaOf(schema.items, root);
      return `list of ${fieldKind(items, root) === 'object' && items.title === undefined ? keyList(items) : shortLabel(items, root, depth + 1)}`;
    }
    case 'union':
      return 'one of several';
    default:
      return SHORT_LABELS[kind] ?? kind;
  }
}

/** A union's alternatives, each with a short label (made distinct with a number when two read alike). */
export function alternativesOf(node: SchemaNode, root: JsonSchema): Alternative[] {
  const schema = resolveSchema(node, root);
  const alternatives = (rawAlternatives(schema) ?? []).map((alternative) => schemaOf(alternative, root));
  const labels = alternatives.map((alternative) => shortLabel(alternative, root));
  return alternatives.map((alternative, index) => {
    const label = labels[index] as string;
    const twins = labels.filter((other) => other === label).length;
    return {
      schema: alternative,
      label: twins > 1 ? `${label} (${labels.slice(0, index + 1).filter((other) => other === label).length})` : label,
    };
  });
}

/** How well a value fits a node: 0 not at all, 1 by its type, 2 by its shape too (keys, const, range). */
export function matchScore(node: SchemaNode, value: unknown, root: JsonSchema, depth = 0): number {
  if (value === undefined) return 0;
  const schema = schemaOf(node, root);
  const kind = fieldKind(schema, root);
  switch (kind) {
    case 'const':
      return JSON.stringify(constValue(schema)) === JSON.stringify(value) ? 2 : 0;
    case 'enum':
      return (schema.enum ?? []).some((option) => JSON.stringify(option) === JSON.stringify(value)) ? 2 : 0;
    case 'string':
      return typeof value === 'string' ? (schema.pattern === undefined || safeTest(schema.pattern, value) ? 2 : 1) : 0;
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || (kind === 'integer' && !Number.isInteger(value))) return 0;
      const { min, max } = numberBounds(schema);
      return (min === undefined || value >= min) && (max === undefined || value <= max) ? 2 : 1;
    }
    case 'boolean':
      return typeof value === 'boolean' ? 2 : 0;
    case 'array':
      if (!Array.isArray(value)) return 0;
      return depth > 4 || value.every((item) => matchScore(schema.items, item, root, depth + 1) > 0) ? 2 : 1;
    case 'object': {
      if (!isRecord(value)) return 0;
      const properties = schema.properties ?? {};
      const known = Object.keys(value).every((key) => has(properties, key) || schema.additionalProperties !== false);
      const complete = (schema.required ?? []).every((key) => has(value, key));
      return known && complete ? 2 : 1;
    }
    case 'map':
      return isRecord(value) ? 2 : 0;
    case 'union':
      return depth > 4
        ? 1
        : Math.max(0, ...alternativesOf(schema, root).map((alternative) => matchScore(alternative.schema, value, root, depth + 1)));
    case 'any':
      return 1;
  }
}

/** The index of the alternative a value fits best (the first of equals), or -1 when none does. */
export function matchAlternative(node: SchemaNode, value: unknown, root: JsonSchema): number {
  let best = -1;
  let bestScore = 0;
  alternativesOf(node, root).forEach((alternative, index) => {
    const score = matchScore(alternative.schema, value, root);
    if (score > bestScore) {
      best = index;
      bestScore = score;
    }
  });
  return best;
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(text);
  } catch {
    return true;
  }
}

/** The inclusive range and step an `<input type="number">` gets. */
export function numberBounds(schema: JsonSchema): { min?: number; max?: number; step: number | 'any' } {
  const integer = schema.type === 'integer';
  const bounds: { min?: number; max?: number; step: number | 'any' } = {
    step: typeof schema.multipleOf === 'number' ? schema.multipleOf : integer ? 1 : 'any',
  };
  const low = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.minimum;
  const high = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.maximum;
  const lowOpen = typeof schema.exclusiveMinimum === 'number' || schema.exclusiveMinimum === true;
  const highOpen = typeof schema.exclusiveMaximum === 'number' || schema.exclusiveMaximum === true;
  if (typeof low === 'number') bounds.min = integer ? (lowOpen ? Math.floor(low) + 1 : Math.ceil(low)) : low;
  if (typeof high === 'number') bounds.max = integer ? (highOpen ? Math.ceil(high) - 1 : Math.floor(high)) : high;
  return bounds;
}

// ——— new values ———

export interface DefaultOptions {
  /** An object (or map) starts with its required properties only, not its `default` (whose fields the form shows as placeholders). */
  readonly minimal?: boolean;
  /** Where the value goes: string fields with choices for that pattern start as the first choice. */
  readonly path?: Path;
  readonly choices?: Readonly<Record<string, readonly { readonly value: string }[]>>;
  readonly depth?: number;
}

const STRING_CANDIDATES = ['', 'new', 'a', '1', 'new/new', 'a/a', 'new_1', 'a_a', '1/1'];

const clone = (value: unknown): unknown => (value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown));

/**
 * A value for a new field: its `default`, else its const or first enum value, else the smallest
 * value that fits (0 or the minimum, '' or a short word its pattern accepts, false, minItems
 * items, an object with its required properties), to a bounded depth.
 */
export function defaultValue(node: SchemaNode, root: JsonSchema, options: DefaultOptions = {}): unknown {
  const schema = schemaOf(node, root);
  const path = options.path ?? [];
  const depth = options.depth ?? 0;
  const kind = fieldKind(schema, root);
  const minimalHere = options.minimal === true && (kind === 'object' || kind === 'map');
  if (has(schema, 'default') && schema.default !== undefined && !minimalHere) return clone(schema.default);
  const deeper = (child: SchemaNode, key: PathKey): unknown =>
    defaultValue(child, root, { ...options, minimal: false, path: [...path, key], depth: depth + 1 });
  switch (kind) {
    case 'const':
      return clone(constValue(schema));
    case 'enum':
      return clone(schema.enum?.[0]);
    case 'union': {
      const alternatives = alternativesOf(schema, root);
      const first =
        alternatives.find((alternative) => fieldKind(alternative.schema, root) !== 'const' || constValue(alternative.schema) !== null) ??
        alternatives[0];
      return first === undefined ? null : defaultValue(first.schema, root, options);
    }
    case 'string': {
      const offered = options.choices?.[pathPattern(path)]?.[0];
      if (offered !== undefined) return offered.value;
      const fits = (text: string): boolean =>
        text.length >= (schema.minLength ?? 0) && (schema.pattern === undefined || safeTest(schema.pattern, text));
      return STRING_CANDIDATES.find(fits) ?? '';
    }
    case 'integer':
    case 'number': {
      const { min, max } = numberBounds(schema);
      if ((min === undefined || min <= 0) && (max === undefined || max >= 0)) return 0;
      return min ?? max ?? 0;
    }
    case 'boolean':
      return false;
    case 'array': {
      const items: unknown[] = [];
      if (depth < MAX_FORM_DEPTH)
        for (let index = 0; index < Math.min(schema.minItems ?? 0, 10); index++)
          items.push(distinctItem(deeper(schema.items, index), items, schema.items, root));
      return items;
    }
    case 'object': {
      const object: Record<string, unknown> = {};
      if (depth < MAX_FORM_DEPTH)
        for (const property of propertiesOf(schema)) if (property.required) object[property.key] = deeper(property.schema, property.key);
      return object;
    }
    case 'map':
      return {};
    case 'any':
      return null;
  }
}

/**
 * A new array element told apart from its siblings: an `id` or `name` equal to a sibling's gets a
 * number (`new-2`, `new 2`) where the property's pattern still accepts it.
 */
export function distinctItem(item: unknown, siblings: readonly unknown[], itemNode: SchemaNode, root: JsonSchema): unknown {
  if (!isRecord(item)) return item;
  const itemSchema = schemaOf(itemNode, root);
  let result: unknown = item;
  for (const [key, separator] of [
    ['id', '-'],
    ['name', ' '],
  ] as const) {
    const value = item[key];
    if (typeof value !== 'string') continue;
    const taken = new Set(siblings.map((sibling) => (isRecord(sibling) ? sibling[key] : undefined)));
    if (!taken.has(value)) continue;
    const property = schemaOf(itemSchema.properties?.[key], root);
    for (let n = 2; n < 1000; n++) {
      const candidate = `${value}${separator}${n}`;
      if (taken.has(candidate)) continue;
      if (property.pattern === undefined || safeTest(property.pattern, candidate)) result = setAt(result, [key], candidate);
      break;
    }
  }
  return result;
}

/** Why a new map key is refused (empty, taken, or not what `propertyNames` allows), or undefined when it is fine. */
export function mapKeyProblem(schema: JsonSchema, key: string, existing: readonly string[], root: JsonSchema): string | undefined {
  if (key === '') return 'Type a key first.';
  if (existing.includes(key)) return `"${key}" is already there.`;
  const names = schemaOf(schema.propertyNames, root);
  if (typeof names.minLength === 'number' && key.length < names.minLength) return `A key needs at least ${names.minLength} characters.`;
  if (typeof names.maxLength === 'number' && key.length > names.maxLength) return `A key has at most ${names.maxLength} characters.`;
  if (typeof names.pattern === 'string' && !safeTest(names.pattern, key)) return `"${key}" does not fit the pattern ${names.pattern}.`;
  if (Array.isArray(names.enum) && !names.enum.includes(key)) return `"${key}" is not one of ${names.enum.map(String).join(', ')}.`;
  return undefined;
}
