import { z } from 'zod';
import { closestNames } from '../engine/validation.js';
import { MAX_PROBLEMS_PER_FILE } from './errors.js';

/**
 * Turns zod issues into plain sentences about the user's file: which field, what it must be,
 * what it is. zod's own messages ("expected number, received string") name types, not fields,
 * and say nothing about typos; these say `unknown field "modles" (did you mean "models"?)`.
 */
export interface FieldIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

type Issue = z.core.$ZodIssue;

const MISSING: unique symbol = Symbol('missing');

/**
 * The schema describing the value at `path` (wrappers removed), if the path follows the schema.
 * A union is resolved to the option the raw value picks (its discriminator, or the first option
 * with the next key), so a field of one of a union's shapes is named like any other.
 */
function schemaAt(root: z.ZodType, path: readonly PropertyKey[], raw: unknown = MISSING): z.ZodType | undefined {
  let schema: z.ZodType | undefined = unwrap(root);
  let value = raw;
  for (const key of path) {
    schema = fieldSchema(schema, key, value);
    if (schema === undefined) return undefined;
    schema = unwrap(schema);
    value =
      value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<PropertyKey, unknown>)[key] : MISSING;
  }
  return schema;
}

/** The schema of `parent`'s field `key`, `value` being the parent's raw value (to pick a union's option). */
function fieldSchema(parent: z.ZodType | undefined, key: PropertyKey, value: unknown): z.ZodType | undefined {
  const option = objectOptions(parent, value).find((shape) => typeof key === 'string' && Object.hasOwn(shape.shape, key));
  return childSchema(option ?? parent, key);
}

function childSchema(schema: z.ZodType | undefined, key: PropertyKey): z.ZodType | undefined {
  if (schema instanceof z.ZodObject && typeof key === 'string')
    return Object.hasOwn(schema.shape, key) ? (schema.shape as Record<string, z.ZodType>)[key] : undefined;
  if (schema instanceof z.ZodArray && typeof key === 'number') return schema.element as z.ZodType;
  if (schema instanceof z.ZodRecord && typeof key === 'string') return schema.valueType as z.ZodType;
  return undefined;
}

/**
 * The object shapes a value may have under `schema`: the object itself, or a union's object
 * options — for a discriminated union, those whose discriminator accepts the value's.
 */
function objectOptions(schema: z.ZodType | undefined, value: unknown): z.ZodObject[] {
  if (schema instanceof z.ZodObject) return [schema];
  if (!(schema instanceof z.ZodUnion)) return [];
  const options = (schema.options as readonly z.ZodType[])
    .map(unwrap)
    .filter((option): option is z.ZodObject => option instanceof z.ZodObject);
  if (schema instanceof z.ZodDiscriminatedUnion && value !== null && typeof value === 'object') {
    const discriminator = String(schema.def.discriminator);
    const tag = Object.hasOwn(value, discriminator) ? (value as Record<string, unknown>)[discriminator] : undefined;
    const picked = options.filter(
      (option) => (option.shape as Record<string, z.ZodType | undefined>)[discriminator]?.safeParse(tag).success === true,
    );
    if (picked.length > 0) return picked;
  }
  return options;
}

/** The field's `.describe()` text, which may sit on a wrapper (default, optional) or inside it. */
function descriptionAt(root: z.ZodType, path: readonly PropertyKey[], raw: unknown): string | undefined {
  const key = path.at(-1);
  if (key === undefined) return undefined;
  const parent = path.slice(0, -1);
  let schema = fieldSchema(schemaAt(root, parent, raw), key, valueAt(raw, parent));
  while (schema !== undefined) {
    if (schema.description !== undefined) return schema.description;
    schema =
      schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault || schema instanceof z.ZodOptional
        ? (schema.unwrap() as z.ZodType)
        : undefined;
  }
  return undefined;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodDefault || inner instanceof z.ZodPrefault || inner instanceof z.ZodOptional)
    inner = inner.unwrap() as z.ZodType;
  return inner;
}

