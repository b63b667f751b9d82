import type { SerializedKernelSpec } from '../sim/kernel-spec.js';
import type { KernelFacts, OutcomeResult, OutcomeTask, ShardExecutor, ShardResult, ShardTask } from '../sim/shard-task.js';

/** Sums the trial-loop time the runs report, whether they come as shards or as seated runs. */
export class LoopMeter implements ShardExecutor {
  loopMilliseconds = 0;
  readonly outcomesInFlight: number | undefined;
  readonly runOutcome?: (task: OutcomeTask) => Promise<OutcomeResult>;

  constructor(private readonly inner: ShardExecutor) {
    this.outcomesInFlight = inner.outcomesInFlight;
    const runOutcome = inner.runOutcome?.bind(inner);
    if (runOutcome !== undefined)
      this.runOutcome = async (task) => {
        const result = await runOutcome(task);
        if ('loopMilliseconds' in result) this.loopMilliseconds += result.loopMilliseconds;
        return result;
      };
  }

  get workers(): number {
    return this.inner.workers;
  }

  async run(task: ShardTask): Promise<ShardResult> {
    const result = await this.inner.run(task);
    this.loopMilliseconds += result.loopMilliseconds;
    return result;
  }

  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return this.inner.kernelFacts(spec);
  }

  close(force: boolean): Promise<void> {
    return this.inner.close(force);
  }
}
