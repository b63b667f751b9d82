import { z } from 'zod';
import { unprintableProblems } from './data-file.js';
import { formatPath, ROOT_PATH, type Problem } from './errors.js';

/**
 * Changing a scenario by field path, before it is parsed and checked: what `--set` (sweeps) and a
 * scenario's `variants` (comparisons) do. A path names a field as the error messages do,
 * `sides[0].units[1].charging` (or with dots, `sides.0.units.1.charging`); every step but the last
 * must exist. The patched data then goes through the ruleset's schema and checks like a file would,
 * so a bad value is reported as a bad field.
 */

export type Json = unknown;

/** `sides[0].units[1].charging` or `sides.0.units.1.charging` → ['sides', 0, 'units', 1, 'charging']. */
export function parseFieldPath(path: string): (string | number)[] | undefined {
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.');
  if (parts.some((part) => part === '')) return undefined;
  return parts.map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** A copy of `data` with `value` at `path`; a message saying what is wrong otherwise. */
/** Names that reach an object's prototype rather than a field: a path through them would change every object in the process. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function setField(data: Json, path: string, value: Json): { data: Json } | { problem: string } {
  const steps = parseFieldPath(path);
  if (steps === undefined || steps.length === 0)
    return { problem: `${JSON.stringify(path)} is not a field path (e.g. sides[0].units[1].charging)` };
  const forbidden = steps.find((step) => typeof step === 'string' && PROTOTYPE_KEYS.has(step));
  if (forbidden !== undefined) return { problem: `${path}: ${JSON.stringify(forbidden)} is not a field a scenario can have` };
  const copy = structuredClone(data);
  let node: Json = copy;
  for (let i = 0; i < steps.length - 1; i++) {
    const step = steps[i] as string | number;
    const isMapping = node !== null && typeof node === 'object' && !Array.isArray(node);
    // Own fields only: nothing inherited is ever followed.
    let next =
      typeof step === 'number'
        ? Array.isArray(node)
          ? node[step]
          : undefined
        : isMapping && Object.hasOwn(node as object, step)
          ? (node as Record<string, Json>)[step]
          : undefined;
    // A missing object on the way (e.g. `options`, left to its defaults) is created; a missing list element is not.
    if (next === undefined && isMapping && typeof step === 'string' && typeof steps[i + 1] === 'string') {
      next = {};
      (node as Record<string, Json>)[step] = next;
    }
    if (next === undefined || next === null || typeof next !== 'object') {
      return { problem: `${path}: ${steps.slice(0, i + 1).join('.')} does not exist in the scenario` };
    }
    node = next;
  }
  const last = steps[steps.length - 1] as string | number;
  if (typeof last === 'number') {
    if (!Array.isArray(node) || last > node.length) return { problem: `${path}: no list element ${last} to set` };
    node[last] = value;
  } else {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return { problem: `${path}: the parent is not an object` };
    (node as Record<string, Json>)[last] = value;
  }
  return { data: copy };
}

/** A value as typed on the command line: JSON (numbers, true/false, quoted text, lists), else plain text. */
export function parseCommandLineValue(text: string): Json {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return text;
  }
}

export const variantSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes (e.g. "stand")'),
  description: z.string().optional(),
  set: z.record(z.string().min(1), z.unknown()).describe('field path → value, e.g. { "sides[0].policy": "stand" }'),
});
export const variantsSchema = z.array(variantSchema).min(1);
export type Variant = z.output<typeof variantSchema>;

/**
 * Control characters in a changed field's path or value: the file's own text is checked for them
 * as it is read (input/data-file.ts), a value from the command line or a variant must be too, or it
 * reaches the terminal raw. A value's problem is named at the field (`sides[0].name`); a path's at
 * `where`, without echoing the path.
 */
export function unprintableFieldProblems(file: string, path: string, value: Json, where = ROOT_PATH): Problem[] {
  const inPath = unprintableProblems(file, path)[0];
  if (inPath !== undefined) return [{ file, path: where, message: `a field path ${inPath.message}` }];
  const steps = parseFieldPath(path);
  const field = steps === undefined ? path : formatPath(steps);
  // The last named step says whether the value is a name (no line breaks) or a text.
  const lastName = [...(steps ?? [])].reverse().find((step): step is string => typeof step === 'string');
  return unprintableProblems(file, value, lastName).map((problem) => ({
    ...problem,
    path: problem.path === ROOT_PATH ? field : `${field}${problem.path.startsWith('[') ? '' : '.'}${problem.path}`,
  }));
}

/** Apply a list of (path, value) changes; every problem is named against `file`. */
export function applyFields(
  file: string,
  data: Json,
  fields: readonly (readonly [string, Json])[],
  where = ROOT_PATH,
): { data: Json; problems: Problem[] } {
  let current = data;
  const problems: Problem[] = [];
  for (const [path, value] of fields) {
    const unprintable = unprintableFieldProblems(file, path, value, where);
    if (unprintable.length > 0) {
      problems.push(...unprintable);
      continue;
    }
    const result = setField(current, path, value);
    if ('problem' in result) problems.push({ file, path: where, message: result.problem });
    else current = result.data;
  }
  return { data: current, problems };
}
