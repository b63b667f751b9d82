/**
 * crucible's TypeScript API: what the commands do, as functions (the CLI is a thin layer over
 * these; notebooks import them). Load a scenario, run it, compare variants on common random
 * numbers, sweep fields, play a roster's matchups, fit point costs, and print tables.
 *
 * @example
 *   import path from 'node:path';
 *   import { BUNDLED_DATA, loadScenarioFile, runScenario } from 'crucible-lab';
 *   const loaded = await loadScenarioFile(path.join(BUNDLED_DATA, 'heroic/scenarios/sylvan-knights-formation.yaml'));
 *   const result = await runScenario(loaded, { trials: 100_000 });
 *   console.log(result.summary.find((metric) => metric.name === 'winner'));
 *   // A single action has an exact answer (undefined for a chain):
 *   console.log(exactScenario(loaded)?.summary.find((metric) => metric.name === 'winner'));
 */
import { installNodePlatform } from './input/node-platform.js';

// The library reads the file system and imports plugins and kernel modules as Node does (input/platform.ts).
installNodePlatform();

export { loadScenarioChanged, loadScenarioData, loadScenarioFile, type LoadedScenario, type LoadOptions } from './input/scenario-file.js';
// A scenario's plugin module runs only if the caller trusts it: `loadScenarioFile(file, { plugins: trustPlugins(['./rules/my-game.ts']) })`.
export { BUILT_INS_ONLY, readConfigTrust, trustPlugins, type TrustedPlugins } from './input/plugin-trust.js';
export { ShardPool } from './sim/shard-pool.js';
export { InProcessExecutor } from './sim/in-process-executor.js';
export { type ExactScenarioResult, exactScenario, runScenario, type ScenarioResult, type ScenarioRunOptions } from './sim/run-scenario.js';
export { AUTO_BUDGET, EXACT_BUDGET, type ExactBudget } from './sim/exact.js';
export { AS_WRITTEN, compareVariants, type ComparisonResult, type CompareOptions } from './analysis/compare.js';
export { comparePaired, type PairedChannelComparison } from './statistics/paired.js';
export { sweep, type SweepAxis, type SweepPoint } from './analysis/sweep.js';
export { compareDocument, compareDocumentSchema } from './documents/compare-document.js';
export { sweepDocument, sweepDocumentSchema, sweepTable } from './documents/sweep-document.js';
export { fieldLabel } from './input/field-labels.js';
export { matchupsDocument, matchupsDocumentSchema } from './documents/matchups-document.js';
export { balanceDocumentSchema, countBalanceDocument, wholeBalanceDocument } from './documents/balance-document.js';
export { loadRoster, type LoadedRoster, type Roster } from './input/roster.js';
export { matchups, type MatchupCell, type MatchupOptions, type MatchupsResult, SEATINGS, type Seating } from './analysis/matchups.js';
export { combineOutcomes, mixOutcomes, type Outcome, outcomeFromCounts } from './statistics/outcome.js';
export { balance, type BalanceOptions } from './documents/balance.js';
export { countCosts, type CountCostOptions, type CountCosts } from './analysis/count-costs.js';
export { wholeUnitCosts, type WholeUnitCosts } from './analysis/whole-unit-costs.js';
export { parseTolerance, type PriceVerdict, priceVerdict, type Tolerance } from './analysis/price-verdict.js';
export { fitDavidson, type DavidsonFit } from './statistics/davidson.js';
export { formatTable, matrixTable, rulebookPercent, tableOf } from './documents/tables.js';
export { writeTable } from './documents/table-files.js';
export { summarize, type MetricSummary } from './statistics/summary.js';

// Writing a rule system (docs/plugins.md, examples/homebrew/README.md): the descriptor, the kernel
// contract, the dice, and the built-ins listed the same way.
export {
  type DataFiles,
  defineRuleSystem,
  type KernelModule,
  type LoadResult,
  type Problem,
  type RuleSystem,
  type ScenarioBase,
  type SchemaFile,
} from './engine/rule-system.js';
export { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel, type MetricSpec, type TraceSink } from './engine/kernel.js';
export { applyOverrides, mergeOverride } from './engine/overrides.js';
export { StateLayout } from './engine/state-layout.js';
export * as dice from './engine/dice/index.js';
export { BUILT_IN_RULE_SYSTEMS, type BuiltInRuleSystem, loadBuiltInRuleSystems } from './engine/registry.js';
export { provenanceOf, type RulesProvenance } from './input/provenance.js';

// What the notebooks (notebooks/) use besides the above: the bundled data wherever crucible is
// installed, words for fields and metrics, matchup outcomes, and the price list's summaries.
// Report pages and charts are the entry point crucible-lab/reports (reports.ts); writing a rule
// system, crucible-lab/plugin (plugin.ts).
export { BUNDLED_DATA, CRUCIBLE_VERSION } from './input/package-info.js';
export { capitalized, type FieldLabel, metricTitle, words } from './input/field-labels.js';
export { outcomeOf } from './statistics/outcome.js';
export { costText, medianIntervalWidth, verdictCounts } from './documents/balance-tables.js';
