/**
 * crucible's TypeScript API: what the commands do, as functions (the CLI is a thin layer over
 * these; notebooks import them). Load a scenario, run it, compare variants on common random
 * numbers, sweep fields, play a roster's matchups, fit point costs, and print tables.
 *
 * @example
 *   import { loadScenarioFile, runScenario } from 'crucible';
 *   const loaded = await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml');
 *   const result = await runScenario(loaded, { trials: 100_000 });
 *   console.log(result.summary.find((metric) => metric.name === 'winner'));
 *   // A single action has an exact answer (undefined for a chain):
 *   console.log(exactScenario(loaded)?.summary.find((metric) => metric.name === 'winner'));
 */
export { loadScenarioChanged, loadScenarioData, loadScenarioFile, type LoadedScenario } from './sim/scenario-file.js';
export { ShardPool } from './sim/shard-pool.js';
export { InProcessExecutor } from './sim/in-process-executor.js';
export { type ExactScenarioResult, exactScenario, runScenario, type ScenarioResult, type ScenarioRunOptions } from './analysis/run.js';
export { AUTO_BUDGET, EXACT_BUDGET, type ExactBudget } from './sim/exact.js';
export { AS_WRITTEN, compareVariants, type ComparisonResult, type CompareOptions } from './analysis/compare.js';
export { comparePaired, type PairedChannelComparison } from './analysis/paired.js';
export { sweep, sweepTable, type SweepAxis, type SweepPoint } from './analysis/sweep.js';
export { loadRoster, type LoadedRoster, type Roster } from './analysis/roster.js';
export { matchups, type MatchupCell, type MatchupOptions } from './analysis/matchups.js';
export { balance, BALANCE_TARGETS, type BalanceOptions, type BalanceResult } from './analysis/balance.js';
export { formatTable, matrixTable, rulebookPercent, tableOf, writeTable } from './analysis/tables.js';
export { summarize, type MetricSummary } from './analysis/summary.js';
