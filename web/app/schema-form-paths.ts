import { parse } from 'yaml';
import { formatPath as cliFormatPath, ROOT_PATH } from '../../input/errors.js';

/**
 * The schema form's plain-data side (schema-form-model.ts re-exports it): immutable edits of JSON
 * data by path, paths and ids as the CLI and the DOM name them, field names in words, problems by
 * path, and the JSON text of a value.
 */

export type PathKey = string | number;
export type Path = readonly PathKey[];

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const has = (value: object, key: string): boolean => Object.hasOwn(value, key);

// ——— data by path ———

export function valueAt(data: unknown, path: Path): unknown {
  let node = data;
  for (const key of path) {
    if (typeof key === 'number' ? !Array.isArray(node) : !isRecord(node) || !has(node, key)) return undefined;
    node = (node as Record<PathKey, unknown>)[key];
  }
  return node;
}

/**
 * `data` with `value` at `path`, as new data (untouched branches shared); missing containers are
 * made (an array for a number key, an object for a string). Setting undefined removes the field.
 */
export function setAt(data: unknown, path: Path, value: unknown): unknown {
  if (value === undefined) return removeAt(data, path);
  const [key, ...rest] = path;
  if (key === undefined) return value;
  if (typeof key === 'number') {
    const array = Array.isArray(data) ? [...(data as unknown[])] : [];
    while (array.length < key) array.push(null);
    array[key] = setAt(array[key], rest, value);
    return array;
  }
  const object = isRecord(data) ? data : {};
  const next = setAt(has(object, key) ? object[key] : undefined, rest, value);
  // Defined as a property, so a key like __proto__ stays plain data.
  const copy: Record<string, unknown> = { ...object };
  Object.defineProperty(copy, key, { value: next, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** `data` without the field at `path` (an array element: the later ones shift down); unchanged (same object) when it is not there. */
export function removeAt(data: unknown, path: Path): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return undefined;
  if (typeof key === 'number') {
    if (!Array.isArray(data) || key < 0 || key >= data.length) return data;
    if (rest.length === 0) return data.filter((_, index) => index !== key);
    const inner = removeAt(data[key], rest);
    return inner === data[key] ? data : data.map((item: unknown, index) => (index === key ? inner : item));
  }
  if (!isRecord(data) || !has(data, key)) return data;
  if (rest.length === 0) {
    const copy: Record<string, unknown> = {};
    for (const [name, item] of Object.entries(data))
      if (name !== key) Object.defineProperty(copy, name, { value: item, enumerable: true, writable: true, configurable: true });
    return copy;
  }
  const inner = removeAt(data[key], rest);
  return inner === data[key] ? data : setAt(data, [key], inner);
}

/** The array at `path` with its element `from` moved to `to` (both clamped); unchanged when there is no such array. */
export function moveItem(data: unknown, path: Path, from: number, to: number): unknown {
  const array = valueAt(data, path);
  if (!Array.isArray(array) || from < 0 || from >= array.length) return data;
  const target = Math.max(0, Math.min(array.length - 1, to));
  if (target === from) return data;
  const copy = [...(array as unknown[])];
  const [item] = copy.splice(from, 1);
  copy.splice(target, 0, item);
  return setAt(data, path, copy);
}

// ——— words, paths and ids ———

/** `['sides', 0, 'groups', 1, 'unit']` → `sides[0].groups[1].unit`, as the CLI names fields in problems; the root is ''. */
export function formatPath(path: Path): string {
  const text = cliFormatPath(path);
  return text === ROOT_PATH ? '' : text;
}

/** The pattern `choices` are keyed by: array indices written `[]` (`sides[].groups[].unit`). */
export function pathPattern(path: Path): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += '[]';
    else {
      const step = cliFormatPath([key]);
      text += text === '' || step.startsWith('[') ? step : `.${step}`;
    }
  }
  return text;
}

/**
 * A stable element id for the field at `path`: `a-sides-1-groups-0-models`, each key's characters
 * other than letters and digits escaped (so two paths never share an id, and `__` never occurs
 * in one: the form's own elements for a field add `__help`, `__problems`, `__add`…).
 */
