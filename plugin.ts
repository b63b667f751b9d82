/**
 * Writing a rule system of your own (docs/plugins.md; examples/homebrew is a complete one): the
 * descriptor and its parts, the kernel contract, the seeded dice and their exact outcome tables,
 * and the helpers for a scenario's `units:` changes. Only the engine — no file reading, no zod
 * schemas of the built-ins — so a kernel module importing it stays light in every worker thread.
 *
 * @example
 *   import { defineRuleSystem, type Kernel, OutcomeTable } from 'crucible-lab/plugin';
 */
export {
  type Choice,
  type DataFileFormat,
  type DataFiles,
  defineRuleSystem,
  type FieldChoices,
  type KernelModule,
  type LoadResult,
  type ParsedFile,
  type Problem,
  type RuleSystem,
  type ScenarioBase,
  type SchemaFile,
  schemaCheck,
} from './engine/rule-system.js';
export { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel, type MetricKind, type MetricSpec, type TraceSink } from './engine/kernel.js';
export { applyOverrides, mergeOverride } from './engine/overrides.js';
export { StateLayout } from './engine/state-layout.js';
export * from './engine/dice/index.js';
export { runFields, scenarioHeading } from './engine/scenario-base.js';
export {
  type DocTable,
  defineExamples,
  type ExampleScenario,
  type FieldPath,
  type RuleSystemExamples,
} from './engine/rule-system-examples.js';
