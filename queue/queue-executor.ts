import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { MetricSpec } from '../engine/kernel.js';
import type { KernelSpec, SerializedKernelSpec } from '../sim/kernel-spec.js';
import { ShardRunner } from '../sim/shard-runner.js';
import type { KernelFacts, ShardExecutor, ShardResult, ShardTask } from '../sim/shard-task.js';
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
  resultWhere,
  signedJob,
} from './shard-queue.js';
import { DEFAULT_LIVENESS, type Liveness, QueueUnusableError, redisProblem, WorkerWatch } from './queue-liveness.js';

export { DEFAULT_LIVENESS, type Liveness, QueueUnusableError } from './queue-liveness.js';

/**
 * Shards run by `crucible worker` processes on any number of machines, through a BullMQ queue on
 * Redis (the coordinator's side; queue/queue-worker.ts is the workers'). A shard's result is read
 * from the run's results hash — never taken from the job — and checked before it is merged, so a
 * shard done by an earlier coordinator is not run again, and a malformed result is refused.
 * runSharded merges shards in order as with a local pool: the same stop rule stops at the same shard.
 * Redis is not assumed to keep what it was given: every awaited job is looked for every few seconds,
 * and one that is gone (a flush, a restart without persistence, eviction) is queued again.
 */

/**
 * Shards in the queue at once: 32 per connected worker process (a 2-thread worker takes 2 jobs of
 * SHARDS_PER_JOB per thread), and at least 64: enough to keep every worker busy, few enough that a
 * stop rule wastes little. The count of workers is read every few seconds while the run goes.
 */
const SHARDS_IN_FLIGHT_PER_WORKER = 32;
const MIN_SHARDS_IN_FLIGHT = 64;
const WORKER_COUNT_EVERY_MILLISECONDS = 3000;

/** How a job's wait ended: its completed event, or the job no longer in Redis (flushed, restarted, evicted, removed). */
type Ending = 'completed' | 'lost';

interface Waiter {
  readonly job: ShardJob;
  /** Set once the job is in the queue: before that, a missing job is not a lost one. */
  added: boolean;
  readonly resolve: (ending: Ending) => void;
  readonly reject: (error: Error) => void;
}

/** A job lost again and again (Redis evicting under memory pressure) is put back this many times before its shards fail. */
const MAX_REQUEUES = 20;

/** Consecutive shards sent as one job (runSharded starts them in groups of this many). */
export const SHARDS_PER_JOB = 8;

interface Pending {
  readonly task: ShardTask;
  readonly resolve: (result: ShardResult) => void;
  readonly reject: (error: Error) => void;
}

interface SpecInfo {
  readonly metrics: readonly MetricSpec[];
  readonly requires: RunRequirements;
}

export class QueueExecutor implements ShardExecutor {
  /** Worker processes connected to the queue, last counted. */
  private connectedWorkers = 0;
  private readonly counting: NodeJS.Timeout;

  /** runSharded keeps 2 × this many shards running (in the queue). */
  get workers(): number {
    return Math.max(MIN_SHARDS_IN_FLIGHT, SHARDS_IN_FLIGHT_PER_WORKER * this.connectedWorkers) / 2;
  }
  private readonly connection: Redis;
  private readonly eventsConnection: Redis;
  private readonly queue: Queue;
  private readonly events: QueueEvents;
  private readonly ready: Promise<unknown>;
  private readonly waiters = new Map<string, Waiter>();
  /** Shards asked for in this turn of the event loop, sent together by flush(). */
  private readonly pending: Pending[] = [];
  readonly batchShards = SHARDS_PER_JOB;
  private readonly specs = new Map<string, Promise<SpecInfo>>();
  /** The coordinator runs no shard, but decodes results by its kernel's metrics: each spec is compiled here once, for its facts. */
  private readonly compiled = new ShardRunner();
  /** Workers whose results were merged, most recent last: who is taking part. */
  private readonly seen = new Map<string, number>();
  private closed = false;
  private readonly checking: NodeJS.Timeout;
  private checkRunning = false;
  /** Set once the run cannot go on here: every run and waiter fails with it. */
  private unusableReason: string | undefined;
  private readonly watch: WorkerWatch;

  /** A coordinator on the Redis at `url`, checked reachable first (an InputError naming the URL otherwise). */
  static async open(
    url: string,
    note: (text: string) => void = () => {},
    secret?: string,
    liveness: Liveness = DEFAULT_LIVENESS,
  ): Promise<QueueExecutor> {
    await reachable(url);
    const executor = new QueueExecutor(url, note, secret, liveness);
    await executor.ready;
    await executor.countWorkers();
    return executor;
  }

