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
