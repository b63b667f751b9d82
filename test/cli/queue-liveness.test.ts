import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { startCoordinator, until } from '../helpers/coordinator.js';
import { startCrucibleWorker, startRedis, type TestRedis } from '../helpers/redis.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A queued run goes on, or ends with a reason, whatever happens around it (issue 31): its jobs
 * flushed out of Redis, a second coordinator of the same run stopping early, a worker that cannot
 * run it, no worker at all, a full Redis, an interruption. Real redis-server, real worker processes;
 * coordinators check on their jobs every 0.2 s here (CRUCIBLE_TEST_QUEUE_FAST).
 */

const SCENARIO = path.join(REPOSITORY, 'data/battleforge/scenarios/men-at-arms-vs-orc-warriors.yaml');
// 8 shards: one job, ~2 s on a one-thread worker.
const TRIALS = String(8 * 65_536);
const SEED = 31;
const FAST = { CRUCIBLE_TEST_QUEUE_FAST: '1' };

let redis: TestRedis;
let client: Redis;
let workers: ChildProcess[] = [];
let expected: string;

async function startWorkers(count: number, env: NodeJS.ProcessEnv = {}): Promise<void> {
  workers.push(...(await Promise.all(Array.from({ length: count }, () => startCrucibleWorker(redis.url, ['--stalled-after', '0.5'], env)))));
}

const args = (...extra: string[]): string[] => ['run', SCENARIO, '--seed', String(SEED), '--queue', redis.url, '--quiet', ...extra];

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  expected = (await runCli(['run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--quiet'])).stdout;
}, 30_000);

afterEach(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  workers = [];
  await client.flushall();
});

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

describe('a queued run is never left waiting in silence', () => {
  it('re-enqueues the jobs lost to a FLUSHALL, and prints the local bytes', async () => {
    // No worker yet: the job waits in the queue when Redis is flushed.
    const coordinator = startCoordinator(args('--trials', TRIALS));
    await until(async () => (await client.keys('bull:crucible-shards:s-*')).length > 0, 'the job');
    await client.flushall();
    await startWorkers(1);
    const status = await Promise.race([coordinator.exited, new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 15 s'), 15_000))]);
    if (typeof status === 'string') coordinator.child.kill('SIGKILL');
    expect(status, coordinator.stderr()).toBe(0);
    expect(coordinator.stdout()).toBe(expected);
    expect(coordinator.stderr()).toMatch(/shards 0–7: the job is no longer in Redis \(flushed, restarted or evicting\?\); queued again/);
  }, 30_000);

  it('says on a non-terminal stderr that no worker takes its jobs, and finishes once one connects', async () => {
    const coordinator = startCoordinator(args('--trials', String(65_536)));
    await until(() => /no worker has taken a job for \d+ s; no crucible worker is connected/.test(coordinator.stderr()), 'the notice', 10);
    await startWorkers(1);
    expect(await coordinator.exited, coordinator.stderr()).toBe(0);
  }, 30_000);

  it('a second coordinator of the same run, interrupted twice (Ctrl-C, Ctrl-C), leaves the first one\'s jobs alone', async () => {
    // No worker yet: every job of both coordinators (the same ids: the same run) waits in the queue.
    // The first checks on its jobs every 2 s only (the default): it must not need to re-enqueue.
    const first = startCoordinator(args('--trials', TRIALS), { CRUCIBLE_TEST_QUEUE_FAST: '' });
    await until(async () => (await client.keys('bull:crucible-shards:s-*')).length > 0, 'the first job');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const events = await client.xlen('bull:crucible-shards:events');
    const second = startCoordinator(args('--trials', TRIALS));
    // Its jobs are the first's: adding them again writes a "duplicated" event each.
    await until(async () => (await client.xlen('bull:crucible-shards:events')) >= events + 1, 'the second coordinator\'s jobs');
    second.child.kill('SIGINT');
    await until(() => second.stderr().includes('stopping'), 'the first Ctrl-C to be heard');
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(130);
    await startWorkers(2);
    expect(await first.exited, first.stderr()).toBe(0);
    expect(first.stdout()).toBe(expected);
    expect(first.stderr()).not.toMatch(/queued again/);
  }, 40_000);

  it('a job refused by a worker of another version goes to a compatible one', async () => {
    // The outdated worker is there first: it takes the first jobs, and would take their retries too.
    await startWorkers(1, { CRUCIBLE_TEST_WORKER_VERSION: '0.0.1' });
    const [run] = await Promise.all([runCli(args('--trials', TRIALS), FAST), startWorkers(1)]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(expected);
  }, 30_000);

  it('with only workers of another version, exits 2 naming why, after a bounded wait', async () => {
    await startWorkers(1, { CRUCIBLE_TEST_WORKER_VERSION: '0.0.1' });
    const run = await runCli(args('--trials', String(65_536)), FAST);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^error: --queue: no connected worker can run this run's shards \(1 connected, every one refuses them\): worker [^:]+:\d+ refuses shard 0: its crucible is [\d.]+, the run's is [\d.]+$/m);
    expect(run.stderr).not.toMatch(/replay its first trial/);
  }, 30_000);

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
  }, 30_000);

  it('an interrupted queued run says its shards stay in Redis, not "nothing saved"', async () => {
    const coordinator = startCoordinator(['run', SCENARIO, '--seed', String(SEED), '--queue', redis.url, '--trials', TRIALS]);
    await until(async () => (await client.keys('bull:crucible-shards:s-*')).length > 0, 'the job');
    coordinator.child.kill('SIGINT');
    await until(() => coordinator.stderr().includes('stopping'), 'the first Ctrl-C to be heard');
    coordinator.child.kill('SIGINT');
    expect(await coordinator.exited, coordinator.stderr()).toBe(130);
    expect(coordinator.stderr()).toMatch(/the shards done stay in Redis for 7 days: the same command resumes from them/);
    expect(coordinator.stderr()).not.toMatch(/nothing saved/);
  }, 30_000);
});
