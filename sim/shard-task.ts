import { StreamDice } from '../engine/dice/index.js';
import type { Kernel } from '../engine/kernel.js';
import { runWithDice } from './run.js';
import { SCORE_STOP_EVERY, type ScoreStop, scoreStopMet } from '../statistics/score-stop.js';
import type { StreamCursor } from './stream-cursor.js';
import { Tally } from '../statistics/tally.js';

/**
 * One shard as a unit of work: what is sent to whoever runs it (a worker thread or the main
 * thread) and what comes back. The result is the shard's histogram cells only — the caller knows
 * the kernel, the shard and its trial count — so a worker returns one buffer.
 */
export interface ShardTask {
  /** `SerializedKernelSpec.json`, and its digest as the key of the worker's kernel cache. */
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
 * it stall for STALL_MILLISECONDS first (a run that cannot end before a test interrupts it).
 */
export interface FaultInjection {
  readonly shard: number;
  readonly kind: 'throw' | 'exit' | 'stall';
  readonly failures: number;
}

/** How long a `stall` fault holds its shard: far longer than a test takes to send a signal. */
export const STALL_MILLISECONDS = 3000;

/** Waits out a `stall` fault; true when `fault` is one (it then runs as usual). */
export async function stallFor(fault: FaultInjection | undefined): Promise<boolean> {
  if (fault?.kind !== 'stall') return false;
  await new Promise((resolve) => setTimeout(resolve, STALL_MILLISECONDS));
  return true;
}

/** Runs shards somewhere: on the main thread, or on a pool of worker threads. */
export interface ShardExecutor {
  /** Worker threads running shards; 0 when they run on the main thread. */
  readonly workers: number;
  run(task: ShardTask): Promise<ShardResult>;
  /** Drop shards not started yet (a stop rule was met); their runs reject. Where shards queue up (queue/queue-executor.ts). */
  cancelPending?(): void;
  /** Shards best started together (runSharded waits until this many can start, where shards queue up). */
  readonly batchShards?: number;
  /** Who is running the shards, for the progress line (e.g. "3 workers: …"), where that changes. */
  status?(): string;
  /** Why the run cannot go on here (a queue no worker can serve, a full Redis), once that is so: not a bug, a setting to change. */
  unusable?(): string | undefined;
  /** Stop accepting work; waits for running shards unless `force`. */
  close(force: boolean): Promise<void>;
}

/**
 * Run shard `shard` of `seed` on this thread. Same trials, same stream as `runTrials`'s shard k.
 * `storage` allocates the tally's cells (shared memory in a worker, see Tally). With `stop`, the
 * trials run in blocks of SCORE_STOP_EVERY until the rule is met: the first n trials of the shard.
 */
export function runShard(
  kernel: Kernel,
  cursor: StreamCursor,
  seed: number,
  shard: number,
  trials: number,
  storage?: (size: number) => Float64Array,
  stop?: ScoreStop,
): ShardResult {
  const dice = new StreamDice(cursor.generatorAt(seed, shard));
  const tally = new Tally(kernel.metrics, storage);
  const started = performance.now();
  if (stop === undefined) runWithDice(kernel, dice, trials, tally);
  else {
    while (tally.trials < trials && !scoreStopMet(tally.cells, tally.trials, stop)) runWithDice(kernel, dice, Math.min(SCORE_STOP_EVERY, trials - tally.trials), tally);
  }
  return { cells: tally.cells, trials: tally.trials, loopMilliseconds: performance.now() - started };
}

/** The fault `task` should suffer now, if any. */
export function faultFor(task: ShardTask): FaultInjection | undefined {
  const fault = task.fault;
  return fault !== undefined && fault.shard === task.shard && task.attempt <= fault.failures ? fault : undefined;
}
