import { DelayedError, type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { KernelSpec } from '../sim/kernel-spec.js';
import type { ScenarioBase } from '../engine/rule-system.js';
import type { ResolvedRuleSystem } from '../input/platform.js';
import { builtInRuleSystem } from '../input/rule-systems.js';
import { ShardPool } from '../sim/shard-pool.js';
import {
  connect,
  encodeResult,
  jobTagProblem,
  MAX_SPEC_BYTES,
  REFUSAL_TTL_SECONDS,
  refusalsKey,
  resultWhere,
  specDigestProblem,
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
 * worker-thread pool (the coordinator's side is queue/queue-executor.ts). A job is checked before
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
  /** $CRUCIBLE_SECRET: jobs must carry its tag, and results are stored with one. */
  readonly secret?: string | undefined;
  /** Test only ($CRUCIBLE_TEST_WORKER_VERSION): the crucible version this worker claims, to play an outdated one. */
  readonly claimedVersion?: string | undefined;
}

/** A refusing worker takes no job for this long, doubled at each refusal in a row: compatible workers get the job meanwhile. */
const FIRST_PAUSE_MILLISECONDS = 500;
const LONGEST_PAUSE_MILLISECONDS = 30_000;
/** A job refused this many times is failed instead: its coordinator may be long gone, and it would bounce between workers for good. */
const MOST_REFUSALS_OF_A_JOB = 200;

export interface RunningQueueWorker {
  /** Shards done by this worker so far. */
  readonly done: () => number;
  /** Finish the shards running, take no more, disconnect. */
  close(): Promise<void>;
}

/** The kernel module this worker compiles a spec's rule system with, and why not if it cannot. */
async function localSystem(
  job: ShardJob,
  plugins: readonly ResolvedRuleSystem[],
  crucible: string | undefined,
): Promise<ResolvedRuleSystem['system'] | string> {
  const { requires } = job;
  const builtIn = requires.plugin === undefined ? await builtInRuleSystem(requires.ruleset) : undefined;
  const plugin = requires.plugin === undefined ? undefined : plugins.find((entry) => entry.plugin?.id === requires.plugin?.id);
  const system = builtIn ?? plugin?.system;
  const problem = requirementProblem(requires, {
    ...(crucible === undefined ? {} : { crucible }),
    ...(system === undefined ? {} : { rulesetVersion: system.version }),
    ...(plugin?.plugin === undefined ? {} : { pluginCodeHash: plugin.plugin.codeHash }),
  });
  if (problem !== undefined || system === undefined)
    return `worker ${WORKER_ID} refuses shard ${job.shard}: ${problem ?? 'no such rule system'}`;
  return system;
}

/**
 * Why the spec stored for `job` may not run here, or undefined: it must be the one the job's digest
 * names, of the rule system the job requires, and its scenario must pass that rule system's schema —
 * the bounds the CLI checks (a spec written straight into Redis has not been through the CLI).
 */
function specProblem(text: string, job: ShardJob, system: ResolvedRuleSystem['system']): string | undefined {
  if (text.length > MAX_SPEC_BYTES) return `the stored spec is larger than ${MAX_SPEC_BYTES} bytes`;
  const digest = specDigestProblem(text, job.specDigest);
  if (digest !== undefined) return digest;
  const spec = JSON.parse(text) as Partial<KernelSpec>;
  if (
    spec.ruleset !== job.requires.ruleset ||
    spec.version !== job.requires.rulesetVersion ||
    spec.codeHash !== job.requires.plugin?.codeHash
  )
    return 'the stored spec is of another rule system than the job requires';
  const parsed = system.scenarioSchema.safeParse(spec.scenario);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `the stored spec's scenario is not valid: ${issue === undefined ? 'refused by its schema' : `${issue.path.join('.') || '(root)'}: ${issue.message}`}`;
  }
  // What it refers to (profiles, armies), as the loader checks them: the bounds that keep a trial's tables and memory small.
  const refsIssue = system.checkRefs?.(parsed.data as unknown as ScenarioBase, spec.refs)[0];
  if (refsIssue !== undefined)
    return `the stored spec's ${refsIssue.path[0] === 'refs' ? 'refs' : 'scenario'} are not valid: ${refsIssue.path.join('.') || '(root)'}: ${refsIssue.message}`;
  return undefined;
}

export async function startQueueWorker(options: QueueWorkerOptions): Promise<RunningQueueWorker> {
  await reachable(options.url);
  const connection: Redis = connect(options.url);
  connection.on('error', () => {});
  const pool = new ShardPool(options.threads);
  /** Specs by digest, with this worker's kernel module in place of the coordinator's. */
  const specs = new Map<string, string>();
  let done = 0;

  async function localSpec(job: ShardJob, system: ResolvedRuleSystem['system']): Promise<string> {
    const cached = specs.get(job.specDigest);
    if (cached !== undefined) return cached;
    const text = await connection.get(specKey(job.specDigest));
    if (text === null)
      throw new UnrecoverableError(
        `worker ${WORKER_ID}: the inputs of shard ${job.shard} (spec ${job.specDigest.slice(0, 12)}…) are not in Redis (expired?)`,
      );
    const problem = specProblem(text, job, system);
    if (problem !== undefined) {
      options.log(`crucible worker ${WORKER_ID} refuses shard ${job.shard}: ${problem}\n`);
      throw new UnrecoverableError(`worker ${WORKER_ID} refuses shard ${job.shard}: ${problem}`);
    }
    const spec = JSON.parse(text) as KernelSpec;
    const json = JSON.stringify({ ...spec, kernelModule: system.kernelModule });
    if (specs.size > 16) specs.clear();
    specs.set(job.specDigest, json);
    return json;
  }

  // The worker's own (blocking) connection: BullMQ leaves a connection it was given open on close.
  const workerConnection = connect(options.url);
  workerConnection.on('error', () => {});
  /** Refusals in a row: each pauses this worker twice as long as the last. */
  let refusals = 0;
  let paused = false;
  let resuming: NodeJS.Timeout | undefined;

  /**
   * A job this worker cannot run (another version, a missing plugin, another secret) goes back to
   * the queue for a worker that can, without using up an attempt: the refusal is recorded for the
   * coordinator (which ends the run if every connected worker refuses), and this worker takes no job
   * for a while so that the others get it.
   */
  async function refuse(job: Job, shardJob: ShardJob, reason: string, token: string | undefined): Promise<never> {
    options.log(`${reason}\n`);
    refusals++;
    if (job.attemptsStarted > MOST_REFUSALS_OF_A_JOB)
      throw new UnrecoverableError(`${reason} (refused ${job.attemptsStarted} times: no worker can run it)`);
    await connection
      .multi()
      .hset(refusalsKey(shardJob.specDigest), WORKER_ID, `${Date.now()} ${reason}`)
      .expire(refusalsKey(shardJob.specDigest), REFUSAL_TTL_SECONDS)
      .exec();
    await job.moveToDelayed(Date.now() + 100, token);
    if (!paused) {
      paused = true;
      const pause = Math.min(LONGEST_PAUSE_MILLISECONDS, FIRST_PAUSE_MILLISECONDS * 2 ** (refusals - 1));
      void worker.pause(true).then(() => {
        resuming = setTimeout(() => {
          paused = false;
          worker.resume();
        }, pause);
      });
    }
    throw new DelayedError(reason);
  }

  const worker: Worker = new Worker(
    QUEUE_NAME,
    async (job, token) => {
      const parsed = shardJobSchema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`worker ${WORKER_ID} refuses job ${job.id}: not a crucible shard job`);
      const shardJob = parsed.data;
      const untrusted = jobTagProblem(shardJob, options.secret);
      if (untrusted !== undefined) return refuse(job, shardJob, `worker ${WORKER_ID} refuses shard ${shardJob.shard}: ${untrusted}`, token);
      const system = await localSystem(shardJob, options.plugins, options.claimedVersion);
      if (typeof system === 'string') return refuse(job, shardJob, system, token);
      refusals = 0;
      const specJson = await localSpec(shardJob, system);
      // The job's shards run side by side on the pool; each is stored as soon as all are done, first writer winning.
      const shards = Array.from({ length: shardJob.count }, (_, i) => shardJob.shard + i);
      const results = await Promise.all(
        shards.map((shard) =>
          pool.run({ specJson, specDigest: shardJob.specDigest, seed: shardJob.seed, shard, trials: shardJob.trials, attempt: 1 }),
        ),
      );
      const key = resultsKey(shardJob.run);
      const store = connection.multi();
      results.forEach((result, i) => {
        const field = resultField(shards[i] as number, shardJob.trials);
        const signing = options.secret === undefined ? undefined : { secret: options.secret, where: resultWhere(shardJob.run, field) };
        store.hsetnx(key, field, encodeResult(result.cells, shardJob.trials, WORKER_ID, signing));
      });
      await store.expire(key, RESULT_TTL_SECONDS).exec();
      done += shardJob.count;
      return { worker: WORKER_ID };
    },
    {
      connection: workerConnection,
      // Named: the coordinator tells connected workers apart, to know when every one of them refuses its run.
      name: WORKER_ID,
      // Jobs of several shards (queue/queue-executor.ts SHARDS_PER_JOB): two per thread keep it busy
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
      clearTimeout(resuming);
      await worker.close();
      await pool.close(false);
      connection.disconnect();
      workerConnection.disconnect();
    },
  };
}
