import type { SerializedKernelSpec } from '../../sim/kernel-spec.js';
import { ShardRunner } from '../../sim/shard-runner.js';
import type { KernelFacts, ShardTask } from '../../sim/shard-task.js';
import { installBrowserPlatform } from '../platform/browser-platform.js';

/**
 * A Web Worker running shards, as sim/shard-worker.ts does on a worker thread: the same ShardRunner
 * (kernels compiled from the same specs, shard k drawing from the seed's stream k), the shard's
 * tally cells sent back (transferred, not copied); and the facts of a spec's kernel, which a run
 * asks for before its shards.
 */

export type ShardRequest = { readonly id: number; readonly task: ShardTask } | { readonly id: number; readonly spec: SerializedKernelSpec };

export type ShardReply =
  | { readonly id: number; readonly cells: Float64Array; readonly trials: number; readonly loopMilliseconds: number }
  | { readonly id: number; readonly facts: KernelFacts }
  | { readonly id: number; readonly error: string };

installBrowserPlatform();

const runner = new ShardRunner();

self.onmessage = async (event: MessageEvent<ShardRequest>) => {
  const request = event.data;
  const { id } = request;
  try {
    if ('spec' in request) {
      const reply: ShardReply = { id, facts: await runner.facts(request.spec) };
      self.postMessage(reply);
      return;
    }
    const result = await runner.run(request.task);
    const reply: ShardReply = { id, cells: result.cells, trials: result.trials, loopMilliseconds: result.loopMilliseconds };
    self.postMessage(reply, { transfer: [result.cells.buffer] });
  } catch (error) {
    const reply: ShardReply = { id, error: error instanceof Error ? error.message : String(error) };
    self.postMessage(reply);
  }
};
