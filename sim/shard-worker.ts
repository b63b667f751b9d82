import type { Kernel } from '../engine/kernel.js';
import { installNodePlatform } from '../input/node-platform.js';
import { compileKernelSpec } from './kernel-spec.js';
import { faultFor, runShard, stallFor, type ShardResult, type ShardTask } from './shard-task.js';
import { StreamCursor } from './stream-cursor.js';

/**
 * The piscina task handler (loaded through shard-worker-entry.mjs, see there why). A worker keeps
 * the kernel of the last scenario it ran and its position in the seed's streams, so a shard costs
 * a string compare and a few jumps before its trials start.
 */

installNodePlatform();

let cached: { readonly digest: string; readonly kernel: Kernel } | undefined;
const cursor = new StreamCursor();

async function kernelFor(task: ShardTask): Promise<Kernel> {
  if (cached?.digest !== task.specDigest) cached = { digest: task.specDigest, kernel: await compileKernelSpec(task.specJson) };
  return cached.kernel;
}

/**
 * The shard's tally is counted in a SharedArrayBuffer: posting it shares the memory with the main
 * thread — no copy, as with a transfer — but detaches nothing. Transferring an ArrayBuffer
 * detaches it, and once a thread has detached one, V8's optimised code can no longer assume
 * typed arrays stay attached (its "array buffer detaching protector" is spent): the kernel, all
 * typed arrays, ran 15–25% slower in workers that transferred their tallies than in a raw thread,
 * and as fast as one with shared memory (A/B on this machine, per-shard loop time).
 */
const sharedCells = (size: number): Float64Array => new Float64Array(new SharedArrayBuffer(size * Float64Array.BYTES_PER_ELEMENT));

/**
 * A worker holds two shards at once (see shard-pool.ts). piscina starts both handlers before
 * either finishes, so a handler that ran its shard straight away would run the second shard
 * before the first one's result is posted; waiting for the event loop's check phase first makes
 * each shard's result leave as soon as that shard is done.
 */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export async function runShardTask(task: ShardTask): Promise<ShardResult> {
  await nextTurn();
  const kernel = await kernelFor(task);
  const fault = faultFor(task);
  await stallFor(fault);
  if (fault?.kind === 'throw') throw new Error(`injected test fault: shard ${task.shard} throws on attempt ${task.attempt}`);
  if (fault?.kind === 'exit') {
    // Die halfway through the shard, as a crash would: the half-done tally is simply lost.
    const half = Math.floor(task.trials / 2);
    runShard(kernel, cursor, task.seed, task.shard, half);
    process.exit(1);
  }
  return runShard(kernel, cursor, task.seed, task.shard, task.trials, sharedCells, task.stop);
}
