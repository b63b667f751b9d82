import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../helpers/coordinator.js';
import { startCrucibleWorker, startRedis, type TestRedis } from '../helpers/redis.js';
import { REPOSITORY } from '../helpers/repository.js';

const SECRET = { CRUCIBLE_SECRET: 'a test secret, long enough' };

// Redis and both worker processes (~1.5 s of CPU each to start) start while this file's other
// modules load, below: the file's wall time is the longer of the two, not their sum.
const started = (async () => {
  const server = await startRedis();
  return { server, workers: await Promise.all([startCrucibleWorker(server.url), startCrucibleWorker(server.url, [], SECRET)]) };
})();
started.catch(() => {});
const { Queue: BullQueue } = await import('bullmq');
const { Redis: IORedis } = await import('ioredis');
const { CRUCIBLE_VERSION, encodeResult, QUEUE_NAME, refusalsKey, resultField, resultsKey, specKey } = await import(
  '../../queue/shard-queue.js'
);
const { runCli } = await import('../helpers/capture.js');

/**
 * What a worker and a coordinator trust in Redis (issue 31): a worker runs only a spec that is the
 * one its job's digest names and whose scenario passes its rule system's schema; with
 * CRUCIBLE_SECRET, a job without its tag is refused and a stored result without its tag is
 * recomputed, not merged.
 */

const SCENARIO = path.join(REPOSITORY, 'data/battleforge/scenarios/men-at-arms-vs-orc-warriors.yaml');
const SEED = 3131;
let redis: TestRedis;
let client: Redis;
let queue: Queue;
/** The queue's connection: BullMQ leaves a connection it was given open. */
let queueConnection: Redis;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  const { server, workers: running } = await started;
  redis = server;
  workers.push(...running);
  client = new IORedis(redis.url);
  queueConnection = new IORedis(redis.url, { maxRetriesPerRequest: null });
  queue = new BullQueue(QUEUE_NAME, { connection: queueConnection });
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await queue?.close();
  queueConnection?.disconnect();
  client?.disconnect();
  await redis?.stop();
});

const digestOf = (spec: Record<string, unknown>): string => {
  const { kernelModule: _, ...content } = spec;
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
};

async function failedReasonOf(jobId: string): Promise<string> {
  let reason = '';
  await until(async () => {
    reason = (await queue.getJob(jobId))?.failedReason ?? '';
    return reason !== '';
  }, `job ${jobId} to fail`);
  return reason;
}

describe('the queue trusts only what it can check', () => {
  it('a worker refuses a stored spec its digest does not name, and one whose scenario its rule system refuses', async () => {
    const probe = await runCli(['run', SCENARIO, '--trials', '65536', '--seed', String(SEED), '--queue', redis.url, '--quiet'], {
      CRUCIBLE_TEST_QUEUE_FAST: '1',
    });
    expect(probe.status, probe.stderr).toBe(0);
    const [key] = await client.keys('crucible:spec:*');
    const spec = JSON.parse((await client.get(key ?? '')) ?? '{}') as {
      version: string;
      scenario: { sides: { units: { models: number }[] }[] };
    };
    const requires = { crucible: CRUCIBLE_VERSION, ruleset: 'battleforge', rulesetVersion: spec.version };
    const unit = spec.scenario.sides[0]?.units[0];
    if (unit !== undefined) unit.models = 0;
    const tampered = spec as unknown as Record<string, unknown>;
    // A made-up digest: the spec is not the one it names.
    await client.set(specKey('f'.repeat(64)), JSON.stringify(tampered));
    await queue.add(
      'shard',
      { run: 'e'.repeat(64), specDigest: 'f'.repeat(64), seed: 1, shard: 0, trials: 10, requires },
      { jobId: 'forged-digest', attempts: 1 },
    );
    expect(await failedReasonOf('forged-digest')).toMatch(
      /refuses shard 0: the stored spec's digest is [0-9a-f]{12}…, the job names ffffffffffff…$/,
    );
    // Its own digest: only the rule system's schema stops it.
    const digest = digestOf(tampered);
    await client.set(specKey(digest), JSON.stringify(tampered));
    await queue.add(
      'shard',
      { run: 'd'.repeat(64), specDigest: digest, seed: 1, shard: 0, trials: 10, requires },
      { jobId: 'invalid-scenario', attempts: 1 },
    );
    expect(await failedReasonOf('invalid-scenario')).toMatch(
      /refuses shard 0: the stored spec's scenario is not valid: sides\.0\.units\.0\.models: /,
    );
  });

  it('with CRUCIBLE_SECRET, a forged stored result is recomputed, not merged, and an unsigned job is refused', async () => {
    await client.flushall();
    const args = ['run', SCENARIO, '--trials', '65536', '--seed', String(SEED), '--queue', redis.url, '--quiet'];
    const expected = (await runCli(['run', SCENARIO, '--trials', '65536', '--seed', String(SEED), '--quiet'])).stdout;
    // The worker without the secret refuses the signed jobs: the one with it runs them.
    const first = await runCli(args, { ...SECRET, CRUCIBLE_TEST_QUEUE_FAST: '1' });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toBe(expected);
    const [key] = await client.keys('crucible:results:*');
    const run = (key ?? '').slice('crucible:results:'.length);
    const field = resultField(0, 65_536);
    const stored = JSON.parse((await client.hget(resultsKey(run), field)) ?? '{}') as { cells: string };
    // Well formed, every histogram still adding up: one trial moved from the first bucket to the second.
    const bytes = Buffer.from(stored.cells, 'base64');
    const cells = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    const from = (cells[0] ?? 0) > 0 ? 0 : 1;
    cells[from] = (cells[from] ?? 0) - 1;
    cells[1 - from] = (cells[1 - from] ?? 0) + 1;
    await client.hset(resultsKey(run), field, encodeResult(cells, 65_536, 'forger:1'));
    const second = await runCli(args, { ...SECRET, CRUCIBLE_TEST_QUEUE_FAST: '1' });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toBe(expected);
    expect(second.stderr).toMatch(
      /the result stored for shard 0 was refused: it has no tag \(CRUCIBLE_SECRET is set\); the shard is run again/,
    );
    // A job written straight into Redis, without the tag: the worker with the secret will not run it.
    // The worker without the secret is stopped first (it holds no job: both runs are done), so the
    // refusal awaited is the signed worker's, whatever either worker's refusal pause happens to be.
    workers[0]?.kill('SIGKILL');
    await queue.add(
      'shard',
      {
        run: 'c'.repeat(64),
        specDigest: 'c'.repeat(64),
        seed: 1,
        shard: 0,
        trials: 10,
        requires: { crucible: CRUCIBLE_VERSION, ruleset: 'battleforge', rulesetVersion: '1' },
      },
      { jobId: 'unsigned', attempts: 1 },
    );
    await until(
      async () =>
        Object.values(await client.hgetall(refusalsKey('c'.repeat(64)))).some((entry) =>
          /the job is not signed and this worker has CRUCIBLE_SECRET set/.test(entry),
        ),
      'the unsigned job to be refused',
    );
  });
});