/** The raw value at `path`, or MISSING when some key on the way is absent. */
function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = raw;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return MISSING;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** A short, one-line rendering of a user's value. */
export function describeValue(value: unknown): string {
  if (value === MISSING || value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

/**
 * A value of a file a scenario points at (`unitsFile:`), which may be any readable file, a secrets
 * file included: text is never quoted (passwords and tokens are text), nor is a whole file that is
 * one number (a PIN); a number in a field ("might: got 0") still is, to be fixed.
 */
export function describeKind(value: unknown, atRoot: boolean): string {
  if (typeof value === 'string') return 'text';
  if (atRoot && (typeof value === 'number' || typeof value === 'bigint')) return 'a number';
  return describeValue(value);
}

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** What a number field accepts, e.g. "an integer from 1 to 1000" or "a number ≥ 0". */
function numberRange(schema: z.ZodNumber): string {
  const kind = schema.isInt ? 'an integer' : 'a number';
  const min =
    schema.minValue !== null && Number.isFinite(schema.minValue) && Math.abs(schema.minValue) < Number.MAX_SAFE_INTEGER
      ? schema.minValue
      : undefined;
  const max =
    schema.maxValue !== null && Number.isFinite(schema.maxValue) && Math.abs(schema.maxValue) < Number.MAX_SAFE_INTEGER
      ? schema.maxValue
      : undefined;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} ≥ ${min}`;
  if (max !== undefined) return `${kind} ≤ ${max}`;
  return kind;
}

/** What the field accepts, in words, from its schema. */
function expectation(schema: z.ZodType | undefined, expected: string): string {
  if (schema instanceof z.ZodNumber) return numberRange(schema);
  if (schema instanceof z.ZodEnum) return `one of ${schema.options.map((option) => JSON.stringify(option)).join(', ')}`;
  if (schema instanceof z.ZodLiteral) return [...schema.values].map((value) => JSON.stringify(value)).join(' or ');
  if (schema instanceof z.ZodObject) {
    const fields = Object.entries(schema.shape as Record<string, z.ZodType>);
    const required = fields
      .filter(([, field]) => !(field instanceof z.ZodDefault || field instanceof z.ZodPrefault || field instanceof z.ZodOptional))
      .map(([name]) => name);
    return `a mapping of fields (${required.join(', ')}${required.length < fields.length ? ', …' : ''})`;
  }
  const words: Record<string, string> = {
    string: 'text',
    number: 'a number',
    int: 'an integer',
    boolean: 'true or false',
    array: 'a list',
    object: 'a mapping of fields',
  };
  return words[expected] ?? expected;
}

const isInteger = (schema: z.ZodType | undefined): boolean => schema instanceof z.ZodNumber && schema.isInt;

function sizeMessage(issue: Issue & { code: 'too_small' | 'too_big' }, value: unknown, schema: z.ZodType | undefined, got: string): string {
  const small = issue.code === 'too_small';
  const bound = Number(small ? issue.minimum : issue.maximum);
  const exact = issue.exact === true;
  switch (issue.origin) {
    case 'number':
    case 'int': {
      const relation = small ? (issue.inclusive ? '≥' : '>') : issue.inclusive ? '≤' : '<';
      return `must be ${isInteger(schema) ? 'an integer' : 'a number'} ${relation} ${bound}, got ${got}`;
    }
    case 'string':
      if (small && bound === 1 && !exact) return 'must not be empty';
      return `must be ${exact ? 'exactly' : small ? 'at least' : 'at most'} ${plural(bound, 'character')} long`;
    case 'array': {
      const got = Array.isArray(value) ? `, got ${value.length}` : '';
      if (small && bound === 1 && !exact) return 'must list at least 1 item, got an empty list';
      return `must list ${exact ? 'exactly' : small ? 'at least' : 'at most'} ${plural(bound, 'item')}${got}`;
    }
    default:
      return issue.message;
  }
}

/** Keys longer than this get no "did you mean" (edit distance is quadratic in the key's length). */
const LONGEST_KEY_MATCHED = 100;

function unknownFieldMessages(issue: Issue & { code: 'unrecognized_keys' }, raw: unknown, root: z.ZodType): FieldIssue[] {
  const owner = schemaAt(root, issue.path, raw);
  // A union's shapes (a checkpoint's plan, a Warmaster unit's troop or character): every field any of them has.
  const known = [...new Set(objectOptions(owner, valueAt(raw, issue.path)).flatMap((option) => Object.keys(option.shape)))];
  return issue.keys.map((key) => {
    const close = key.length <= LONGEST_KEY_MATCHED ? closestNames(key, known, 1) : [];
    const hint =
      close.length > 0
        ? `did you mean ${JSON.stringify(close[0])}?`
        : known.length > 0
          ? `known fields: ${known.join(', ')}`
          : 'no field is known here';
    return { path: [...issue.path, key], message: `unknown field ${describeValue(key)} (${hint})` };
  });
}

function issueMessage(issue: Issue, raw: unknown, root: z.ZodType, showValues: boolean): string {
  const value = valueAt(raw, issue.path);
  const got = showValues ? describeValue(value) : describeKind(value, issue.path.length === 0);
  const schema = schemaAt(root, issue.path, raw);
  switch (issue.code) {
    case 'invalid_type': {
      const wanted = expectation(schema, issue.expected);
      if (value === MISSING) {
        const field = issue.path.at(-1);
        const name = typeof field === 'string' ? `required field ${JSON.stringify(field)}` : 'required value';
        const description = descriptionAt(root, issue.path, raw);
        return `missing ${name} (${wanted}${description === undefined ? '' : `: ${description}`})`;
      }
      return `must be ${wanted}, got ${got}`;
    }
    case 'too_small':
    case 'too_big':
      return sizeMessage(issue, value, schema, got);
    case 'invalid_value': {
      const options = issue.values.map((option) => String(option));
      const close = typeof value === 'string' ? closestNames(value, options, 1) : [];
      const hint = close.length > 0 ? ` (did you mean ${JSON.stringify(close[0])}?)` : '';
      const wanted = options.length === 1 ? JSON.stringify(options[0]) : `one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
      return `must be ${wanted}, got ${got}${hint}`;
    }
    case 'invalid_format':
      return `${issue.message}, got ${got}`;
    default:
      return issue.message;
  }
}

