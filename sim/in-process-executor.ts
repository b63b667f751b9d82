import type { Kernel } from '../engine/kernel.js';
import { compileKernelSpec } from './kernel-spec.js';
import { faultFor, runShard, stallFor, type ShardExecutor, type ShardResult, type ShardTask } from './shard-task.js';
import { StreamCursor } from './stream-cursor.js';

/**
 * Shards on the main thread, one at a time: no pool to start, which is quicker for short runs.
 * Each shard waits for the event loop first, so Ctrl-C, progress and checkpoints are handled
 * between shards exactly as with workers.
 */
export class InProcessExecutor implements ShardExecutor {
  readonly workers = 0;
  private readonly cursor = new StreamCursor();
  private kernel: { readonly digest: string; readonly kernel: Kernel } | undefined;

  async run(task: ShardTask): Promise<ShardResult> {
    await new Promise((resolve) => setImmediate(resolve));
    if (this.kernel?.digest !== task.specDigest) this.kernel = { digest: task.specDigest, kernel: await compileKernelSpec(task.specJson) };
    const { kernel } = this.kernel;
    // The main thread cannot end itself like a worker: every injected fault but a stall throws here.
    const fault = faultFor(task);
    if (fault !== undefined && !(await stallFor(fault))) throw new Error(`injected test fault (${fault.kind}) in shard ${task.shard}, attempt ${task.attempt}`);
    return runShard(kernel, this.cursor, task.seed, task.shard, task.trials, undefined, task.stop);
  }

  async close(): Promise<void> {}
}
