/**
 * Epic's data files (not scenarios) are named like this (armies.yaml, armies.json): known from the
 * registry's light entry without loading the rule system (engine/registry.ts), and used by its
 * descriptor's `dataFile` (index.ts).
 */
export const ARMIES_FILE_NAMES = /^armies\.(ya?ml|json)$/i;
