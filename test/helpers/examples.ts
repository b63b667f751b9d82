import type { ExampleScenario } from '../../engine/rule-system-examples.js';
import { type LoadedScenario, loadScenarioChanged } from '../../input/scenario-file.js';
import { type BuiltInExamples, builtInExamples } from '../../scripts/rule-system-examples.js';

/**
 * Every built-in rule system with the samples its folder exports (engine/<id>/examples.ts), in the
 * registry's order: what the shared suites iterate, so a rule system added to engine/registry.ts
 * is checked by each of them with nothing added to the tests.
 */
export const BUILT_IN_EXAMPLES: readonly BuiltInExamples[] = await builtInExamples();
export type { BuiltInExamples } from '../../scripts/rule-system-examples.js';

/**
 * An example scenario, loaded as its rule system's whatever its `ruleset:` names (the example
 * plugin's scenarios name its module, and read the same once it is installed as a built-in).
 */
export const loadExample = (found: BuiltInExamples, example: ExampleScenario): Promise<LoadedScenario> =>
  loadScenarioChanged(found.file(example.file), { fields: [['ruleset', found.system.id], ...(example.set ?? [])] });
