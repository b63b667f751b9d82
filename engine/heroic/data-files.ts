/**
 * Heroic's data files (not scenarios) are named like this (units.yaml, units.json): known from the
 * registry's light entry without loading the rule system (engine/registry.ts), and used by its
 * descriptor's `dataFile` (index.ts).
 */
export const UNITS_FILE_NAMES = /^units\.[^.]+$/i;
