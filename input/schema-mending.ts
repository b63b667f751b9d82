import type { z } from 'zod';

/**
 * A scenario that fails its schema, made to pass it, so that its loader can still look for the
 * problems it finds (an unknown unit, a units file not found) and every problem of the file is said
 * in one pass (input/scenario-file.ts). Each bad field is mended as little as possible: an unknown
 * field dropped, a number put at the bound it passed (`low`) or one step inside it (`high`), a choice
 * set to the first (`low`) or last (`high`) allowed, any other bad field removed (an optional one
 * then reads its default). A field that is missing, or a bad item of a list, cannot be mended: then
 * nothing is (undefined). The caller loads both mendings and keeps the problems the two share, which
 * a mended value did not cause.
 */

type Issue = z.core.$ZodIssue;
type Container = Record<PropertyKey, unknown>;

/** Rounds of mending: a field removed may reveal another problem below it; bundled scenarios need one or two. */
const MAX_ROUNDS = 6;

export type Mending = 'low' | 'high';

export interface Mended {
  /** The scenario as the schema parsed it. */
  readonly value: unknown;
  /** Where it was changed: the problems found at, inside or above these are the mending's, not the file's. */
  readonly paths: readonly (readonly PropertyKey[])[];
}

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** The value at `path` and the container holding it (undefined where the path leads nowhere). */
function locate(root: unknown, path: readonly PropertyKey[]): { parent?: Container; key?: PropertyKey; value: unknown } {
  let parent: Container | undefined;
  let key: PropertyKey | undefined;
  let value = root;
  for (const step of path) {
    if (!isContainer(value)) return { value: undefined };
    parent = value;
    key = step;
    value = value[step];
  }
  return { ...(parent === undefined ? {} : { parent }), ...(key === undefined ? {} : { key }), value };
}

/** A number's nearest value within the bound it passed: on it, or one step inside (`high`). */
function withinBound(issue: Issue, mending: Mending): number | undefined {
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return undefined;
  const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
  if (!Number.isFinite(bound)) return undefined;
  const inward = issue.code === 'too_small' ? 1 : -1;
  const steps = (issue.inclusive === false ? 1 : 0) + (mending === 'high' ? 1 : 0);
  // Integers step by one; a fraction's exclusive bound by a hair.
  const step = issue.origin === 'int' || Number.isInteger(bound) ? 1 : Math.max(Math.abs(bound), 1) * 1e-9;
  return bound + inward * steps * step;
}

/** Mend the field one issue is about; false when it cannot be. */
function mend(root: unknown, issue: Issue, mending: Mending, paths: (readonly PropertyKey[])[]): boolean {
  const { parent, key, value } = locate(root, issue.path);
  if (issue.code === 'unrecognized_keys') {
    if (!isContainer(value)) return false;
    for (const unknown of issue.keys) {
      delete value[unknown];
      paths.push([...issue.path, unknown]);
    }
    return true;
  }
  // The whole scenario, a missing field, or a field of something that is not there: nothing to mend.
  if (parent === undefined || key === undefined || value === undefined) return false;
  paths.push(issue.path);
  const bounded = typeof value === 'number' ? withinBound(issue, mending) : undefined;
  if (bounded !== undefined) {
    parent[key] = bounded;
    return true;
  }
  if (issue.code === 'invalid_value' && issue.values.length > 0) {
    parent[key] = mending === 'low' ? issue.values[0] : issue.values.at(-1);
    return true;
  }
  // An item of a list cannot go: the items after it would move, and their problems with them.
  if (Array.isArray(parent)) return false;
  delete parent[key];
  return true;
}

/** `data` mended until `schema` passes it, or undefined when it cannot be (see above). */
export function mendToSchema(schema: z.ZodType, data: unknown, mending: Mending): Mended | undefined {
  const copy: unknown = structuredClone(data);
  const paths: (readonly PropertyKey[])[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const result = schema.safeParse(copy);
    if (result.success) return { value: result.data, paths };
    for (const issue of result.error.issues) if (!mend(copy, issue, mending, paths)) return undefined;
  }
  return undefined;
}
