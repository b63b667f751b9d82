import { formatPath } from '../../input/errors.js';

/**
 * What differs between two versions of a scenario's data, as field changes: used to keep a YAML
 * document's comments and layout when a form edits it (only changed fields are rewritten), and to
 * express an edited copy as a `variants:` entry for `compare` (the CLI's own format).
 */

export interface FieldChange {
  readonly path: readonly (string | number)[];
  /** undefined: the field is gone. */
  readonly value: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function fieldChanges(before: unknown, after: unknown, path: readonly (string | number)[] = []): FieldChange[] {
  if (same(before, after)) return [];
  if (isRecord(before) && isRecord(after)) {
    const changes: FieldChange[] = [];
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)]))
      changes.push(...fieldChanges(before[key], after[key], [...path, key]));
    return changes;
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length) {
    return before.flatMap((item, index) => fieldChanges(item, after[index], [...path, index]));
  }
  return [{ path, value: after }];
}

/**
 * The `set:` of a variant turning `base` into `edited`: `path → value` (a field removed in the
 * copy is set by its parent, whole, since a variant cannot remove a field).
 */
export function variantSet(base: unknown, edited: unknown): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const change of fieldChanges(base, edited)) {
    let { path } = change;
    let value = change.value;
    while (value === undefined && path.length > 0) {
      path = path.slice(0, -1);
      value = path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], edited);
    }
    set[formatPath(path)] = value;
  }
  return set;
}
