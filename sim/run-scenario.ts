import type { MetricSpec } from '../engine/kernel.js';
import { DEFAULT_MAX_TRIALS } from '../engine/run-limits.js';
import { provenanceOf, type RulesProvenance } from '../input/provenance.js';
import type { LoadedScenario } from '../input/scenario-file.js';
import { scoreStopOf, type ScoreTarget, targetCells } from '../statistics/outcome.js';
import { halfWidths } from '../statistics/precision.js';
import { type MetricSummary, summarize, summarizeExact } from '../statistics/summary.js';
import { Tally } from '../statistics/tally.js';
import type { CheckpointStore, RunIdentity } from './run-identity.js';
import { AUTO_BUDGET, type ExactBudget, exactDistributions } from './exact.js';
import { InProcessExecutor } from './in-process-executor.js';
import { compileSpec, kernelSpecOf, serializeKernelSpec } from './kernel-spec.js';
import { DEFAULT_MONTE_CARLO, drawMethodOf, exactBudgetFor, type Method, type MonteCarloMethod, monteCarloOf } from './methods.js';
import type { FaultInjection, OutcomeTask, ShardExecutor } from './shard-task.js';
import { type RunSnapshot, runSharded, type ShardedRunOptions } from './sharded-run.js';
import { shardCount } from './shards.js';

/**
 * One scenario run, for every face — `crucible run`, the API, the analyses (sweeps, matchups,
 * balance), the workbench's odds: the method (sim/methods.ts, the auto rule), then either the exact
 * distributions of one trial or Monte Carlo on the shards of sim/sharded-run.ts, with its plan (a
 * number of trials; a precision with a cap; a score stop), checkpoint, part of a run, signals and
 * progress. It returns results; the faces word and draw them (cli/, documents/, web/).
 */

export interface ScenarioRunOptions {
  /** Default DEFAULT_MONTE_CARLO (`mc`): a Monte Carlo result; `auto` answers exactly where `exactBudgetFor` says, as `crucible run` does. */
  readonly method?: Method;
  /** Default: the scenario's. */
  readonly seed?: number;
  /** Trials to run (default: the scenario's); with `scoreStop`, the most to run. */
  readonly trials?: number;
  /** Instead of `trials`: run shard by shard until every probability's 95% interval is within ±precision (at most `maxTrials`). */
  readonly precision?: number;
  /** Default DEFAULT_MAX_TRIALS (engine/run-limits.ts). */
  readonly maxTrials?: number;
  /** Only these metrics' intervals decide the precision stop (default: all). */
  readonly precisionMetrics?: readonly string[];
  /** Stop once this side's expected score is within ±halfWidth (at most `trials`): statistics/score-stop.ts. */
  readonly scoreStop?: ScoreTarget;
  /** Default: this thread (an InProcessExecutor). */
  readonly executor?: ShardExecutor;
  /** Resume from this checkpoint if it holds this run's shards, and save to it as the run goes (sim/checkpoint.ts checkpointFile). */
  readonly checkpoint?: CheckpointStore;
  /** Compute shards [start, end) only: a part of the run (`crucible run --shards`; the CLI writes it as a part file for `crucible merge`). */
  readonly part?: readonly [start: number, end: number];
  /** `finish`: start no more shards, keep those running; `drop`: stop waiting for them too. Either ends the run `interrupted`. */
  readonly signals?: { readonly finish?: AbortSignal; readonly drop?: AbortSignal };
  /** Test only: a shard made to fail (sim/shard-task.ts). */
  readonly fault?: FaultInjection;
  /** Called once as the run starts (after a checkpoint is read), then after each shard completes. */
  readonly onProgress?: (progress: ScenarioProgress) => void;
}

/** Options of a run that is Monte Carlo whatever the scenario: its result always has a tally. */
export type MonteCarloRunOptions = ScenarioRunOptions & { readonly method?: MonteCarloMethod };

export interface ScenarioProgress {
  /** Trials of every completed shard, merged or waiting their turn, those read from a checkpoint included. */
  readonly trialsDone: number;
  readonly trialsPlanned: number;
  /** The shards merged in order so far (live: read it now, do not keep it); undefined as the run starts. */
  readonly merged?: Tally;
  /** Under `precision`: the widest 95% half-width the stop rule last saw. */
  readonly widest?: number;
}

/** A Monte Carlo run's result. */
export interface ScenarioResult extends RulesProvenance {
  readonly scenario: string;
  readonly file: string;
  readonly seed: number;
  /** Trials in the tally: the plan's, or where a stop rule held or a signal stopped the run. */
  readonly trials: number;
  readonly metrics: readonly MetricSpec[];
  readonly tally: Tally;
  /** Every metric with its 95% intervals; none for a part of a run (summarized once merged) or a run without trials. */
  readonly summary: readonly MetricSummary[];
  readonly method: MonteCarloMethod;
  /** Under `precision`: the target, the cap, and whether the target was met. */
  readonly precision?: { readonly target: number; readonly maxTrials: number; readonly reached: boolean };
  /** What makes this run this run (its inputs' digest, engine version, method, seed, plan), as a checkpoint or a part file records it. */
  readonly identity: RunIdentity;
  /** Trials read from the checkpoint rather than run now. */
  readonly resumedTrials: number;
  /** Stopped by a signal before its plan was done: the trials whole shards hold (what a checkpoint kept), of those planned. */
  readonly interrupted?: { readonly trialsKept: number; readonly trialsPlanned: number };
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
  readonly method: 'exact';
}

