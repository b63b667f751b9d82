import type { Problem } from './rule-system.js';

/**
 * A scenario's `units:` block: changes to the bundled units' stats, or whole new units, written in
 * the scenario (or reached by `--set units.<id>.<field>=…`) instead of in a copy of the data folder.
 * Every rule system merges them the same way, onto its data entries as written, before they are
 * checked: so a bad override reads as a bad field of the scenario, `units.<id>.<field>`.
 */

type PlainObject = Record<string, unknown>;

const isPlainObject = (value: unknown): value is PlainObject => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An element's name in a list of named entries (weapons, models), if it has one. */
const nameOf = (element: unknown): string | undefined => {
  if (!isPlainObject(element)) return undefined;
  const name = element.name ?? element.id;
  return typeof name === 'string' ? name : undefined;
};

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * `override` laid over `base`: fields it names replace the base's; nested objects merge field by
 * field. A list of named entries (weapons, models: elements with a `name` or `id`) is changed by
 * name — `weapons: { Bow: { atk: 3 } }` changes the weapon named Bow, and a name the list lacks adds
 * an entry of that name; a list given as a list replaces the base's whole. No base: the override is
 * the whole entry (a new unit). Keys that could reach an object's prototype are ignored.
 */
export function mergeOverride(base: unknown, override: unknown): unknown {
  if (Array.isArray(base) && isPlainObject(override) && base.every((element) => nameOf(element) !== undefined)) {
    const merged = base.map((element) => {
      const name = nameOf(element) as string;
      return Object.hasOwn(override, name) && !UNSAFE_KEYS.has(name) ? mergeOverride(element, override[name]) : element;
    });
    const names = new Set(base.map(nameOf));
    for (const [name, value] of Object.entries(override)) {
      if (!names.has(name) && !UNSAFE_KEYS.has(name)) merged.push(isPlainObject(value) ? { name, ...value } : value);
    }
    return merged;
  }
  if (!isPlainObject(base) || !isPlainObject(override)) return override;
  const merged: PlainObject = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (UNSAFE_KEYS.has(key)) continue;
    merged[key] = mergeOverride(base[key], value);
  }
  return merged;
}

/**
 * A scenario's `units:` changes applied to a rule system's entries (keyed as the scenario names
 * them): each merged onto its entry, or onto nothing for a new one, with `identity(key)` laid on
 * top (the entry's id fields follow its key), then checked whole by `check` — so a bad change is a
 * problem of the scenario's `units.<key>.<field>`. Entries keep their order; new ones come last.
 */
export function applyOverrides<Entry>(
  entries: ReadonlyMap<string, Entry>,
  overrides: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
  identity: (key: string) => Readonly<Record<string, unknown>>,
  check: (key: string, merged: unknown) => { readonly value?: Entry; readonly problems: readonly Problem[] },
): { entries: Map<string, Entry>; problems: Problem[] } {
  const result = new Map(entries);
  const problems: Problem[] = [];
  for (const [key, override] of Object.entries(overrides)) {
    const checked = check(key, mergeOverride(result.get(key) ?? {}, { ...override, ...identity(key) }));
    problems.push(...checked.problems);
    if (checked.value !== undefined) result.set(key, checked.value);
  }
  return { entries: result, problems };
}
