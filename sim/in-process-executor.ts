import type { SerializedKernelSpec } from './kernel-spec.js';
import { ShardRunner } from './shard-runner.js';
import type { KernelFacts, OutcomeResult, OutcomeTask, ShardExecutor, ShardResult, ShardTask } from './shard-task.js';

/**
 * Shards on the main thread, one at a time: no pool to start, which is quicker for short runs.
 * Each shard waits for the event loop first, so Ctrl-C, progress and checkpoints are handled
 * between shards exactly as with workers. The facts a run asks for first come from the kernel its
 * shards then run: a spec is compiled once.
 */
export class InProcessExecutor implements ShardExecutor {
  readonly workers = 0;
  // The main thread cannot end itself like a worker: every injected fault but a stall throws here.
  private readonly runner = new ShardRunner();

  async run(task: ShardTask): Promise<ShardResult> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.runner.run(task);
  }

  async runOutcome(task: OutcomeTask): Promise<OutcomeResult> {
    await new Promise((resolve) => setImmediate(resolve));
    return this.runner.runOutcome(task);
  }

  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return this.runner.facts(spec);
  }

  async close(): Promise<void> {}
}
