/**
 * Warmaster's data files named by name (its army files are told by their content): known from the
 * registry's light entry without loading the rule system (engine/registry.ts), and used by its
 * descriptor's `dataFile` (index.ts).
 */
export const COMBAT_FLAGS_FILE_NAMES = /^combat-flags\.ya?ml$/i;
export const ALLIES_FILE_NAMES = /^regiments-of-renown-allies\.ya?ml$/i;
