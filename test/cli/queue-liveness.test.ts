import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAME, refusalsKey } from '../../queue/shard-queue.js';
import { runCli } from '../helpers/capture.js';
import { startCoordinator, until } from '../helpers/coordinator.js';
import { startCrucibleWorker, startRedis, type TestRedis } from '../helpers/redis.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A queued run goes on, or ends with a reason, whatever happens around it (issue 31): its jobs
 * flushed out of Redis, a second coordinator of the same run stopping early, a worker that cannot
 * run it, no worker at all, a full Redis, an interruption. Real redis-server, real worker processes;
 * coordinators check on their jobs every 0.2 s here (CRUCIBLE_TEST_QUEUE_FAST) unless a test says otherwise.
 *
 * Starting a process costs ~1.5 s of CPU (tsx), so the file keeps one compatible worker and one
 * outdated worker alive across tests, killing one only where a test needs it gone. Where a test needs
 * its jobs to wait in the queue with a worker connected, the queue is paused (BullMQ's pause: no
 * worker takes a job; a FLUSHALL, as after every test, clears it). Coordinators run in this process
 * (runCli) unless a test signals them or reads a real non-terminal stderr. Waits (a minute) and
 * test timeouts (three, vitest.config.ts) are generous: they wait on processes, which on 2 cores
 * shared with other suites (load 16) took over 10 s to start and say their first word; a hang still
 * fails by them.
 */

const SCENARIO = path.join(REPOSITORY, 'data/battleforge/scenarios/men-at-arms-vs-orc-warriors.yaml');
// 2 shards: one job, ~0.5 s on a one-thread worker.
const TRIALS = String(2 * 65_536);
const SEED = 31;
const FAST = { CRUCIBLE_TEST_QUEUE_FAST: '1' };
const OUTDATED = { CRUCIBLE_TEST_WORKER_VERSION: '0.0.1' };

let redis: TestRedis;
let client: Redis;
/** BullMQ leaves a connection it was given open: closed in afterAll. */
let queueConnection: Redis;
let queue: Queue;
let expected: string;
/** The file's long-lived workers: one of this crucible, one claiming another version. */
let compatible: Promise<ChildProcess> | undefined;
let outdated: Promise<ChildProcess> | undefined;

const startWorker = (env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> => startCrucibleWorker(redis.url, ['--stalled-after', '0.5'], env);
/** The compatible worker, started if there is none. */
const compatibleWorker = (): Promise<ChildProcess> => (compatible ??= startWorker());
/** The outdated worker, started if there is none. */
const outdatedWorker = (): Promise<ChildProcess> => (outdated ??= startWorker(OUTDATED));

async function kill(worker: Promise<ChildProcess> | undefined): Promise<void> {
  const child = await worker?.catch(() => undefined);
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}
async function killCompatible(): Promise<void> {
  const worker = compatible;
  compatible = undefined;
  await kill(worker);
}
async function killOutdated(): Promise<void> {
  const worker = outdated;
  outdated = undefined;
  await kill(worker);
}

const args = (...extra: string[]): string[] => ['run', SCENARIO, '--seed', String(SEED), '--queue', redis.url, '--quiet', ...extra];
const jobQueued = async (): Promise<boolean> => (await client.keys('bull:crucible-shards:s-*')).length > 0;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  queueConnection = new Redis(redis.url, { maxRetriesPerRequest: null });
  queue = new Queue(QUEUE_NAME, { connection: queueConnection });
  expected = (await runCli(['run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--quiet'])).stdout;
}, 60_000);

afterEach(async () => {
  // Also un-pauses the queue.
  await client.flushall();
});

afterAll(async () => {
  await Promise.all([killCompatible(), killOutdated()]);
  await queue?.close();
  queueConnection?.disconnect();
  client?.disconnect();
  await redis?.stop();
});

