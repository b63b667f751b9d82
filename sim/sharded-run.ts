import type { MetricSpec } from '../engine/kernel.js';
import type { SerializedKernelSpec } from './kernel-spec.js';
import type { FaultInjection, ShardExecutor, ShardResult } from './shard-task.js';
import { firstTrialOf, rangesOf, type ShardRanges, shardCount, trialsInShard } from './shards.js';
import { type ScoreStop, scoreStopMet } from '../statistics/score-stop.js';
import { Tally } from '../statistics/tally.js';

/**
 * A run as shards handed to an executor (a worker pool or the main thread), merged strictly in
 * shard order. In-order merging is what makes a stop rule (`--precision`) reproducible: whichever
 * worker finishes first, the rule sees the tallies of shards 0…k, in that order, and stops at the
 * same k. Shards that finish early wait in a small buffer; dispatch never runs further ahead than
 * `aheadLimit` shards past the next one to merge, so memory stays constant however long the run.
 *
 * A shard that fails (its worker threw or died) is retried once, alone; its partial work is never
 * merged, because only a whole shard's returned tally is. A second failure ends the run with a
 * ShardFailedError after everything completed so far is saved.
 */

export interface ShardedRunPlan {
  readonly spec: SerializedKernelSpec;
  readonly metrics: readonly MetricSpec[];
  readonly seed: number;
  /** Trials to run; with `stopWhen`, the most trials to run. */
  readonly trials: number;
}

/** Completed work from a checkpoint: the summed cells of the shards listed in `completed`. */
export interface ResumePoint {
  readonly completed: ShardRanges;
  readonly cells: Float64Array;
  readonly trials: number;
}

export interface RunProgress {
  /** Trials of every completed shard, merged or waiting for their turn. */
  readonly trialsDone: number;
  readonly trialsPlanned: number;
  /** The shards merged in order so far: the run's tally, live (read it now, do not keep it). */
  readonly merged: Tally;
}

/** What a checkpoint saves: whole shards only, and their summed cells. */
export interface RunSnapshot {
  readonly completed: ShardRanges;
  readonly cells: Float64Array;
  readonly trials: number;
}

export interface ShardedRunOptions {
  /** Called on the merged tally after each shard, in shard order; true stops the run there. */
  readonly stopWhen?: (tally: Tally) => boolean;
  /**
   * Stop once a score is precise enough (statistics/score-stop.ts): inside the shard, trial block by trial
   * block, when the run is one shard; else, like `stopWhen`, after each shard merged in order.
   */
  readonly scoreStop?: ScoreStop;
  readonly resumeFrom?: ResumePoint;
  readonly onProgress?: (progress: RunProgress) => void;
  readonly checkpoint?: { readonly save: (snapshot: RunSnapshot) => Promise<void>; readonly everyMilliseconds: number };
  /** Once aborted: start no more shards, let running ones finish, save, return `interrupted`. */
  readonly finishSignal?: AbortSignal;
  /** Once aborted: stop waiting for running shards too (their work is dropped). */
  readonly dropSignal?: AbortSignal;
  readonly fault?: FaultInjection;
  /** Run shards [start, end) only: one part of a run computed apart (`crucible run --shards`, merged by `crucible merge`). */
  readonly shards?: readonly [start: number, end: number];
}

export interface ShardedRunOutcome {
  readonly tally: Tally;
  /** Stopped by a signal before the planned trials (or the stop rule) were reached. */
  readonly interrupted: boolean;
  /** `stopWhen` held (after `tally.trials` trials). */
  readonly stopRuleMet: boolean;
  /** Trials of the whole shards a checkpoint keeps: `tally.trials`, plus (without a stop rule) shards that finished out of order. */
  readonly keptTrials: number;
}

export class ShardFailedError extends Error {
  override readonly name = 'ShardFailedError';

  constructor(
    readonly shard: number,
    readonly firstTrial: number,
    readonly attempts: number,
    readonly causeMessage: string,
  ) {
    super(`shard ${shard} (first trial ${firstTrial}) failed ${attempts} times: ${causeMessage}`);
  }
}

const MAX_ATTEMPTS = 2;

