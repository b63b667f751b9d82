import { Piscina } from 'piscina';
import type { SerializedKernelSpec } from './kernel-spec.js';
import { InProcessExecutor } from './in-process-executor.js';
import { SHARD_TRIALS } from './run.js';
import type { KernelFacts, OutcomeResult, OutcomeTask, ShardExecutor, ShardResult, ShardTask } from './shard-task.js';

/** The handler file each worker loads: JavaScript that registers tsx, then loads shard-worker.ts. */
const WORKER_ENTRY = new URL('./shard-worker-entry.mjs', import.meta.url).href;

/**
 * A batch of seated runs holds at most this many runs and trials: one round trip carries several
 * runs, while the last batches of an analysis still spread over every worker.
 */
const BATCH_RUNS = 16;
const BATCH_TRIALS = SHARD_TRIALS;
/**
 * A seated run of at most this many trials is run on this thread: it costs less than its share of a
 * batch's round trip (20–25 µs a run, about 25 Warmaster trials: bench on 2 cores, kernels cached),
 * and a matrix of such runs (`-n 10`, a quick look) never starts the pool.
 */
const MAIN_THREAD_TRIALS = 32;
/** A run that fails (its worker threw or died, with its whole batch) is tried again alone, once, as runSharded does a shard. */
const MAX_ATTEMPTS = 2;

interface QueuedOutcome {
  readonly task: OutcomeTask;
  readonly resolve: (result: OutcomeResult) => void;
  readonly reject: (error: unknown) => void;
  attempts: number;
}

type PoolTask = ShardTask | SerializedKernelSpec | readonly OutcomeTask[];
type PoolResult = ShardResult | KernelFacts | OutcomeResult[];

/**
 * Shards on a piscina pool of `workers` threads, all started at once and kept for the pool's
 * life (a run keeps them busy; starting one costs ~0.3 s of tsx and module loading). A shard that
 * throws rejects only itself; a worker that dies rejects the shards it holds (the one running and
 * the next), and piscina starts a replacement.
 */
export class ShardPool implements ShardExecutor {
  /** Started when first asked for (a run's kernel facts, then its shards): a command that never samples never pays for it. */
  private pool: Piscina<PoolTask, PoolResult> | undefined;

  /** Seated runs waiting to be sent, and the batches a worker holds or runs. */
  private readonly outcomes: QueuedOutcome[] = [];
  private batchesOut = 0;
  private flushPending = false;
  /** Where the shortest runs go (MAIN_THREAD_TRIALS). */
  private readonly here = new InProcessExecutor();

  /** Enough seated runs for every worker to hold two full batches (a worker holds two tasks). */
  readonly outcomesInFlight: number;

  constructor(readonly workers: number) {
    this.outcomesInFlight = 2 * Math.max(1, workers) * BATCH_RUNS;
  }

  private started(): Piscina<PoolTask, PoolResult> {
    this.pool ??= new Piscina<PoolTask, PoolResult>({
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
    return this.pool;
  }

  run(task: ShardTask): Promise<ShardResult> {
    return this.started().run(task) as Promise<ShardResult>;
  }

  /** From a worker, which keeps the kernel it compiles for its shards (shard-worker.ts). */
  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return this.started().run(spec, { name: 'kernelFacts' }) as Promise<KernelFacts>;
  }

  /**
   * A seated run (the shortest on this thread), sent with the others queued at the next turn of the
   * event loop: the runs queued are spread over the free places (two a worker), so batches grow
   * while the main thread is ahead of the workers, and a worker waiting for work gets it at once.
   */
  runOutcome(task: OutcomeTask): Promise<OutcomeResult> {
    if (task.trials <= MAIN_THREAD_TRIALS) return this.here.runOutcome(task);
    return new Promise((resolve, reject) => {
      this.outcomes.push({ task, resolve, reject, attempts: 0 });
      this.flushOutcomesSoon();
    });
  }

  private flushOutcomesSoon(): void {
    if (this.flushPending || this.outcomes.length === 0) return;
    this.flushPending = true;
    setImmediate(() => {
      this.flushPending = false;
      this.flushOutcomes();
    });
  }

  private flushOutcomes(): void {
    const places = 2 * Math.max(1, this.workers);
    while (this.outcomes.length > 0 && this.batchesOut < places) {
      const first = this.outcomes[0] as QueuedOutcome;
      // A retry goes alone: only a run that fails on its own is the one to blame.
      const size = first.attempts > 0 ? 1 : Math.min(BATCH_RUNS, Math.ceil(this.outcomes.length / (places - this.batchesOut)));
      let trials = 0;
      let count = 0;
      while (count < size && count < this.outcomes.length) {
        const next = this.outcomes[count] as QueuedOutcome;
        if (count > 0 && (next.attempts > 0 || trials + next.task.trials > BATCH_TRIALS)) break;
        trials += next.task.trials;
        count++;
      }
      this.sendOutcomes(this.outcomes.splice(0, count));
    }
  }

  private sendOutcomes(batch: QueuedOutcome[]): void {
    this.batchesOut++;
    for (const queued of batch) queued.attempts++;
    const sent = this.started().run(
      batch.map((queued) => queued.task),
      { name: 'runOutcomeTasks' },
    ) as Promise<OutcomeResult[]>;
    sent
      .then(
        (results) => batch.forEach((queued, i) => queued.resolve(results[i] as OutcomeResult)),
        (error: unknown) => {
          const retries = batch.filter((queued) => queued.attempts < MAX_ATTEMPTS);
          for (const queued of batch) if (queued.attempts >= MAX_ATTEMPTS) queued.reject(error);
          this.outcomes.unshift(...retries);
        },
      )
      .finally(() => {
        this.batchesOut--;
        this.flushOutcomesSoon();
      });
  }

  /** Threads of the pool (for tests that kill one from outside). */
  get threads(): readonly { terminate(): Promise<number> }[] {
    return this.pool?.threads ?? [];
  }

  async close(force: boolean): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    // Runs not sent yet are not run: their callers hear so instead of waiting for ever.
    for (const queued of this.outcomes.splice(0)) queued.reject(new Error('the worker pool was closed before this run was sent'));
    if (pool === undefined) return;
    if (force) await pool.destroy();
    else await pool.close();
  }
}
