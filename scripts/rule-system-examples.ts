import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { RuleSystem } from '../engine/rule-system.js';
import type { RuleSystemExamples } from '../engine/rule-system-examples.js';
import { loadBuiltInRuleSystems } from '../engine/registry.js';

/**
 * The `examples.ts` of each rule system (engine/rule-system-examples.ts), found through the
 * registry: engine/<id>/examples.ts for every entry of engine/registry.ts. What the shared test
 * suites, scripts/docs-tables.ts and scripts/scenarios.ts iterate instead of lists of their own.
 */

/** This repository's root (a copy's, for a copy of this script). */
export const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface FolderExamples {
  /** The rule system's folder (engine/<id>/, or a plugin's), absolute. */
  readonly home: string;
  readonly examples: RuleSystemExamples;
  /** A file the examples name (relative to their `folder`), as an absolute path. */
  file(relative: string): string;
}

export interface BuiltInExamples extends FolderExamples {
  readonly system: RuleSystem;
}

/** The examples.ts of the rule system in `home`. */
export async function examplesIn(home: string): Promise<FolderExamples> {
  const module = path.join(home, 'examples.ts');
  let examples: RuleSystemExamples | undefined;
  try {
    examples = ((await import(pathToFileURL(module).href)) as { default?: RuleSystemExamples }).default;
  } catch (error) {
    throw new Error(
      `${path.relative(REPOSITORY, module)}: cannot be imported (every rule system of engine/registry.ts has one: engine/rule-system-examples.ts): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (examples?.folder === undefined)
    throw new Error(
      `${path.relative(REPOSITORY, module)}: its default export is not a rule system's examples (defineExamples, engine/rule-system-examples.ts)`,
    );
  const folder = examples.folder;
  return { home, examples, file: (relative) => fileURLToPath(new URL(relative, folder)) };
}

/** Every built-in's examples, in the registry's order. */
export const builtInExamples = async (): Promise<BuiltInExamples[]> =>
  Promise.all(
    (await loadBuiltInRuleSystems()).map(async (system) => ({ system, ...(await examplesIn(path.join(REPOSITORY, 'engine', system.id))) })),
  );