export async function runSharded(
  executor: ShardExecutor,
  plan: ShardedRunPlan,
  options: ShardedRunOptions = {},
): Promise<ShardedRunOutcome> {
  const [firstShard, totalShards] = options.shards ?? [0, shardCount(plan.trials)];
  if (options.shards !== undefined && (firstShard < 0 || firstShard >= totalShards || totalShards > shardCount(plan.trials)))
    throw new RangeError(`shards ${firstShard}..${totalShards - 1} are not shards of this run`);
  if (
    options.shards !== undefined &&
    (options.resumeFrom !== undefined ||
      options.stopWhen !== undefined ||
      options.scoreStop !== undefined ||
      options.checkpoint !== undefined)
  )
    throw new RangeError('a part of a run (shards) has no checkpoint and no stop rule');
  const scoreStop = options.scoreStop;
  /** A run of one shard stops inside it; a longer one at a shard's end, on the merged tally. */
  const stopInShard = scoreStop !== undefined && shardCount(plan.trials) === 1;
  const givenStop = options.stopWhen;
  const stopWhen =
    scoreStop === undefined
      ? givenStop
      : (merged: Tally): boolean => givenStop?.(merged) === true || scoreStopMet(merged.cells, merged.trials, scoreStop);
  const tally = new Tally(plan.metrics);
  /** Shards at or past `nextToMerge` that are already in `tally` (resumed out of order). */
  const mergedAhead = new Set<number>();
  if (options.resumeFrom !== undefined) {
    tally.addCells(options.resumeFrom.cells, options.resumeFrom.trials);
    for (const [start, end] of options.resumeFrom.completed) for (let shard = start; shard < end; shard++) mergedAhead.add(shard);
  }
  let nextToMerge = firstShard;
  const skipMerged = (): void => {
    while (mergedAhead.delete(nextToMerge)) nextToMerge++;
  };
  skipMerged();
  if (stopWhen !== undefined && mergedAhead.size > 0) throw new RangeError('a run with a stop rule resumes from shards 0..n-1 only');

  /** Shards done but not merged yet: their cells and trials (fewer than planned only when stopped inside the shard). */
  const waiting = new Map<number, { readonly cells: Float64Array; readonly trials: number }>();
  const running = new Set<number>();
  const retries: number[] = [];
  let nextToStart = nextToMerge;
  let stopRuleMet = tally.trials > 0 && stopWhen?.(tally) === true;
  let failure: ShardFailedError | undefined;
  /** A bug in this loop or in a callback (stopWhen, onProgress), rethrown by the run. */
  let callbackError: unknown;
  /** Set once the run returns or throws: late results of dropped shards must not touch its tally. */
  let finished = false;
  // Two shards per worker keep each one busy while the main thread merges; the ahead limit bounds
  // the buffer when an early shard is slow or being retried. Read as the run goes: a queue's
  // workers come and go.
  let runningLimit = 0;
  let aheadLimit = 0;
  const readLimits = (): void => {
    const workers = Math.max(1, executor.workers);
    runningLimit = workers * 2;
    aheadLimit = workers * 8;
  };
  readLimits();

  let wake: () => void = () => {};
  const woken = (): Promise<void> =>
    new Promise((resolve) => {
      wake = resolve;
    });
  const onAbort = (): void => wake();
  options.finishSignal?.addEventListener('abort', onAbort);
  options.dropSignal?.addEventListener('abort', onAbort);
  const interrupted = (): boolean => options.finishSignal?.aborted === true || options.dropSignal?.aborted === true;
  const stopping = (): boolean => stopRuleMet || failure !== undefined || callbackError !== undefined || interrupted();

  const trialsDone = (): number => {
    let done = tally.trials;
    for (const { trials } of waiting.values()) done += trials;
    return done;
  };

  const mergeInOrder = (): void => {
    for (;;) {
      skipMerged();
      const done = waiting.get(nextToMerge);
      if (done === undefined || stopRuleMet) return;
      tally.addCells(done.cells, done.trials);
      waiting.delete(nextToMerge);
      nextToMerge++;
      if (stopWhen?.(tally) === true) stopRuleMet = true;
    }
  };

  const settled = (shard: number, attempt: number, result: ShardResult | undefined, error: unknown): void => {
    if (finished) return;
    running.delete(shard);
    if (result !== undefined) {
      // A shard reaches here once per attempt, and only a successful attempt is kept: a retried
      // shard's failed first attempt contributed nothing.
      try {
        if (shard < nextToMerge || waiting.has(shard) || mergedAhead.has(shard))
          throw new Error(`internal error: shard ${shard} completed twice`);
        const planned = trialsInShard(plan.trials, shard);
        if (result.trials > planned || (result.trials < planned && !stopInShard))
          throw new Error(`internal error: shard ${shard} ran ${result.trials} trials of ${planned}`);
        waiting.set(shard, { cells: result.cells, trials: result.trials });
        mergeInOrder();
        options.onProgress?.({ trialsDone: trialsDone(), trialsPlanned: plan.trials, merged: tally });
      } catch (callbackFailure) {
        callbackError ??= callbackFailure;
      }
    } else if (attempt < MAX_ATTEMPTS && !stopping()) {
      retries.push(shard);
    } else if (attempt >= MAX_ATTEMPTS && failure === undefined && !stopRuleMet) {
      const message = error instanceof Error ? error.message : String(error);
      failure = new ShardFailedError(shard, firstTrialOf(shard), attempt, message);
    }
    wake();
  };

  const start = (shard: number, attempt: number): void => {
    running.add(shard);
    const task = {
      specJson: plan.spec.json,
      specDigest: plan.spec.digest,
      seed: plan.seed,
      shard,
      trials: trialsInShard(plan.trials, shard),
      attempt,
      ...(stopInShard ? { stop: scoreStop } : {}),
    };
    executor.run(options.fault === undefined ? task : { ...task, fault: options.fault }).then(
      (result) => settled(shard, attempt, result, undefined),
      (error: unknown) => settled(shard, attempt, undefined, error),
    );
  };

  const startMore = (): void => {
    readLimits();
    // A retry runs alone, once the shards still running are done: a worker that dies takes every
    // shard it holds down with it, and only a shard that fails on its own is the one to blame.
    if (retries.length > 0) {
      if (running.size === 0) start(retries.shift() as number, MAX_ATTEMPTS);
      return;
    }
    // An executor that sends shards in batches (a queue) gets them batch by batch: wait until a
    // whole batch can start, unless fewer shards than that are left to start.
    const batch = Math.max(1, executor.batchShards ?? 1);
    const startable = (): number => Math.min(totalShards, nextToMerge + aheadLimit) - nextToStart;
    if (batch > 1 && runningLimit - running.size < batch && runningLimit - running.size < startable()) return;
    for (;;) {
      while (mergedAhead.has(nextToStart)) nextToStart++;
      if (running.size >= runningLimit || nextToStart >= totalShards || nextToStart >= nextToMerge + aheadLimit) return;
      start(nextToStart++, 1);
    }
  };

  const snapshot = (): RunSnapshot => {
    // Under a stop rule only the in-order prefix may be kept: a resumed run must see the same
    // sequence of merged tallies. Without one, shards waiting for their turn are kept too.
    const extras = stopWhen === undefined ? [...mergedAhead, ...waiting.keys()] : [];
    const cells = Float64Array.from(tally.cells);
    let trials = tally.trials;
    if (stopWhen === undefined) {
      for (const done of waiting.values()) {
        for (let c = 0; c < cells.length; c++) cells[c] = (cells[c] as number) + (done.cells[c] as number);
        trials += done.trials;
      }
    }
    return { completed: rangesOf(nextToMerge, extras), cells, trials };
  };

  const checkpoint = options.checkpoint;
  // The first shard to complete is saved at once, later ones at most every `everyMilliseconds`.
  let lastSave = Number.NEGATIVE_INFINITY;
  try {
    let cancelled = false;
    for (;;) {
      if (!stopping()) startMore();
      // Met: shards still queued are not needed (merging stops at the same shard either way).
      if (stopRuleMet && !cancelled && executor.cancelPending !== undefined) {
        cancelled = true;
        executor.cancelPending();
      }
      if (running.size === 0 || options.dropSignal?.aborted === true) break;
      await woken();
      if (checkpoint !== undefined && performance.now() - lastSave >= checkpoint.everyMilliseconds && !stopping()) {
        await checkpoint.save(snapshot());
        lastSave = performance.now();
      }
    }
  } finally {
    finished = true;
    // The signals outlive the run (one Ctrl-C handler serves every scenario of a command).
    options.finishSignal?.removeEventListener('abort', onAbort);
    options.dropSignal?.removeEventListener('abort', onAbort);
  }
  if (callbackError !== undefined) throw callbackError;
  const kept = snapshot();
  if (checkpoint !== undefined) await checkpoint.save(kept);
  if (failure !== undefined) throw failure;
  const complete = stopRuleMet || nextToMerge >= totalShards;
  return { tally, interrupted: !complete && interrupted(), stopRuleMet, keptTrials: kept.trials };
}
