import path from 'pathe';
import { platform } from './platform.js';

/**
 * Where crucible's own data is: data/ at the root of the package (one folder per built-in rule
 * system, each with its scenarios/), as the platform says — beside the code in a clone or an
 * installed package (input/package-info.ts), at data/ in the workbench's volume. A scenario outside
 * it that leaves a data field at its default reads this copy (engine/data-location.ts).
 */
export const bundledDataDirectory = (): string => platform().bundledData;

/** `reference` as a bundled scenario of `ruleSystem` reads it, from data/<ruleSystem>/scenarios/ (DataFiles.bundled). */
export const bundledDataPath = (ruleSystem: string, reference: string): string =>
  path.join(bundledDataDirectory(), ruleSystem, 'scenarios', reference);

/** A bundled path as results record it, the same on every machine: `data/warmaster/armies`. */
export const bundledDataLabel = (file: string): string => ['data', ...path.relative(bundledDataDirectory(), file).split('/')].join('/');
