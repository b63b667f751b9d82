import path from 'pathe';

/**
 * Where crucible's own data is: data/ at the root of the package, beside input/ (one folder per
 * built-in rule system, each with its scenarios/). A scenario outside it that leaves a data field at
 * its default reads this copy (engine/data-location.ts). `import.meta.dirname` is this folder under
 * Node (20.11 and later) and vitest; the workbench's build has none, and its volume holds the same
 * files at `data/` (web/platform/volume.ts).
 */
export const BUNDLED_DATA_DIRECTORY: string = import.meta.dirname === undefined ? 'data' : path.join(import.meta.dirname, '..', 'data');

/** `reference` as a bundled scenario of `ruleSystem` reads it, from data/<ruleSystem>/scenarios/ (DataFiles.bundled). */
export const bundledDataPath = (ruleSystem: string, reference: string): string => path.join(BUNDLED_DATA_DIRECTORY, ruleSystem, 'scenarios', reference);

/** A bundled path as results record it, the same on every machine: `data/warmaster/armies`. */
export const bundledDataLabel = (file: string): string => ['data', ...path.relative(BUNDLED_DATA_DIRECTORY, file).split('/')].join('/');