/**
 * Every issue of a failed parse as a field path and a sentence. zod may report a type error and
 * a size error for the same field (a string where a list of length 2 is due): keep the type error.
 * Unknown keys past the MAX_PROBLEMS_PER_FILE an error lists (input/errors.ts) get a short sentence,
 * without "did you mean": they are only counted.
 */
export function describeZodIssues(issues: readonly Issue[], raw: unknown, root: z.ZodType, showValues = true): FieldIssue[] {
  const pathKey = (path: readonly PropertyKey[]): string => JSON.stringify(path.map(String));
  const typeErrorPaths = new Set(issues.filter((issue) => issue.code === 'invalid_type').map((issue) => pathKey(issue.path)));
  // One limit per field: `int()` brings its own "≤ 2⁵³ − 1" beside the schema's own maximum; say the tighter.
  const tightest = new Map<string, number>();
  for (const issue of issues) {
    if (issue.code !== 'too_big') continue;
    const bound = Number(issue.maximum);
    const key = pathKey(issue.path);
    tightest.set(key, Math.min(tightest.get(key) ?? Infinity, bound));
  }
  const described: FieldIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      // Only the keys that will be listed are described ("did you mean" costs); the rest are counted.
      const listed = issue.keys.slice(0, Math.max(0, MAX_PROBLEMS_PER_FILE - described.length));
      // One at a time: spreading 200,000 keys into push() overflows the stack.
      for (const message of unknownFieldMessages({ ...issue, keys: listed }, raw, root)) described.push(message);
      for (const key of issue.keys.slice(listed.length))
        described.push({ path: [...issue.path, key], message: `unknown field ${describeValue(key)}` });
      continue;
    }
    if (issue.code !== 'invalid_type' && typeErrorPaths.has(pathKey(issue.path))) continue;
    if (issue.code === 'too_big' && Number(issue.maximum) > (tightest.get(pathKey(issue.path)) ?? Infinity)) continue;
    described.push({ path: issue.path, message: issueMessage(issue, raw, root, showValues) });
  }
  return described;
}
