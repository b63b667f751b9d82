import { installNodePlatform } from '../input/node-platform.js';
import type { SerializedKernelSpec } from './kernel-spec.js';
import { ShardRunner } from './shard-runner.js';
import type { KernelFacts, OutcomeResult, OutcomeTask, ShardResult, ShardTask } from './shard-task.js';

/**
 * The piscina task handlers (loaded through shard-worker-entry.mjs, see there why): a worker's
 * shards, and the facts of a spec's kernel, on the thread's ShardRunner (its kernel cache and
 * stream position).
 */

installNodePlatform();

/**
 * The shard's tally is counted in a SharedArrayBuffer: posting it shares the memory with the main
 * thread — no copy, as with a transfer — but detaches nothing. Transferring an ArrayBuffer
 * detaches it, and once a thread has detached one, V8's optimised code can no longer assume
 * typed arrays stay attached (its "array buffer detaching protector" is spent): the kernel, all
 * typed arrays, ran 15–25% slower in workers that transferred their tallies than in a raw thread,
 * and as fast as one with shared memory (A/B on this machine, per-shard loop time).
 */
const sharedCells = (size: number): Float64Array => new Float64Array(new SharedArrayBuffer(size * Float64Array.BYTES_PER_ELEMENT));

const runner = new ShardRunner({ storage: sharedCells, exit: () => process.exit(1) });

/**
 * A worker holds two shards at once (see shard-pool.ts). piscina starts both handlers before
 * either finishes, so a handler that ran its shard straight away would run the second shard
 * before the first one's result is posted; waiting for the event loop's check phase first makes
 * each shard's result leave as soon as that shard is done.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function runShardTask(task: ShardTask): Promise<ShardResult> {
  await nextTurn();
  return runner.run(task);
}

export function kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
  return runner.facts(spec);
}

/** A batch of seated runs (ShardPool.runOutcome), after the same turn of the event loop as a shard. */
export async function runOutcomeTasks(tasks: readonly OutcomeTask[]): Promise<OutcomeResult[]> {
  await nextTurn();
  return runner.runOutcomes(tasks);
}