export type ScenarioAnswer = ScenarioResult | ExactScenarioResult;

/** `exact` was asked for a trial with more paths than EXACT_BUDGET: the caller says it in its own words. */
export class TooManyPathsError extends Error {
  override readonly name = 'TooManyPathsError';

  constructor(
    readonly scenario: string,
    readonly budget: ExactBudget,
  ) {
    super(
      `a trial of "${scenario}" has more than ${budget.paths} paths (or ${budget.draws} draws over its paths): too many to enumerate; run it by Monte Carlo (mc)`,
    );
  }
}

/** True when `options` ask for what only sampling has — trials, a precision or score stop, a checkpoint, a part — so that `auto` samples at once. */
export function asksForSampling(options: ScenarioRunOptions): boolean {
  return (
    options.trials !== undefined ||
    options.precision !== undefined ||
    options.scoreStop !== undefined ||
    options.checkpoint !== undefined ||
    options.part !== undefined
  );
}

/** How often a running checkpoint is rewritten (and on the first shard, and at the end). */
const CHECKPOINT_EVERY_MILLISECONDS = 2000;

export function runScenario(loaded: LoadedScenario, options?: MonteCarloRunOptions): Promise<ScenarioResult>;
export function runScenario(loaded: LoadedScenario, options: ScenarioRunOptions): Promise<ScenarioAnswer>;
export async function runScenario(loaded: LoadedScenario, options: ScenarioRunOptions = {}): Promise<ScenarioAnswer> {
  const method = options.method ?? DEFAULT_MONTE_CARLO;
  const { precision, part, checkpoint } = options;
  const sampling = asksForSampling(options);
  if (method === 'exact' && sampling)
    throw new RangeError('exact enumerates every outcome: trials, a precision or score stop, checkpoints and parts are for Monte Carlo');
  if (part !== undefined && (precision !== undefined || options.scoreStop !== undefined || checkpoint !== undefined))
    throw new RangeError('a part of a run has a fixed number of trials: no precision, score stop or checkpoint');
  const budget = exactBudgetFor(method, sampling);
  if (budget !== undefined) {
    const exact = exactScenario(loaded, budget);
    if (exact !== undefined) return exact;
    if (method === 'exact') throw new TooManyPathsError(loaded.scenario.name, budget);
  }
  return monteCarlo(loaded, monteCarloOf(method), options);
}

