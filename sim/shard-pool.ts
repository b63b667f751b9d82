import { readFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import type { Piscina } from 'piscina';
import type { SerializedKernelSpec } from './kernel-spec.js';
import { InProcessExecutor } from './in-process-executor.js';
import { SHARD_TRIALS } from './run.js';
import type { KernelFacts, OutcomeResult, OutcomeTask, ShardExecutor, ShardResult, ShardTask } from './shard-task.js';

/** The handler file each worker loads: JavaScript that registers tsx, then loads shard-worker.ts. */
const WORKER_ENTRY = new URL('./shard-worker-entry.mjs', import.meta.url).href;

type Pool = Piscina<PoolTask, PoolResult>;

/** How long the pool watches the machine before it starts, to tell how busy other processes keep the cores. */
export const LOAD_WINDOW_MILLISECONDS = 40;

/** The cores other processes keep busy, and how that was measured (for the note). */
export interface OtherLoad {
  readonly busyCores: number;
  readonly measured: string;
}

/** Busy and total time of all cores since boot, in clock ticks (Linux's /proc/stat); undefined elsewhere. */
async function cpuTicks(): Promise<{ busy: number; total: number } | undefined> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0] ?? '';
    const ticks = line.trim().split(/\s+/).slice(1).map(Number);
    if (!line.startsWith('cpu ') || ticks.length < 4 || ticks.some((tick) => !Number.isFinite(tick))) return undefined;
    // user nice system idle iowait irq softirq steal…: idle and iowait are the idle time.
    const total = ticks.slice(0, 8).reduce((sum, tick) => sum + tick, 0);
    return { busy: total - (ticks[3] ?? 0) - (ticks[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/**
 * How many cores other processes keep busy right now: on Linux, the busy share of every core over
 * LOAD_WINDOW_MILLISECONDS (/proc/stat) less this process's own CPU time in that window, so a
 * process's own threads (a previous pool, V8's compiler) never count; elsewhere the 1-minute load
 * average (0 where the system has none, e.g. Windows).
 */
export async function otherLoad(cores: number = availableParallelism()): Promise<OtherLoad> {
  const before = await cpuTicks();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, LOAD_WINDOW_MILLISECONDS));
  const after = await cpuTicks();
  if (before === undefined || after === undefined || after.total <= before.total) {
    const [average = 0] = loadavg();
    return { busyCores: average, measured: `load average ${average.toFixed(2)}` };
  }
  const own = process.cpuUsage(ownBefore);
  const ownCores = (own.user + own.system) / 1000 / (performance.now() - started);
  const busyCores = Math.max(0, ((after.busy - before.busy) / (after.total - before.total)) * cores - ownCores);
  return { busyCores, measured: `other processes keep ${busyCores.toFixed(1)} of ${cores} cores busy` };
}

/**
 * The workers a pool fitted to the machine's load starts: `requested`, less one for each core
 * other processes keep busy more than half the time, and at least one. On 2 cores: 2 workers on a
 * quiet machine, 1 once other work fills a core — where a second worker only adds contention
 * (measured in bench/parallel.ts). Which workers run changes no number: shards merge in order.
 */
export const workersForLoad = (requested: number, cores: number, busyCores: number): number =>
  Math.max(1, Math.min(requested, Math.round(cores - busyCores)));

/**
 * `fitToLoad`: start fewer than the requested threads when other processes keep the cores busy,
 * saying so through `note` (`cores` and `measure`, the machine's and otherLoad, stand in for tests).
 */
export interface ShardPoolOptions {
  readonly fitToLoad?: {
    readonly note: (text: string) => void;
    readonly cores?: number;
    readonly measure?: (cores: number) => Promise<OtherLoad>;
  };
}

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
  /**
   * Started when first asked for (a run's kernel facts, then its shards), piscina itself imported
   * then: a command that never samples, or samples on the main thread, never pays for either.
   */
  private pool: Promise<Pool> | undefined;
  /** The pool once started, for `threads`. */
  private startedPool: Pool | undefined;
  /** The threads started: `requested`, or fewer when fitted to the load at start. */
  private threadCount: number;

  /** Seated runs waiting to be sent, and the batches a worker holds or runs. */
  private readonly outcomes: QueuedOutcome[] = [];
  private batchesOut = 0;
  private flushPending = false;
  /** Where the shortest runs go (MAIN_THREAD_TRIALS). */
  private readonly here = new InProcessExecutor();

  constructor(
    readonly requested: number,
    private readonly options: ShardPoolOptions = {},
  ) {
    this.threadCount = requested;
  }

  /** Worker threads running shards: those started, or before the pool starts, those asked for. */
  get workers(): number {
    return this.threadCount;
  }

  /** Enough seated runs for every worker to hold two full batches (a worker holds two tasks). */
  get outcomesInFlight(): number {
    return 2 * Math.max(1, this.threadCount) * BATCH_RUNS;
  }

  private started(): Promise<Pool> {
    this.pool ??= this.start();
    return this.pool;
  }

  private async start(): Promise<Pool> {
    const fit = this.options.fitToLoad;
    if (fit !== undefined && this.requested > 1) {
      const cores = fit.cores ?? availableParallelism();
      const load = await (fit.measure ?? otherLoad)(cores);
      this.threadCount = workersForLoad(this.requested, cores, load.busyCores);
      if (this.threadCount < this.requested)
        fit.note(
          `note: ${load.measured}: running ${this.threadCount} worker${this.threadCount === 1 ? '' : 's'}, not ${this.requested} (the numbers do not depend on it; --workers ${this.requested} runs ${this.requested})\n`,
        );
    }
    const { Piscina } = await import('piscina');
    this.startedPool = new Piscina<PoolTask, PoolResult>({
      filename: WORKER_ENTRY,
      minThreads: this.threadCount,
      maxThreads: this.threadCount,
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
    const sent = this.started().then(
      (pool) =>
        pool.run(
          batch.map((queued) => queued.task),
          { name: 'runOutcomeTasks' },
        ) as Promise<OutcomeResult[]>,
    );
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
    return this.startedPool?.threads ?? [];
  }

  async close(force: boolean): Promise<void> {
    const starting = this.pool;
    this.pool = undefined;
    this.startedPool = undefined;
    // Runs not sent yet are not run: their callers hear so instead of waiting for ever.
    for (const queued of this.outcomes.splice(0)) queued.reject(new Error('the worker pool was closed before this run was sent'));
    if (starting === undefined) return;
    const pool = await starting;
    if (force) await pool.destroy();
    else await pool.close();
  }
}