export function fieldId(prefix: string, path: Path): string {
  if (path.length === 0) return `${prefix}__root`;
  const hex = (char: string, width: number): string => char.charCodeAt(0).toString(16).padStart(width, '0');
  // Each UTF-16 unit: `_` and 2 hex digits, or `_u` and 4 (so the encoding reads back one way only).
  const safe = (key: PathKey): string =>
    String(key).replace(/[^A-Za-z0-9]/g, (char) => (char.charCodeAt(0) < 0x100 ? `_${hex(char, 2)}` : `_u${hex(char, 4)}`));
  return [prefix, ...path.map(safe)].join('-');
}

const WORDS = /[A-Z](?=\d)\d+|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+(?:\.\d+)?|[^\sA-Za-z\d_-]+/g;
const KEEP_CASE = /^(?:[A-Z]\d+|[A-Z]{2,})$/;
const SPECIAL: Readonly<Record<string, string>> = { id: 'ID', p: 'P' };

/** A property name in words: `enemyWithin30` → "Enemy within 30", `markers-per-turn` → "Markers per turn", `chargeBonusD6` → "Charge bonus D6". */
export function humanize(name: string): string {
  const words = name.match(WORDS) ?? [];
  if (words.length === 0) return name;
  const text = words.map((word) => SPECIAL[word] ?? (KEEP_CASE.test(word) ? word : word.toLowerCase())).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The singular of a plural label ("Groups" → "Group", "Casualties" → "Casualty"); others unchanged. */
export function singular(label: string): string {
  if (/ies$/.test(label)) return `${label.slice(0, -3)}y`;
  if (/(?:ss|us|is)$/.test(label)) return label;
  if (/(?:sses|xes|ches|shes)$/.test(label)) return label.slice(0, -2);
  if (/[^s]s$/.test(label)) return label.slice(0, -1);
  return label;
}

/** An array element's label: "Group 2" for index 1 of "Groups". */
export function itemLabel(arrayLabel: string, index: number): string {
  return `${singular(arrayLabel)} ${index + 1}`;
}

/** A label inside a sentence: "Group 2" → "group 2" (an acronym such as "ID" kept). */
export function lowerFirst(label: string): string {
  return /^[A-Z][^A-Z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label;
}

/** Problem messages by field path (`sides[0].name`; '' the root). */
export function problemsByPath(problems: readonly { readonly path: string; readonly message: string }[]): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const problem of problems) {
    const path = problem.path === ROOT_PATH ? '' : problem.path;
    byPath.set(path, [...(byPath.get(path) ?? []), problem.message]);
  }
  return byPath;
}

/** The messages for `path` and, with `within`, for every field inside it. */
export function problemsAt(byPath: ReadonlyMap<string, readonly string[]>, path: Path, within = false): string[] {
  const here = formatPath(path);
  if (!within) return [...(byPath.get(here) ?? [])];
  const found: string[] = [];
  for (const [at, messages] of byPath) {
    const inside = here === '' || at === here || at.startsWith(`${here}.`) || at.startsWith(`${here}[`);
    if (inside)
      found.push(...messages.map((message) => (at === here ? message : `${at.slice(here.length).replace(/^\./, '')}: ${message}`)));
  }
  return found;
}

/** A value as the text of a JSON field: one line when short, else indented. */
export function jsonText(value: unknown): string {
  if (value === undefined) return '';
  const line = JSON.stringify(value);
  return line.length <= 60 ? line : JSON.stringify(value, null, 2);
}

/** The text of a JSON field as a value: JSON, or YAML (flow or block) which includes it. */
export function parseJsonText(
  text: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string } {
  if (text.trim() === '') return { ok: false, message: 'Empty: type a value, e.g. 1, "text", [1, 2] or { key: 1 }.' };
  try {
    return { ok: true, value: parse(text) as unknown };
  } catch (error) {
    const message = (error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)).replace(/:\s*$/, '');
    return { ok: false, message: `Not readable as JSON or YAML: ${message}` };
  }
}