describe('a queued run is never left waiting in silence', () => {
  it('a Redis out of memory ends the run with exit 2 and the reason, not as a bug', async () => {
    await client.config('SET', 'maxmemory', '1');
    await client.config('SET', 'maxmemory-policy', 'noeviction');
    try {
      const run = await runCli(args('--trials', String(65_536)), FAST);
      expect(run.status, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/^error: --queue: the Redis at redis:\/\/127\.0\.0\.1:\d+ is out of memory/m);
      expect(run.stderr).not.toMatch(/replay its first trial/);
    } finally {
      await client.config('SET', 'maxmemory', '0');
    }
  });

  it('says on a non-terminal stderr that no worker takes its jobs, and finishes once one connects', async () => {
    // No worker at all: the coordinator is a real process, its stderr a pipe.
    await Promise.all([killCompatible(), killOutdated()]);
    const coordinator = startCoordinator(args('--trials', String(65_536)));
    try {
      // The process's start (tsx) and the notice's own delay: at load 16 more than the 10 s this waited once.
      await until(
        () => /no worker has taken a job for \d+ s; no crucible worker is connected/.test(coordinator.stderr()),
        'the notice',
        60,
      );
      await compatibleWorker();
      expect(await coordinator.exited, coordinator.stderr()).toBe(0);
    } finally {
      // A coordinator left waiting would queue this run's job again beside the next test's (the same run, the same job ids).
      if (coordinator.child.exitCode === null && coordinator.child.signalCode === null) coordinator.child.kill('SIGKILL');
    }
  });

  it('re-enqueues the jobs lost to a FLUSHALL, and prints the local bytes', async () => {
    await killOutdated();
    await compatibleWorker();
    // The queue paused: the job waits in the queue when Redis is flushed (which un-pauses it).
    await queue.pause();
    const running = runCli(args('--trials', TRIALS), FAST);
    await until(jobQueued, 'the job');
    await client.flushall();
    const status = await Promise.race([
      running,
      new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 60 s'), 60_000)),
    ]);
    if (typeof status === 'string') throw new Error(status);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toBe(expected);
    expect(status.stderr).toMatch(/shards 0–1: the job is no longer in Redis \(flushed, restarted or evicting\?\); queued again/);
  });

  it("a second coordinator of the same run, interrupted twice (Ctrl-C, Ctrl-C), leaves the first one's jobs alone", async () => {
    await killOutdated();
    await compatibleWorker();
    // The queue paused: every job of both coordinators (the same ids: the same run) waits in the queue.
    // The first checks on its jobs every 2 s only (the default): it must not need to re-enqueue.
    await queue.pause();
    const first = runCli(args('--trials', TRIALS), { CRUCIBLE_TEST_QUEUE_FAST: '' });
    await until(jobQueued, 'the first job');
    const events = await client.xlen('bull:crucible-shards:events');
    const second = startCoordinator(args('--trials', TRIALS));
    // Its jobs are the first's: adding them again writes a "duplicated" event each.
    await until(async () => (await client.xlen('bull:crucible-shards:events')) >= events + 1, "the second coordinator's jobs");
    second.child.kill('SIGINT');
    await until(() => second.stderr().includes('stopping'), 'the first Ctrl-C to be heard');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(130);
    await queue.resume();
    const run = await first;
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).not.toMatch(/queued again/);
  });

  it('an interrupted queued run says its shards stay in Redis, not "nothing saved"', async () => {
    // The queue paused: nothing is taken. The outdated worker (for the next tests) starts meanwhile: it takes nothing either.
    await queue.pause();
    const coordinator = startCoordinator(['run', SCENARIO, '--seed', String(SEED), '--queue', redis.url, '--trials', TRIALS]);
    void outdatedWorker();
    await until(jobQueued, 'the job');
    coordinator.child.kill('SIGINT');
    await until(() => coordinator.stderr().includes('stopping'), 'the first Ctrl-C to be heard');
    coordinator.child.kill('SIGINT');
    expect(await coordinator.exited, coordinator.stderr()).toBe(130);
    expect(coordinator.stderr()).toMatch(/the shards done stay in Redis for 7 days: the same command resumes from them/);
    expect(coordinator.stderr()).not.toMatch(/nothing saved/);
    await outdatedWorker();
  });

  it('a job refused by a worker of another version goes to a compatible one', async () => {
    // The outdated worker is there first, alone: it takes the first jobs, and would take their retries too.
    await killCompatible();
    await outdatedWorker();
    // Default timings, not FAST: the coordinator must not give up (3 s when FAST, 20 s here) while the
    // compatible worker is still starting, which takes seconds on a loaded machine.
    const [run] = await Promise.all([runCli(args('--trials', TRIALS)), compatibleWorker()]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(expected);
    // The outdated worker did refuse the run's job.
    const refusals = Object.values(
      await client.hgetall(refusalsKey((await client.keys('crucible:spec:*'))[0]?.slice('crucible:spec:'.length) ?? '')),
    );
    expect(refusals.join('\n')).toMatch(/refuses shard 0: its crucible is [\d.]+, the run's is [\d.]+/);
  });

  it('with only workers of another version, exits 2 naming why, after a bounded wait', async () => {
    await killCompatible();
    await outdatedWorker();
    const run = await runCli(args('--trials', String(65_536)), FAST);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(
      /^error: --queue: no connected worker can run this run's shards \(1 connected, every one refuses them\): worker [^:]+:\d+ refuses shard 0: its crucible is [\d.]+, the run's is [\d.]+$/m,
    );
    expect(run.stderr).not.toMatch(/replay its first trial/);
  });
});
