import { UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { KernelSpec } from './kernel-spec.js';
import { builtInRuleSystem, type ResolvedRuleSystem } from './rule-systems.js';
import { ShardPool } from './shard-pool.js';
import {
  connect,
  encodeResult,
  MAX_SPEC_BYTES,
  QUEUE_NAME,
  requirementProblem,
  RESULT_TTL_SECONDS,
  resultField,
  resultsKey,
  type ShardJob,
  shardJobSchema,
  specKey,
  reachable,
  WORKER_ID,
} from './shard-queue.js';

/**
 * `crucible worker redis://…`: takes shard jobs from the queue and runs them on this machine's
 * worker-thread pool (the coordinator's side is sim/queue-executor.ts). A job is checked before
 * any work: its shape, then that this worker has the run's crucible, rule system version and
 * plugin code — else it is refused by name, and the coordinator says which worker and why. The
 * kernel module named in the spec is the coordinator's path; the worker compiles with its own.
 */

export interface QueueWorkerOptions {
  readonly url: string;
  /** Worker threads (clamped to the cores by the caller). */
  readonly threads: number;
  /** Plugin rule systems this worker can run, loaded from the modules given with --plugin. */
  readonly plugins: readonly ResolvedRuleSystem[];
  /** A job whose worker stops renewing its lock for this long is given to another worker. */
  readonly stalledAfterMilliseconds: number;
  readonly log: (text: string) => void;
}

export interface RunningQueueWorker {
  /** Shards done by this worker so far. */
  readonly done: () => number;
  /** Finish the shards running, take no more, disconnect. */
  close(): Promise<void>;
}

/** The kernel module this worker compiles a spec's rule system with, and why not if it cannot. */
function localSystem(job: ShardJob, plugins: readonly ResolvedRuleSystem[]): { readonly kernelModule: string } | string {
  const { requires } = job;
  const builtIn = requires.plugin === undefined ? builtInRuleSystem(requires.ruleset) : undefined;
  const plugin = requires.plugin === undefined ? undefined : plugins.find((entry) => entry.plugin?.id === requires.plugin?.id);
  const system = builtIn ?? plugin?.system;
  const problem = requirementProblem(requires, {
    ...(system === undefined ? {} : { rulesetVersion: system.version }),
    ...(plugin?.plugin === undefined ? {} : { pluginCodeHash: plugin.plugin.codeHash }),
  });
  if (problem !== undefined || system === undefined) return `worker ${WORKER_ID} refuses shard ${job.shard}: ${problem ?? 'no such rule system'}`;
  return { kernelModule: system.kernelModule };
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<RunningQueueWorker> {
  await reachable(options.url);
  const connection: Redis = connect(options.url);
  connection.on('error', () => {});
  const pool = new ShardPool(options.threads);
  /** Specs by digest, with this worker's kernel module in place of the coordinator's. */
  const specs = new Map<string, string>();
  let done = 0;

  async function localSpec(job: ShardJob, kernelModule: string): Promise<string> {
    const cached = specs.get(job.specDigest);
    if (cached !== undefined) return cached;
    const text = await connection.get(specKey(job.specDigest));
    if (text === null) throw new UnrecoverableError(`worker ${WORKER_ID}: the inputs of shard ${job.shard} (spec ${job.specDigest.slice(0, 12)}…) are not in Redis (expired?)`);
    if (text.length > MAX_SPEC_BYTES) throw new UnrecoverableError(`worker ${WORKER_ID}: the stored spec of shard ${job.shard} is too large`);
    const spec = JSON.parse(text) as KernelSpec;
    const json = JSON.stringify({ ...spec, kernelModule });
    if (specs.size > 16) specs.clear();
    specs.set(job.specDigest, json);
    return json;
  }

  // The worker's own (blocking) connection: BullMQ leaves a connection it was given open on close.
  const workerConnection = connect(options.url);
  workerConnection.on('error', () => {});
  const worker = new Worker(
    QUEUE_NAME,
    async (job) => {
      const parsed = shardJobSchema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`worker ${WORKER_ID} refuses job ${job.id}: not a crucible shard job`);
      const shardJob = parsed.data;
      const system = localSystem(shardJob, options.plugins);
      if (typeof system === 'string') {
        options.log(`${system}\n`);
        throw new UnrecoverableError(system);
      }
      const specJson = await localSpec(shardJob, system.kernelModule);
      // The job's shards run side by side on the pool; each is stored as soon as all are done, first writer winning.
      const shards = Array.from({ length: shardJob.count }, (_, i) => shardJob.shard + i);
      const results = await Promise.all(shards.map((shard) => pool.run({ specJson, specDigest: shardJob.specDigest, seed: shardJob.seed, shard, trials: shardJob.trials, attempt: 1 })));
      const key = resultsKey(shardJob.run);
      const store = connection.multi();
      results.forEach((result, i) => store.hsetnx(key, resultField(shards[i] as number, shardJob.trials), encodeResult(result.cells, shardJob.trials, WORKER_ID)));
      await store.expire(key, RESULT_TTL_SECONDS).exec();
      done += shardJob.count;
      return { worker: WORKER_ID };
    },
    {
      connection: workerConnection,
      // Jobs of several shards (sim/queue-executor.ts SHARDS_PER_JOB): two per thread keep it busy
      // while the next job is taken and the last one's results stored.
      concurrency: options.threads * 2,
      lockDuration: options.stalledAfterMilliseconds,
      stalledInterval: options.stalledAfterMilliseconds,
      maxStalledCount: 3,
    },
  );
  worker.on('error', (error) => options.log(`crucible worker: ${error.message}\n`));
  await worker.waitUntilReady();
  return {
    done: () => done,
    async close() {
      await worker.close();
      await pool.close(false);
      connection.disconnect();
      workerConnection.disconnect();
    },
  };
}