async function monteCarlo(loaded: LoadedScenario, method: MonteCarloMethod, options: ScenarioRunOptions): Promise<ScenarioResult> {
  const { precision, part, checkpoint, onProgress } = options;
  const seed = options.seed ?? loaded.scenario.seed;
  /** The trials planned; under a precision, the cap. */
  const trials = precision === undefined ? (options.trials ?? loaded.scenario.trials) : (options.maxTrials ?? DEFAULT_MAX_TRIALS);
  const spec = serializeKernelSpec(kernelSpecOf(loaded, drawMethodOf(method)));
  const executor = options.executor ?? new InProcessExecutor();
  const { engineVersion, metrics } = await executor.kernelFacts(spec);
  const identity: RunIdentity = {
    scenarioName: loaded.scenario.name,
    scenarioDigest: spec.digest,
    method,
    engineVersion,
    seed,
    plan: precision === undefined ? { trials } : { precision, maxTrials: trials },
    ...(loaded.plugin === undefined ? {} : { plugin: loaded.plugin }),
  };
  const resumeFrom = checkpoint === undefined ? undefined : await checkpoint.load(identity, metrics);

  const sharded: { -readonly [K in keyof ShardedRunOptions]: ShardedRunOptions[K] } = {};
  if (options.signals?.finish !== undefined) sharded.finishSignal = options.signals.finish;
  if (options.signals?.drop !== undefined) sharded.dropSignal = options.signals.drop;
  if (resumeFrom !== undefined) sharded.resumeFrom = resumeFrom;
  if (part !== undefined) sharded.shards = part;
  if (options.fault !== undefined) sharded.fault = options.fault;
  if (checkpoint !== undefined) {
    const save = (snapshot: RunSnapshot): Promise<void> => checkpoint.save(identity, snapshot);
    // Written before any trial runs, so an unwritable path fails now rather than at the first save.
    if (resumeFrom === undefined) await save({ completed: [], cells: new Tally(metrics).cells, trials: 0 });
    sharded.checkpoint = { save, everyMilliseconds: CHECKPOINT_EVERY_MILLISECONDS };
  }
  let widest: number | undefined;
  if (precision !== undefined) {
    const only = options.precisionMetrics;
    sharded.stopWhen = (tally) => {
      const widths = halfWidths(tally);
      widest = only === undefined ? widths.widest : Math.max(0, ...only.map((name) => widths.byMetric[name] ?? 0));
      return widest <= precision;
    };
  }
  if (options.scoreStop !== undefined) sharded.scoreStop = scoreStopOf(metrics, options.scoreStop, loaded.file);
  if (onProgress !== undefined) {
    sharded.onProgress = ({ trialsDone, trialsPlanned, merged }) =>
      onProgress({ trialsDone, trialsPlanned, merged, ...(widest === undefined ? {} : { widest }) });
    onProgress({ trialsDone: resumeFrom?.trials ?? 0, trialsPlanned: trials });
  }

  // A slice of a batch array may hold no shard at all (more jobs than shards): its part is empty.
  const emptyPart = part !== undefined && part[0] >= part[1];
  const outcome = emptyPart
    ? { tally: new Tally(metrics), interrupted: false, stopRuleMet: false, keptTrials: 0 }
    : await runSharded(executor, { spec, metrics, seed, trials }, sharded);
  const { tally } = outcome;
  return {
    scenario: loaded.scenario.name,
    file: loaded.file,
    ...provenanceOf(loaded),
    seed,
    trials: tally.trials,
    metrics,
    tally,
    // A part is summarized by `crucible merge` once whole.
    summary: part !== undefined || tally.trials === 0 ? [] : summarize(tally),
    method,
    ...(precision === undefined ? {} : { precision: { target: precision, maxTrials: trials, reached: outcome.stopRuleMet } }),
    identity,
    resumedTrials: resumeFrom?.trials ?? 0,
    ...(outcome.interrupted ? { interrupted: { trialsKept: outcome.keptTrials, trialsPlanned: trials } } : {}),
  };
}

/** A run read for one side's wins and losses only: what every seated game of an analysis is (analysis/seated.ts). */
export interface OutcomeRunOptions {
  readonly seed: number;
  readonly trials: number;
  /** The side counted; with `halfWidth`, the run stops once its score is within ±halfWidth, as runScenario's `scoreStop`. */
  readonly target: OutcomeTask['target'];
  readonly method?: MonteCarloMethod;
  /** Default: this thread. */
  readonly executor?: ShardExecutor;
}

export interface OutcomeCounts {
  readonly wins: number;
  readonly losses: number;
  readonly trials: number;
}

/**
 * The side's wins and losses of a Monte Carlo run: exactly those of runScenario's tally with the
 * same seed, trials and stop rule. A run of one shard goes to the executor as one OutcomeTask
 * (batched with the analysis's other runs, no kernel facts asked first, nothing summarised); a
 * longer one, or on an executor that takes no OutcomeTasks (a queue), is a runScenario.
 */
export async function runForOutcome(loaded: LoadedScenario, options: OutcomeRunOptions): Promise<OutcomeCounts> {
  const { seed, trials, target } = options;
  const method = options.method ?? DEFAULT_MONTE_CARLO;
  const executor = options.executor ?? new InProcessExecutor();
  if (executor.runOutcome === undefined || shardCount(trials) !== 1) {
    const { halfWidth } = target;
    const result = await runScenario(loaded, {
      method,
      seed,
      trials,
      executor,
      ...(halfWidth === undefined ? {} : { scoreStop: { ...target, halfWidth } }),
    });
    const { winCell, lossCell } = targetCells(result.metrics, target, loaded.file);
    return { wins: result.tally.cells[winCell] ?? 0, losses: result.tally.cells[lossCell] ?? 0, trials: result.trials };
  }
  const specJson = JSON.stringify(kernelSpecOf(loaded, drawMethodOf(method)));
  const counted = await executor.runOutcome({ specJson, seed, trials, target });
  if ('metrics' in counted) {
    // The kernel has no such metric or label: said as runScenario's stop rule says it.
    targetCells(counted.metrics, target, loaded.file);
    throw new Error(`internal error: the worker found no cells for ${JSON.stringify(target)}, which ${loaded.file}'s metrics have`);
  }
  return { wins: counted.wins, losses: counted.losses, trials: counted.trials };
}

/**
 * The exact distributions of a scenario whose trial fits `budget` (default: what the auto method
 * tries — a single attack, round, volley or rally), or undefined when it is a chain with too many
 * paths (run it by Monte Carlo instead). Enumerated on this thread.
 */
export function exactScenario(loaded: LoadedScenario, budget: ExactBudget = AUTO_BUDGET): ExactScenarioResult | undefined {
  const kernel = compileSpec(kernelSpecOf(loaded, drawMethodOf('exact')));
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
    method: 'exact',
  };
}