  private constructor(
    readonly url: string,
    private readonly note: (text: string) => void,
    private readonly secret: string | undefined,
    liveness: Liveness,
  ) {
    this.connection = connect(url);
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection });
    this.eventsConnection = connect(url);
    this.events = new QueueEvents(QUEUE_NAME, { connection: this.eventsConnection });
    this.events.on('completed', ({ jobId }) => {
      if (this.waiters.has(jobId)) this.watch.taken();
      this.settle(jobId);
    });
    this.events.on('failed', ({ jobId, failedReason }) => this.settle(jobId, failedReason));
    // Redis errors are reported by the commands that meet them; without a listener ioredis would print them.
    this.connection.on('error', () => {});
    this.eventsConnection.on('error', () => {});
    this.ready = Promise.all([this.queue.waitUntilReady(), this.events.waitUntilReady()]);
    this.counting = setInterval(() => void this.countWorkers(), WORKER_COUNT_EVERY_MILLISECONDS).unref();
    this.watch = new WorkerWatch(this.queue, this.connection, url, liveness, note);
    this.checking = setInterval(() => void this.check(), liveness.checkEveryMilliseconds).unref();
  }

  /** Why the run cannot go on through this queue, once that is so: the caller's exit 2 and its reason. */
  unusable(): string | undefined {
    return this.unusableReason;
  }

  private giveUp(reason: string): void {
    if (this.unusableReason !== undefined) return;
    this.unusableReason = reason;
    for (const waiter of this.waiters.values()) waiter.reject(new QueueUnusableError(reason));
    this.waiters.clear();
  }

  private async countWorkers(): Promise<void> {
    this.connectedWorkers = await this.queue.getWorkersCount().catch(() => this.connectedWorkers);
  }

  private settle(jobId: string, failedReason?: string, ending: Ending = 'completed'): void {
    const waiter = this.waiters.get(jobId);
    if (waiter === undefined) return;
    this.waiters.delete(jobId);
    const redis = failedReason === undefined ? undefined : redisProblem(this.url, failedReason);
    if (redis !== undefined) {
      waiter.reject(new QueueUnusableError(redis));
      this.giveUp(redis);
    } else if (failedReason === undefined) waiter.resolve(ending);
    else {
      this.note(`crucible: a shard job failed (it is tried once more): ${failedReason}\n`);
      waiter.reject(new Error(failedReason));
    }
  }

  /**
   * Every awaited job is looked for in Redis: one that is gone (Redis flushed, restarted without
   * persistence, evicting) ends its wait as lost and is queued again; a completed or failed one
   * whose event was missed (the event stream went with Redis) is settled. Then: does a worker take
   * the jobs at all, and does every connected worker refuse them?
   */
  private async check(): Promise<void> {
    if (this.checkRunning || this.closed) return;
    this.checkRunning = true;
    try {
      for (const [jobId, waiter] of [...this.waiters]) {
        if (!waiter.added) continue;
        const state = await this.queue.getJobState(jobId);
        if (state === 'active') this.watch.taken();
        else if (state === 'unknown') this.settle(jobId, undefined, 'lost');
        else if (state === 'completed') this.settle(jobId);
        else if (state === 'failed') this.settle(jobId, (await this.queue.getJob(jobId))?.failedReason ?? 'the job failed');
      }
      const reason = await this.watch.look(new Set([...this.waiters.values()].map((waiter) => waiter.job.specDigest)));
      if (reason !== undefined) this.giveUp(reason);
    } catch {
      // Redis unreachable for now: ioredis reconnects, and the next check looks again.
    } finally {
      this.checkRunning = false;
    }
  }

  private specInfo(task: ShardTask): Promise<SpecInfo> {
    let info = this.specs.get(task.specDigest);
    if (info === undefined) {
      info = (async () => {
        const spec = JSON.parse(task.specJson) as KernelSpec;
        const { metrics } = await this.kernelFacts({ json: task.specJson, digest: task.specDigest });
        // Kept as long as the results; written over what is there: a spec planted under this digest would be refused by every worker.
        await this.connection.set(specKey(task.specDigest), task.specJson, 'EX', RESULT_TTL_SECONDS);
        const requires: RunRequirements = {
          crucible: CRUCIBLE_VERSION,
          ruleset: spec.ruleset,
          rulesetVersion: spec.version,
          ...(spec.codeHash === undefined ? {} : { plugin: { id: spec.ruleset, version: spec.version, codeHash: spec.codeHash } }),
        };
        return { metrics, requires };
      })();
      this.specs.set(task.specDigest, info);
    }
    return info;
  }

  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return this.compiled.facts(spec);
  }

  /** The stored result of a shard, checked; undefined if there is none yet. A malformed one is deleted and refused. */
  private async stored(job: ShardJob, metrics: readonly MetricSpec[]): Promise<ShardResult | undefined> {
    const field = resultField(job.shard, job.trials);
    const text = await this.connection.hget(resultsKey(job.run), field);
    if (text === null) return undefined;
    const decoded = decodeResult(
      text,
      metrics,
      job.trials,
      this.secret === undefined ? undefined : { secret: this.secret, where: resultWhere(job.run, field) },
    );
    if (typeof decoded === 'string') {
      // Refused, not merged; deleted so that the retry's result can be stored.
      await this.connection.hdel(resultsKey(job.run), field);
      const message = `the result stored for shard ${job.shard} was refused: ${decoded}`;
      this.note(`crucible: ${message}; the shard is run again\n`);
      throw new Error(message);
    }
    this.seen.delete(decoded.worker);
    this.seen.set(decoded.worker, Date.now());
    return { cells: decoded.cells, trials: job.trials, loopMilliseconds: 0 };
  }

  /**
   * Shards asked for in one turn of the event loop (runSharded starts them SHARDS_PER_JOB at a time)
   * are sent as jobs of up to SHARDS_PER_JOB consecutive shards: the queue's fixed cost per job —
   * taking it, locking it, reporting it — is paid once for several shards.
   */
  run(task: ShardTask): Promise<ShardResult> {
    if (this.closed) return Promise.reject(new Error('the queue is closed'));
    if (this.unusableReason !== undefined) return Promise.reject(new QueueUnusableError(this.unusableReason));
    // A job's result is stored under its shard and trials for any coordinator to reuse: a shard cut short by its own tally would not be that shard.
    if (task.stop !== undefined)
      return Promise.reject(new Error('a shard that stops at its own precision runs on this machine only, not through a queue'));
    return new Promise<ShardResult>((resolve, reject) => {
      this.pending.push({ task, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const tasks = this.pending.splice(0).sort((a, b) => a.task.shard - b.task.shard);
    let group: Pending[] = [];
    const send = (): void => {
      if (group.length > 0) void this.runGroup(group);
      group = [];
    };
    for (const entry of tasks) {
      const last = group.at(-1)?.task;
      const joins =
        last !== undefined &&
        group.length < SHARDS_PER_JOB &&
        entry.task.shard === last.shard + 1 &&
        entry.task.trials === last.trials &&
        entry.task.attempt === last.attempt &&
        entry.task.specDigest === last.specDigest &&
        entry.task.seed === last.seed;
      if (!joins) send();
      group.push(entry);
    }
    send();
  }

  /** Shards already stored are answered from Redis; the others go as one job, and are read back when it completes. */
  private async runGroup(group: readonly Pending[]): Promise<void> {
    const settled = new Set<Pending>();
    const answer = async (entries: readonly Pending[], job: ShardJob, metrics: readonly MetricSpec[]): Promise<Pending[]> => {
      const missing: Pending[] = [];
      await Promise.all(
        entries.map(async (entry) => {
          try {
            const result = await this.stored({ ...job, shard: entry.task.shard }, metrics);
            if (result === undefined) missing.push(entry);
            else {
              settled.add(entry);
              entry.resolve(result);
            }
          } catch (error) {
            settled.add(entry);
            entry.reject(error instanceof Error ? error : new Error(String(error)));
          }
        }),
      );
      return missing.sort((a, b) => a.task.shard - b.task.shard);
    };
    try {
      const first = (group[0] as Pending).task;
      await this.ready;
      const { metrics, requires } = await this.specInfo(first);
      const base: ShardJob = {
        run: runKeyOf(first.specDigest, first.seed),
        specDigest: first.specDigest,
        seed: first.seed,
        shard: first.shard,
        count: 1,
        trials: first.trials,
        requires,
      };
      const missing = await answer(group, base, metrics);
      await this.runJobs(missing, base, first, metrics, answer, settled);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const redis = redisProblem(this.url, message);
      if (redis !== undefined) this.giveUp(redis);
      for (const entry of group)
        if (!settled.has(entry))
          entry.reject(redis === undefined ? (error instanceof Error ? error : new Error(message)) : new QueueUnusableError(redis));
    }
  }

  /**
   * Shards not stored yet, as one job per run of consecutive shards (what is missing may have gaps:
   * shards stored by an earlier coordinator). A job lost from Redis, or completed with results that
   * are gone, is queued again for the shards still missing.
   */
  private async runJobs(
    missing: readonly Pending[],
    base: ShardJob,
    first: ShardTask,
    metrics: readonly MetricSpec[],
    answer: (entries: readonly Pending[], job: ShardJob, metrics: readonly MetricSpec[]) => Promise<Pending[]>,
    settled: Set<Pending>,
    requeues = 0,
  ): Promise<void> {
    const runs: Pending[][] = [];
    for (const entry of missing) {
      const current = runs.at(-1);
      if (current !== undefined && entry.task.shard === (current.at(-1) as Pending).task.shard + 1) current.push(entry);
      else runs.push([entry]);
    }
    await Promise.all(
      runs.map(async (entries) => {
        const job = signedJob({ ...base, shard: (entries[0] as Pending).task.shard, count: entries.length }, this.secret);
        const jobId = jobIdOf(job, first.attempt);
        const waiter: { -readonly [K in keyof Waiter]: Waiter[K] } = { job, added: false, resolve: () => {}, reject: () => {} };
        const finished = new Promise<Ending>((resolve, reject) => {
          waiter.resolve = resolve;
          waiter.reject = reject;
        });
        this.waiters.set(jobId, waiter);
        // Settled (failed, given up) maybe before it is awaited below: handled now, rethrown there.
        finished.catch(() => {});
        // Again after a loss: the spec may have gone with the job (a flushed or restarted Redis).
        if (requeues > 0) await this.connection.set(specKey(job.specDigest), first.specJson, 'EX', RESULT_TTL_SECONDS);
        // One attempt per job: a worker that dies mid-job leaves a stalled job that BullMQ gives to
        // another worker; a job that fails is retried by runSharded, shard by shard, as new jobs.
        await this.queue.add('shard', job, { jobId, removeOnComplete: true, removeOnFail: true, attempts: 1 });
        waiter.added = true;
        const ending = await finished;
        const unanswered = await answer(entries, job, metrics);
        if (unanswered.length === 0) return;
        if (requeues < MAX_REQUEUES && !this.closed) {
          this.note(
            `crucible: shards ${(unanswered[0] as Pending).task.shard}–${(unanswered.at(-1) as Pending).task.shard}: ${ending === 'lost' ? 'the job is no longer in Redis' : 'the job completed but its results are no longer in Redis'} (flushed, restarted or evicting?); queued again\n`,
          );
          await this.runJobs(unanswered, base, first, metrics, answer, settled, requeues + 1);
          return;
        }
        for (const entry of unanswered) {
          settled.add(entry);
          entry.reject(
            new Error(
              `shard ${entry.task.shard}: its job ${ending === 'lost' ? 'was lost' : 'completed'} ${requeues + 1} times and no result was stored`,
            ),
          );
        }
      }),
    );
  }

  /** "3 workers: host-a:812, host-b:77, …" — those whose results arrived in the last minute. */
  status(): string {
    const recent = [...this.seen].filter(([, when]) => Date.now() - when < 60_000).map(([worker]) => worker);
    if (recent.length === 0) return 'waiting for workers';
    const names = recent.length <= 3 ? recent.join(', ') : `${recent.slice(-3).join(', ')}, …`;
    return `${recent.length} worker${recent.length === 1 ? '' : 's'}: ${names}`;
  }

  /**
   * This coordinator stops waiting (a stop rule was met, or Ctrl-C twice); its jobs stay in the
   * queue. Job ids are shared by every coordinator of the same run — that is how they reuse each
   * other's shards — so removing a job could strand another coordinator waiting for it. Left in
   * place, they complete (their results kept for whoever asks next) or expire with the queue.
   */
  cancelPending(): void {
    for (const entry of this.pending.splice(0)) entry.reject(new Error('cancelled: the run has what it needs'));
    for (const waiter of this.waiters.values()) waiter.reject(new Error('cancelled: the run has what it needs'));
    this.waiters.clear();
  }

  async close(force: boolean): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.counting);
    clearInterval(this.checking);
    if (force) this.cancelPending();
    await Promise.allSettled([this.events.close(), this.queue.close()]);
    this.connection.disconnect();
    this.eventsConnection.disconnect();
  }
}
