import { setMaxListeners } from 'node:events';
import path from 'node:path';
import { groupThousands } from '../input/thousands.js';
import type { SerializedKernelSpec } from '../sim/kernel-spec.js';
import { InterruptedError } from '../sim/interrupted.js';
import type { FaultInjection, KernelFacts, OutcomeResult, OutcomeTask, ShardExecutor, ShardResult, ShardTask } from '../sim/shard-task.js';
import { EXIT_INTERRUPTED, EXIT_TERMINATED, type Io } from './commands/io.js';
import { listenForInterrupts } from './interrupts.js';
import { createProgressBar, type ProgressDisplay } from './progress.js';

/**
 * What a long analysis (compare, sweep, matchups, balance) shares with `run` while it works: the one
 * progress display (cli/progress.ts, under run's rules: on a terminal, not with --quiet or --json)
 * and Ctrl-C or SIGTERM — the first stops starting work and drops the shards running (an analysis
 * keeps no partial result), then one line says what was done, and the command exits 130 (143 for
 * SIGTERM), as run does; a second signal leaves at once.
 */
export interface AnalysisSession {
  /** The work's progress: `done` of `total` (0: not known, e.g. a price search). */
  readonly progress: (done: number, total: number) => void;
  /** Aborted by the first signal. */
  readonly signal: AbortSignal;
  /** `inner` with its shards refused once interrupted (and, in tests, each given CRUCIBLE_TEST_FAULT). */
  executor(inner: ShardExecutor): ShardExecutor;
  /** The work failed: its exit status if a signal stopped it (the line saying so printed), else undefined (the failure is the command's). */
  stopped(): number | undefined;
  /** The work is over (done, failed or stopped): stop listening, clear the display. */
  end(): void;
}

export interface SessionOptions {
  /** The command (`matchups`) and the file it works on (the display's label, as run's). */
  readonly command: string;
  readonly file: string;
  /** What the progress counts: trials, points, runs. */
  readonly unit: string;
  /** The work's size when known before it starts (compare's trials): the display shows it at once. */
  readonly total?: number;
  /** --quiet or --json: no display. */
  readonly quiet: boolean;
  readonly fault?: FaultInjection | undefined;
}

export function analysisSession(io: Io, options: SessionOptions): AnalysisSession {
  const display: ProgressDisplay | undefined =
    options.quiet || io.progressStream === undefined
      ? undefined
      : createProgressBar(io.progressStream, path.basename(options.file), options.unit);
  let done = 0;
  let total = options.total ?? 0;
  const interrupts = listenForInterrupts(
    io,
    () => display?.stop(),
    () => process.exit(interrupts.signal() === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED),
  );
  // Each shard running listens for the signal: a pool's worth of them, more than EventTarget's default warning allows.
  setMaxListeners(0, interrupts.finish);
  // Drawn at once: loading and starting workers take a moment, and the display says the work has begun.
  display?.begin({ trialsDone: 0, trialsPlanned: total });
  return {
    progress: (doneNow, totalNow) => {
      done = doneNow;
      total = totalNow;
      display?.update({ trialsDone: doneNow, trialsPlanned: totalNow });
    },
    signal: interrupts.finish,
    executor: (inner) => new StoppableExecutor(inner, interrupts.finish, options.fault),
    stopped: () => {
      const signal = interrupts.signal();
      if (signal === undefined) return undefined;
      const unit = options.unit;
      const how = total > 0 ? `${groupThousands(done)} of ${groupThousands(total)} ${unit}` : `${groupThousands(done)} ${unit}`;
      io.stderr(`crucible: ${options.command} interrupted after ${how}; nothing saved (${options.command} keeps no partial result)\n`);
      return signal === 'SIGTERM' ? EXIT_TERMINATED : EXIT_INTERRUPTED;
    },
    end: () => {
      interrupts.release();
      display?.stop();
    },
  };
}

/**
 * An executor that refuses every shard once `signal` is aborted, those running included (their
 * results are no one's any more: the pool is then closed by force), so an analysis stops at once.
 */
class StoppableExecutor implements ShardExecutor {
  readonly batchShards?: number;
  readonly status?: () => string;
  readonly unusable?: () => string | undefined;
  readonly cancelPending?: () => void;
  readonly runOutcome?: (task: OutcomeTask) => Promise<OutcomeResult>;

  constructor(
    private readonly inner: ShardExecutor,
    private readonly signal: AbortSignal,
    private readonly fault: FaultInjection | undefined,
  ) {
    // What the inner executor has, this one has (a run asks whether it has them).
    if (inner.batchShards !== undefined) this.batchShards = inner.batchShards;
    if (inner.status !== undefined) this.status = () => inner.status?.() ?? '';
    if (inner.unusable !== undefined) this.unusable = () => inner.unusable?.();
    if (inner.cancelPending !== undefined) this.cancelPending = () => inner.cancelPending?.();
    // Seated runs in batches (sim/shard-pool.ts); a test fault acts on shards, so under one they go as shards.
    const runOutcome = inner.runOutcome?.bind(inner);
    if (runOutcome !== undefined && fault === undefined) {
      this.runOutcome = (task) => this.stoppable(() => runOutcome(task));
    }
  }

  /** Read from the inner executor each time: a pool fitted to the machine's load starts fewer threads than asked (sim/shard-pool.ts). */
  get workers(): number {
    return this.inner.workers;
  }

  get outcomesInFlight(): number | undefined {
    return this.runOutcome === undefined ? undefined : this.inner.outcomesInFlight;
  }

  run(task: ShardTask): Promise<ShardResult> {
    return this.stoppable(() => this.inner.run(this.fault === undefined ? task : { ...task, fault: this.fault }));
  }

  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return this.stoppable(() => this.inner.kernelFacts(spec));
  }

  close(force: boolean): Promise<void> {
    return this.inner.close(force || this.signal.aborted);
  }

  /** The work `start` begins, or an InterruptedError as soon as the signal aborts (its outcome then no one's). */
  private stoppable<T>(start: () => Promise<T>): Promise<T> {
    if (this.signal.aborted) return Promise.reject(new InterruptedError());
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(new InterruptedError());
      this.signal.addEventListener('abort', onAbort, { once: true });
      start()
        .then(resolve, reject)
        .finally(() => this.signal.removeEventListener('abort', onAbort));
    });
  }
}
