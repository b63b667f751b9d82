import type { MetricSpec } from '../engine/kernel.js';
import type { SerializedKernelSpec } from './kernel-spec.js';
import type { ScoreStop } from '../statistics/score-stop.js';
import type { ScoreTarget } from '../statistics/outcome.js';

/**
 * One shard as a unit of work: what is sent to whoever runs it (a worker thread or the main
 * thread) and what comes back. The result is the shard's histogram cells only — the caller knows
 * the kernel, the shard and its trial count — so a worker returns one buffer.
 */
export interface ShardTask {
  /** `SerializedKernelSpec.json`, and its digest as the key of the kernel cache (sim/shard-runner.ts). */
  readonly specJson: string;
  readonly specDigest: string;
  readonly seed: number;
  readonly shard: number;
  readonly trials: number;
  /** 1 for the first try, 2 for the retry: lets a test fault fire on the first try only. */
  readonly attempt: number;
  readonly fault?: FaultInjection;
  /** Stop the shard early once this score is precise enough (a run of one shard only: statistics/score-stop.ts). */
  readonly stop?: ScoreStop;
}

export interface ShardResult {
  /** The shard's Tally cells (from a worker: in shared memory, handed over without a copy). */
  readonly cells: Float64Array;
  /** Trials run: the task's, or fewer when its `stop` rule was met. */
  readonly trials: number;
  /** Time spent in the trial loop alone, for the bench's per-shard overhead. */
  readonly loopMilliseconds: number;
}

/**
 * Test-only fault switch: make shard `shard` fail on its first `failures` attempts, either by
 * throwing or by ending its worker thread halfway through the shard (as a crash would), or make
 * it stall for STALL_MILLISECONDS (sim/shard-runner.ts) first (a run that cannot end before a test interrupts it).
 */
export interface FaultInjection {
  readonly shard: number;
  readonly kind: 'throw' | 'exit' | 'stall';
  readonly failures: number;
}

/**
 * What a run must know of its kernel before any shard runs: the metrics (the shape of its tally,
 * a checkpoint's and a part's cells) and the engine version (a checkpoint's identity).
 */
export interface KernelFacts {
  readonly engineVersion: string;
  readonly metrics: readonly MetricSpec[];
}

/**
 * A whole run of one shard (at most SHARD_TRIALS trials, shard 0 of its seed) answered with one side's
 * wins and losses in its win metric: a seated game of an analysis, which reads nothing else of the
 * run. Thousands of them make a matchup matrix, each a millisecond of trials or less, so an executor
 * sends them in batches (one round trip for several runs) and the runs need no kernel facts first:
 * the win and loss cells are found where the kernel is compiled.
 */
export interface OutcomeTask {
  /** `SerializedKernelSpec.json`, also the key of the kernel cache (no digest: a digest costs more than the key is used). */
  readonly specJson: string;
  readonly seed: number;
  readonly trials: number;
  /** The side whose wins and losses are counted; with `halfWidth`, the run stops once its score is that precise (statistics/score-stop.ts). */
  readonly target: Omit<ScoreTarget, 'halfWidth'> & { readonly halfWidth?: number | undefined };
}

export type OutcomeResult =
  | {
      readonly wins: number;
      readonly losses: number;
      /** Trials run: the task's, or fewer when its score was precise enough. */
      readonly trials: number;
      /** Time spent in the trial loop alone. */
      readonly loopMilliseconds: number;
    }
  /** The kernel has no such metric or labels: its metrics, for the caller to say what is wrong (statistics/outcome.ts). */
  | { readonly metrics: readonly MetricSpec[] };

/** Runs shards somewhere: on the main thread, or on a pool of worker threads. */
export interface ShardExecutor {
  /** Worker threads running shards; 0 when they run on the main thread. */
  readonly workers: number;
  run(task: ShardTask): Promise<ShardResult>;
  /**
   * The facts of a spec's kernel, from where the executor compiles kernels anyway (a worker's
   * cache, this thread's): the run needs them first, and the main thread need not compile too.
   */
  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts>;
  /** Drop shards not started yet (a stop rule was met); their runs reject. Where shards queue up (queue/queue-executor.ts). */
  cancelPending?(): void;
  /** Shards best started together (runSharded waits until this many can start, where shards queue up). */
  readonly batchShards?: number;
  /** Who is running the shards, for the progress line (e.g. "3 workers: …"), where that changes. */
  status?(): string;
  /** Why the run cannot go on here (a queue no worker can serve, a full Redis), once that is so: not a bug, a setting to change. */
  unusable?(): string | undefined;
  /**
   * Run one OutcomeTask; an executor that has this batches them (sim/shard-pool.ts). Without it, a
   * seated game is a run like any other (runScenario).
   */
  runOutcome?(task: OutcomeTask): Promise<OutcomeResult>;
  /** OutcomeTasks worth having in flight at once to keep every worker busy (default twice the workers). */
  readonly outcomesInFlight?: number | undefined;
  /** Stop accepting work; waits for running shards unless `force`. */
  close(force: boolean): Promise<void>;
}
