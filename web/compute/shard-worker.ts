import type { Kernel } from '../../engine/kernel.js';
import { compileKernelSpec } from '../../sim/kernel-spec.js';
import { runShard, type ShardTask } from '../../sim/shard-task.js';
import { StreamCursor } from '../../sim/stream-cursor.js';
import { installBrowserPlatform } from '../platform/browser-platform.js';

/**
 * A Web Worker running shards, as sim/shard-worker.ts does on a worker thread: the same kernel
 * compiled from the same spec, shard k drawing from the seed's stream k, the shard's tally cells
 * sent back (transferred, not copied).
 */

export interface ShardRequest {
  readonly id: number;
  readonly task: ShardTask;
}

export type ShardReply = { readonly id: number; readonly cells: Float64Array; readonly trials: number; readonly loopMilliseconds: number } | { readonly id: number; readonly error: string };

installBrowserPlatform();

const cursor = new StreamCursor();
let compiled: { readonly digest: string; readonly kernel: Kernel } | undefined;

self.onmessage = async (event: MessageEvent<ShardRequest>) => {
  const { id, task } = event.data;
  try {
    if (compiled?.digest !== task.specDigest) compiled = { digest: task.specDigest, kernel: await compileKernelSpec(task.specJson) };
    const result = runShard(compiled.kernel, cursor, task.seed, task.shard, task.trials, undefined, task.stop);
    const reply: ShardReply = { id, cells: result.cells, trials: result.trials, loopMilliseconds: result.loopMilliseconds };
    self.postMessage(reply, { transfer: [result.cells.buffer] });
  } catch (error) {
    const reply: ShardReply = { id, error: error instanceof Error ? error.message : String(error) };
    self.postMessage(reply);
  }
};
