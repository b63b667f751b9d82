import type { Piscina } from 'piscina';
import type { SerializedKernelSpec } from './kernel-spec.js';
import type { KernelFacts, ShardExecutor, ShardResult, ShardTask } from './shard-task.js';

/** The handler file each worker loads: JavaScript that registers tsx, then loads shard-worker.ts. */
const WORKER_ENTRY = new URL('./shard-worker-entry.mjs', import.meta.url).href;

type Pool = Piscina<ShardTask | SerializedKernelSpec, ShardResult | KernelFacts>;

/**
 * Shards on a piscina pool of `workers` threads, all started at once and kept for the pool's
 * life (a run keeps them busy; starting one costs ~0.3 s of tsx and module loading). A shard that
 * throws rejects only itself; a worker that dies rejects the shards it holds (the one running and
 * the next), and piscina starts a replacement.
 */
export class ShardPool implements ShardExecutor {
  /**
   * Started when first asked for (a run's kernel facts, then its shards), piscina itself imported
   * then: a command that never samples, or samples on the main thread, never pays for either.
   */
  private pool: Promise<Pool> | undefined;
  /** The pool once started, for `threads`. */
  private startedPool: Pool | undefined;

  constructor(readonly workers: number) {}

  private started(): Promise<Pool> {
    this.pool ??= this.start();
    return this.pool;
  }

  private async start(): Promise<Pool> {
    const { Piscina } = await import('piscina');
    this.startedPool = new Piscina<ShardTask | SerializedKernelSpec, ShardResult | KernelFacts>({
      filename: WORKER_ENTRY,
      minThreads: this.workers,
      maxThreads: this.workers,
      // Each worker holds the next shard while it runs one, so it never sits waiting for the main
      // thread (busy merging, or descheduled on a loaded machine) to hand it more work.
      concurrentTasksPerWorker: 2,
      // Workers never idle out during a run; and the entry file registers tsx itself, so no flags
      // from this process (e.g. --import tsx, which a worker mishandles) are passed on.
      idleTimeout: Number.POSITIVE_INFINITY,
      execArgv: [],
    });
    return this.startedPool;
  }

  async run(task: ShardTask): Promise<ShardResult> {
    return (await (await this.started()).run(task)) as ShardResult;
  }

  /** From a worker, which keeps the kernel it compiles for its shards (shard-worker.ts). */
  async kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return (await (await this.started()).run(spec, { name: 'kernelFacts' })) as KernelFacts;
  }

  /** Threads of the pool (for tests that kill one from outside). */
  get threads(): readonly { terminate(): Promise<number> }[] {
    return this.startedPool?.threads ?? [];
  }

  async close(force: boolean): Promise<void> {
    const starting = this.pool;
    this.pool = undefined;
    this.startedPool = undefined;
    if (starting === undefined) return;
    const pool = await starting;
    if (force) await pool.destroy();
    else await pool.close();
  }
}
