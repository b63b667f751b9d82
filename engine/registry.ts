import { ARMIES_FILE_NAMES } from './epic/data-files.js';
import { UNITS_FILE_NAMES } from './heroic/data-files.js';
import type { RuleSystem } from './rule-system.js';
import { ALLIES_FILE_NAMES, COMBAT_FLAGS_FILE_NAMES } from './warmaster/data-files.js';

/**
 * A built-in rule system as the registry lists it: its id, and its descriptor loaded on demand, so
 * that a command loads the schemas and code of the rule system its scenario names and of no other
 * (zod schemas, loaders and kernels are most of a short run's start-up).
 */
export interface BuiltInRuleSystem {
  /** The `ruleset:` a scenario names it by: its descriptor's `id` (test/project/registry.test.ts checks they agree). */
  readonly id: string;
  /**
   * The `names` of its descriptor's data-file formats (those told by name), known without loading
   * it: a command tells a data file from a scenario by its name before reading it.
   */
  readonly dataFileNames?: readonly RegExp[];
  /** Its folder's index.ts: the module exporting the descriptor. */
  readonly module: () => Promise<{ readonly default: RuleSystem }>;
}

/**
 * The built-in rule systems: the one list sim/, analysis/, cli/ and reports/ reach them through.
 * A scenario may instead name a plugin by module path or package (`ruleset: ./rules/my-game.ts`),
 * which joins at load time through the same RuleSystem interface (input/rule-systems.ts).
 * Adding a built-in: its folder under engine/, exporting its descriptor, and one line here.
 */
export const BUILT_IN_RULE_SYSTEMS: readonly BuiltInRuleSystem[] = [
  { id: 'heroic', dataFileNames: [UNITS_FILE_NAMES], module: () => import('./heroic/index.js') },
  { id: 'warmaster', dataFileNames: [COMBAT_FLAGS_FILE_NAMES, ALLIES_FILE_NAMES], module: () => import('./warmaster/index.js') },
  { id: 'battleforge', module: () => import('./battleforge/index.js') },
  { id: 'epic', dataFileNames: [ARMIES_FILE_NAMES], module: () => import('./epic/index.js') },
];

const loaded = new Map<BuiltInRuleSystem, Promise<RuleSystem>>();

/**
 * A built-in's descriptor, its module imported on first use and the promise kept: an analysis
 * resolves the ruleset of every seated scenario, and each import() of a loaded module still goes to
 * the module loader (under tsx, a round trip to its hooks thread: ~0.5 ms).
 */
export function loadBuiltIn(entry: BuiltInRuleSystem): Promise<RuleSystem> {
  let descriptor = loaded.get(entry);
  if (descriptor === undefined) {
    descriptor = entry.module().then((module) => module.default);
    loaded.set(entry, descriptor);
  }
  return descriptor;
}

/** Every built-in's descriptor, in the registry's order: for what needs them all (`crucible schema`, the docs, the shared test suites). */
export const loadBuiltInRuleSystems = (): Promise<readonly RuleSystem[]> => Promise.all(BUILT_IN_RULE_SYSTEMS.map(loadBuiltIn));
