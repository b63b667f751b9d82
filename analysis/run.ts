import { DEFAULT_DRAW_METHOD, type DrawMethod, type MetricSpec } from '../engine/kernel.js';
import { provenanceOf, type RulesProvenance } from '../input/provenance.js';
import { AUTO_BUDGET, type ExactBudget, exactDistributions } from '../sim/exact.js';
import { InProcessExecutor } from '../sim/in-process-executor.js';
import { compileSpec, kernelSpecOf, serializeKernelSpec } from '../sim/kernel-spec.js';
import type { LoadedScenario } from '../input/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { runSharded } from '../sim/sharded-run.js';
import type { Tally } from '../statistics/tally.js';
import { scoreStopOf, type ScoreTarget } from '../statistics/outcome.js';
import { halfWidths } from '../statistics/precision.js';
import { type MetricSummary, summarize, summarizeExact } from '../statistics/summary.js';

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
  /** Outcomes drawn from exact tables (default) or every die rolled: the same distributions. */
  readonly method?: DrawMethod;
  /** Stop once this side's expected score is within ±halfWidth (at most `trials`): statistics/score-stop.ts. */
  readonly scoreStop?: ScoreTarget;
}

export interface ScenarioResult extends RulesProvenance {
  readonly scenario: string;
  readonly file: string;
  readonly seed: number;
  readonly trials: number;
  readonly metrics: readonly MetricSpec[];
  readonly tally: Tally;
  readonly summary: readonly MetricSummary[];
}

const DEFAULT_MAX_TRIALS = 100_000_000;

export async function runScenario(loaded: LoadedScenario, options: ScenarioRunOptions = {}): Promise<ScenarioResult> {
  const spec = kernelSpecOf(loaded, options.method ?? DEFAULT_DRAW_METHOD);
  const kernel = compileSpec(spec);
  const seed = options.seed ?? loaded.scenario.seed;
  const precision = options.precision;
  const trials = precision === undefined ? (options.trials ?? loaded.scenario.trials) : (options.maxTrials ?? DEFAULT_MAX_TRIALS);
  const executor = options.executor ?? new InProcessExecutor();
  const only = options.precisionMetrics;
  const outcome = await runSharded(
    executor,
    { spec: serializeKernelSpec(spec), metrics: kernel.metrics, seed, trials },
    {
      ...(precision === undefined
        ? {}
        : {
            stopWhen: (tally: Tally) => {
              const widths = halfWidths(tally);
              const relevant = only === undefined ? [widths.widest] : only.map((name) => widths.byMetric[name] ?? 0);
              return Math.max(0, ...relevant) <= precision;
            },
          }),
      ...(options.scoreStop === undefined ? {} : { scoreStop: scoreStopOf(kernel.metrics, options.scoreStop, loaded.file) }),
    },
  );
  return {
    scenario: loaded.scenario.name,
    file: loaded.file,
    ...provenanceOf(loaded),
    seed,
    trials: outcome.tally.trials,
    metrics: kernel.metrics,
    tally: outcome.tally,
    summary: summarize(outcome.tally),
  };
}

/** A scenario evaluated exactly: every path of one trial enumerated (sim/exact.ts). */
export interface ExactScenarioResult extends RulesProvenance {
  readonly scenario: string;
  readonly file: string;
  readonly metrics: readonly MetricSpec[];
  /** Per metric, P(value = v) for v = 0..max. */
  readonly probabilities: readonly Float64Array[];
  readonly paths: number;
  /** Bound on every probability's absolute float64 error. */
  readonly errorBound: number;
  readonly summary: readonly MetricSummary[];
}

/**
 * The exact distributions of a scenario whose trial fits `budget` (default: what `crucible run`'s
 * auto method tries — a single attack, round, volley or rally), or undefined when it is a chain
 * with too many paths (run it by Monte Carlo instead).
 */
export function exactScenario(loaded: LoadedScenario, budget: ExactBudget = AUTO_BUDGET): ExactScenarioResult | undefined {
  const kernel = compileSpec(kernelSpecOf(loaded, 'tables'));
  const exact = exactDistributions(kernel, budget);
  if (exact === undefined) return undefined;
  return {
    scenario: loaded.scenario.name,
    file: loaded.file,
    ...provenanceOf(loaded),
    metrics: kernel.metrics,
    probabilities: exact.probabilities,
    paths: exact.paths,
    errorBound: exact.errorBound,
    summary: summarizeExact(kernel.metrics, exact.probabilities),
  };
}
