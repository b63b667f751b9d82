import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { MetricSpec } from '../engine/kernel.js';
import { compileKernelSpec, type KernelSpec } from './kernel-spec.js';
import type { ShardExecutor, ShardResult, ShardTask } from './shard-task.js';
import {
  connect,
  decodeResult,
  jobIdOf,
  QUEUE_NAME,
  RESULT_TTL_SECONDS,
  resultField,
  resultsKey,
  type RunRequirements,
  runKeyOf,
  type ShardJob,
  specKey,
  CRUCIBLE_VERSION,
  reachable,
} from './shard-queue.js';

/**
 * Shards run by `crucible worker` processes on any number of machines, through a BullMQ queue on
 * Redis (the coordinator's side; sim/queue-worker.ts is the workers'). A shard's result is read
 * from the run's results hash — never taken from the job — and checked before it is merged, so a
 * shard done by an earlier coordinator is not run again, and a malformed result is refused.
 * runSharded merges shards in order as with a local pool: the same stop rule stops at the same shard.
 */

/** Shards in the queue at once: enough to keep many workers busy, few enough that a stop rule wastes little. */
export const QUEUE_IN_FLIGHT = 64;

interface Waiter {
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

interface SpecInfo {
  readonly metrics: readonly MetricSpec[];
  readonly requires: RunRequirements;
}

export class QueueExecutor implements ShardExecutor {
  /** runSharded keeps 2 × workers shards running: QUEUE_IN_FLIGHT in the queue. */
  readonly workers = QUEUE_IN_FLIGHT / 2;
  private readonly connection: Redis;
  private readonly eventsConnection: Redis;
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly ready: Promise<unknown>;
  private readonly waiters = new Map<string, Waiter>();
  private readonly specs = new Map<string, Promise<SpecInfo>>();
  /** Workers whose results were merged, most recent last: who is taking part. */
  private readonly seen = new Map<string, number>();
  private closed = false;

  /** A coordinator on the Redis at `url`, checked reachable first (an InputError naming the URL otherwise). */
  static async open(url: string, note: (text: string) => void = () => {}): Promise<QueueExecutor> {
    await reachable(url);
    const executor = new QueueExecutor(url, note);
    await executor.ready;
    return executor;
  }

  private constructor(
    readonly url: string,
    private readonly note: (text: string) => void,
  ) {
    this.connection = connect(url);
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection });
    this.eventsConnection = connect(url);
    this.events = new QueueEvents(QUEUE_NAME, { connection: this.eventsConnection });
    this.events.on('completed', ({ jobId }) => this.settle(jobId));
    this.events.on('failed', ({ jobId, failedReason }) => this.settle(jobId, failedReason));
    // Redis errors are reported by the commands that meet them; without a listener ioredis would print them.
    this.connection.on('error', () => {});
    this.eventsConnection.on('error', () => {});
    this.ready = Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
  }

  private settle(jobId: string, failedReason?: string): void {
    const waiter = this.waiters.get(jobId);
    if (waiter === undefined) return;
    this.waiters.delete(jobId);
    if (failedReason === undefined) waiter.resolve();
    else {
      this.note(`crucible: a shard job failed (it is tried once more): ${failedReason}\n`);
      waiter.reject(new Error(failedReason));
    }
  }

  private specInfo(task: ShardTask): Promise<SpecInfo> {
    let info = this.specs.get(task.specDigest);
    if (info === undefined) {
      info = (async () => {
        const spec = JSON.parse(task.specJson) as KernelSpec;
        const kernel = await compileKernelSpec(task.specJson);
        // Stored once per inputs (NX), kept as long as the results.
        await this.connection.set(specKey(task.specDigest), task.specJson, 'EX', RESULT_TTL_SECONDS, 'NX');
        const requires: RunRequirements = {
          crucible: CRUCIBLE_VERSION,
          ruleset: spec.ruleset,
          rulesetVersion: spec.version,
          ...(spec.codeHash === undefined ? {} : { plugin: { id: spec.ruleset, version: spec.version, codeHash: spec.codeHash } }),
        };
        return { metrics: kernel.metrics, requires };
      })();
      this.specs.set(task.specDigest, info);
    }
    return info;
  }

  /** The stored result of a shard, checked; undefined if there is none yet. A malformed one is deleted and refused. */
  private async stored(job: ShardJob, metrics: readonly MetricSpec[]): Promise<ShardResult | undefined> {
    const field = resultField(job.shard, job.trials);
    const text = await this.connection.hget(resultsKey(job.run), field);
    if (text === null) return undefined;
    const decoded = decodeResult(text, metrics, job.trials);
    if (typeof decoded === 'string') {
      // Refused, not merged; deleted so that the retry's result can be stored.
      await this.connection.hdel(resultsKey(job.run), field);
      const message = `the result stored for shard ${job.shard} was refused: ${decoded}`;
      this.note(`crucible: ${message}; the shard is run again\n`);
      throw new Error(message);
    }
    this.seen.delete(decoded.worker);
    this.seen.set(decoded.worker, Date.now());
    return { cells: decoded.cells, loopMilliseconds: 0 };
  }

  async run(task: ShardTask): Promise<ShardResult> {
    if (this.closed) throw new Error('the queue is closed');
    await this.ready;
    const { metrics, requires } = await this.specInfo(task);
    const job: ShardJob = { run: runKeyOf(task.specDigest, task.seed), specDigest: task.specDigest, seed: task.seed, shard: task.shard, trials: task.trials, requires };
    const done = await this.stored(job, metrics);
    if (done !== undefined) return done;
    const jobId = jobIdOf(job, task.attempt);
    const finished = new Promise<void>((resolve, reject) => this.waiters.set(jobId, { resolve, reject }));
    // Settled (failed, cancelled) maybe before it is awaited below: handled now, rethrown there.
    finished.catch(() => {});
    // One attempt per job: a worker that dies mid-shard leaves a stalled job that BullMQ gives to
    // another worker; a job that fails is retried by runSharded once, as a new job.
    await this.queue.add('shard', job, { jobId, removeOnComplete: true, removeOnFail: true, attempts: 1 });
    // It may have finished before this coordinator listened (a run resumed while its jobs ran).
    const early = await this.stored(job, metrics);
    if (early !== undefined) {
      this.waiters.delete(jobId);
      return early;
    }
    await finished;
    const result = await this.stored(job, metrics);
    if (result === undefined) throw new Error(`shard ${task.shard}: its job completed but no result was stored`);
    return result;
  }

  /** "3 workers: host-a:812, host-b:77, …" — those whose results arrived in the last minute. */
  status(): string {
    const recent = [...this.seen].filter(([, when]) => Date.now() - when < 60_000).map(([worker]) => worker);
    if (recent.length === 0) return 'waiting for workers';
    const names = recent.length <= 3 ? recent.join(', ') : `${recent.slice(-3).join(', ')}, …`;
    return `${recent.length} worker${recent.length === 1 ? '' : 's'}: ${names}`;
  }

  /** Jobs not started yet are taken out of the queue (a stop rule was met); running ones finish and are ignored. */
  cancelPending(): void {
    for (const [jobId, waiter] of this.waiters) {
      this.queue.remove(jobId).catch(() => {});
      waiter.reject(new Error('cancelled: the run has what it needs'));
    }
    this.waiters.clear();
  }

  async close(force: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (force) this.cancelPending();
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    this.connection.disconnect();
    this.eventsConnection.disconnect();
  }
}
