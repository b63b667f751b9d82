import type { MetricSpec } from '../engine/kernel.js';
import { InProcessExecutor } from '../sim/in-process-executor.js';
import { compileSpec, kernelSpecOf, serializeKernelSpec } from '../sim/kernel-spec.js';
import type { LoadedScenario } from '../sim/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { runSharded } from '../sim/sharded-run.js';
import type { Tally } from '../sim/tally.js';
import { halfWidths } from './precision.js';
import { type MetricSummary, summarize } from './summary.js';

/**
 * One scenario run, as the analysis functions (sweeps, matchups, balance) need it: a tally and its
 * summary, on any executor — the caller's worker pool, reused across many scenarios, or this thread.
 * A fixed number of trials, or `precision`: run shard by shard until every probability's 95%
 * interval is within ±precision (at most `maxTrials`).
 */
export interface ScenarioRunOptions {
  readonly seed?: number;
  readonly trials?: number;
  readonly precision?: number;
  readonly maxTrials?: number;
  readonly executor?: ShardExecutor;
  /** Only these metrics' intervals decide the precision stop (default: all). */
  readonly precisionMetrics?: readonly string[];
}

export interface ScenarioResult {
  readonly scenario: string;
  readonly file: string;
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly seed: number;
  readonly trials: number;
  readonly metrics: readonly MetricSpec[];
  readonly tally: Tally;
  readonly summary: readonly MetricSummary[];
}

const DEFAULT_MAX_TRIALS = 100_000_000;

export async function runScenario(loaded: LoadedScenario, options: ScenarioRunOptions = {}): Promise<ScenarioResult> {
  const spec = kernelSpecOf(loaded);
  const kernel = compileSpec(spec);
  const seed = options.seed ?? loaded.scenario.seed;
  const precision = options.precision;
  const trials = precision === undefined ? (options.trials ?? loaded.scenario.trials) : (options.maxTrials ?? DEFAULT_MAX_TRIALS);
  const executor = options.executor ?? new InProcessExecutor();
  const only = options.precisionMetrics;
  const outcome = await runSharded(
    executor,
    { spec: serializeKernelSpec(spec), metrics: kernel.metrics, seed, trials },
    precision === undefined
      ? {}
      : {
          stopWhen: (tally) => {
            const widths = halfWidths(tally);
            const relevant = only === undefined ? [widths.widest] : only.map((name) => widths.byMetric[name] ?? 0);
            return Math.max(0, ...relevant) <= precision;
          },
        },
  );
  return {
    scenario: loaded.scenario.name,
    file: loaded.file,
    ruleset: kernel.ruleset,
    engineVersion: kernel.engineVersion,
    seed,
    trials: outcome.tally.trials,
    metrics: kernel.metrics,
    tally: outcome.tally,
    summary: summarize(outcome.tally),
  };
}
