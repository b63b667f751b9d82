import type { SerializedKernelSpec } from '../../sim/kernel-spec.js';
import type { KernelFacts, ShardExecutor, ShardResult, ShardTask } from '../../sim/shard-task.js';
import type { ShardReply, ShardRequest } from './shard-worker.js';

/**
 * Shards on Web Workers: the browser's ShardExecutor (sim/shard-task.ts), so sim/sharded-run.ts
 * merges them in shard order exactly as it merges the CLI's worker threads. One worker per core
 * the browser reports (at most 8). `cancelPending` drops shards not started yet; a shard already
 * running finishes (one shard is at most 65,536 trials).
 */

interface Pending {
  readonly request: ShardRequest;
  /** Which session queued it (`WorkerPool.session`): cancelling one leaves the others' shards. */
  readonly session: number;
  /** Takes the worker's reply (an error reply rejects). */
  readonly answer: (reply: ShardReply) => void;
  readonly reject: (error: Error) => void;
}

export const MAX_WORKERS = 8;

export class CancelledError extends Error {
  override readonly name = 'CancelledError';
}

export class WorkerPool implements ShardExecutor {
  readonly workers: number;
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private sessions = 0;
  private closed = false;

  constructor(workers = Math.min(MAX_WORKERS, Math.max(1, navigator.hardwareConcurrency || 2))) {
    this.workers = workers;
    for (let w = 0; w < workers; w++) this.idle.push(this.startWorker(w + 1));
  }

  private startWorker(number: number): Worker {
    const worker = new Worker(new URL('./shard-worker.ts', import.meta.url), { type: 'module', name: `crucible shards ${number}` });
    worker.onmessage = (event: MessageEvent<ShardReply>) => this.settle(worker, event.data);
    worker.onerror = (event) => this.fail(worker, event.message || 'the worker failed');
    return worker;
  }

  run(task: ShardTask, session = 0): Promise<ShardResult> {
    return this.ask({ id: this.nextId++, task }, session, (reply) =>
      'cells' in reply ? { cells: reply.cells, trials: reply.trials, loopMilliseconds: reply.loopMilliseconds } : undefined,
    );
  }

  /** From a worker, which keeps the kernel it compiles (web/compute/shard-worker.ts); asked before the shards waiting, as a run waits for it to start. */
  kernelFacts(spec: SerializedKernelSpec, session = 0): Promise<KernelFacts> {
    return this.ask({ id: this.nextId++, spec }, session, (reply) => ('facts' in reply ? reply.facts : undefined), true);
  }

  private ask<Answer>(
    request: ShardRequest,
    session: number,
    read: (reply: ShardReply) => Answer | undefined,
    first = false,
  ): Promise<Answer> {
    if (this.closed) return Promise.reject(new CancelledError('the pool is closed'));
    return new Promise((resolve, reject) => {
      const answer = (reply: ShardReply): void => {
        const value = 'error' in reply ? undefined : read(reply);
        if (value !== undefined) resolve(value);
        else reject(new Error('error' in reply ? reply.error : `the worker answered request ${reply.id} with something else`));
      };
      const pending = { request, session, answer, reject };
      if (first) this.queue.unshift(pending);
      else this.queue.push(pending);
      this.dispatch();
    });
  }

  /** Drop the shards not started yet: every session's, or one session's. */
  cancelPending(session?: number): void {
    const kept: Pending[] = [];
    for (const pending of this.queue.splice(0)) {
      if (session === undefined || pending.session === session) pending.reject(new CancelledError('cancelled'));
      else kept.push(pending);
    }
    this.queue.push(...kept);
  }

  /**
   * The pool as one computation's executor: the odds of the scenario and a roster's matchups share
   * the workers, and an edit cancels the odds' queued shards only.
   */
  session(): ShardExecutor {
    const id = ++this.sessions;
    let closed = false;
    return {
      workers: this.workers,
      // A closed session (Stop, or a result no longer wanted) refuses new shards: an analysis of many runs ends at its next one.
      run: (task) => (closed ? Promise.reject(new CancelledError('stopped')) : this.run(task, id)),
      kernelFacts: (spec) => (closed ? Promise.reject(new CancelledError('stopped')) : this.kernelFacts(spec, id)),
      cancelPending: () => this.cancelPending(id),
      close: async () => {
        closed = true;
        this.cancelPending(id);
      },
    };
  }

  async close(force: boolean): Promise<void> {
    this.closed = true;
    this.cancelPending();
    if (!force) return;
    for (const worker of [...this.idle, ...this.busy.keys()]) worker.terminate();
    for (const pending of this.busy.values()) pending.reject(new CancelledError('the pool is closed'));
    this.busy.clear();
    this.idle.length = 0;
  }

  private dispatch(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop() as Worker;
      const pending = this.queue.shift() as Pending;
      this.busy.set(worker, pending);
      worker.postMessage(pending.request);
    }
  }

  private settle(worker: Worker, reply: ShardReply): void {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    this.idle.push(worker);
    pending?.answer(reply);
    this.dispatch();
  }

  /** A worker that died takes its shard down (sharded-run retries it once) and is replaced, so the pool keeps its size. */
  private fail(worker: Worker, message: string): void {
    const pending = this.busy.get(worker);
    this.busy.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    worker.terminate();
    pending?.reject(new Error(message));
    if (!this.closed) {
      this.idle.push(this.startWorker(this.idle.length + this.busy.size + 1));
      this.dispatch();
    }
  }
}

let shared: WorkerPool | undefined;

/** The page's one pool, started when first needed (its workers load the kernels once). */
export const sharedPool = (): WorkerPool => (shared ??= new WorkerPool());
