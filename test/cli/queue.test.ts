import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeResult, jobIdOf, QUEUE_NAME, refusalsKey, resultField, resultsKey } from '../../queue/shard-queue.js';
import { runCli } from '../helpers/capture.js';
import { startCrucibleWorker, startRedis, type TestRedis } from '../helpers/redis.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Shards through a real Redis (Debian's redis-server on 127.0.0.1) and real `crucible worker`
 * processes: the coordinator's output equals the local run's byte for byte when a worker is
 * killed mid-run, when the coordinator itself is killed and started again, and when the results
 * hash holds duplicated or malformed results; a worker refuses a job of another crucible by name.
 */

const BINARY = path.join(REPOSITORY, 'bin', 'crucible.js');
const SCENARIO = path.join(REPOSITORY, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml');
// 16 shards: long enough on two one-thread workers to kill one while it holds shards.
const TRIALS = String(16 * 65_536);
const SEED = 20261122;

let redis: TestRedis;
let client: Redis;
/** Every connection a test opens, closed before its Redis stops (BullMQ leaves a given connection open; one left would retry for good). */
const connections: Redis[] = [];
const connect = (): Redis => {
  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  connections.push(connection);
  return connection;
};
const workers: ChildProcess[] = [];

async function startWorker(): Promise<ChildProcess> {
  const child = await startCrucibleWorker(redis.url, ['--stalled-after', '0.5']);
  workers.push(child);
  return child;
}

/** Shard results stored so far (each test starts from an empty Redis). */
async function resultsStored(): Promise<number> {
  let total = 0;
  for (const key of await client.keys('crucible:results:*')) total += await client.hlen(key);
  return total;
}

async function until(condition: () => Promise<boolean>, what: string, seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const queued = () => runCli(['run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--queue', redis.url]);
/** The same run on this machine (on the main thread): what every queued run must print. */
let expected: string;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url);
  const [localRun] = await Promise.all([
    runCli(['run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--workers', '0', '--quiet']),
    startWorker(),
    startWorker(),
  ]);
  expected = localRun.stdout;
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  client?.disconnect();
  for (const connection of connections) connection.disconnect();
  await redis?.stop();
});

describe('crucible run --queue with crucible worker processes on a real Redis', () => {
  it("prints the local run's bytes though one of two workers is killed (SIGKILL) mid-run", async () => {
    await client.flushall();
    const running = queued();
    await until(async () => (await resultsStored()) >= 2, 'the first results');
    const victim = workers[0] as ChildProcess;
    victim.kill('SIGKILL');
    // A replacement joins while the run goes on (as an autoscaler's would); the killed worker's shards stall and are redelivered.
    const replacement = startWorker();
    const run = await running;
    await replacement;
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe(expected);
    expect(run.stderr).toMatch(/trials in .* on the queue \(\d workers?: /);
  });

  it('a coordinator killed mid-run is resumed from the results in Redis by the same command, to the same bytes', async () => {
    await client.flushall();
    const coordinator = spawn(
      process.execPath,
      [BINARY, 'run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--queue', redis.url, '--quiet'],
      { stdio: 'ignore' },
    );
    await until(async () => (await resultsStored()) >= 3, 'the first results');
    coordinator.kill('SIGKILL');
    const resumed = await queued();
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toBe(expected);
  });

  it('merges each shard once though jobs are duplicated, and refuses (then recomputes) a malformed stored result', async () => {
    await client.flushall();
    // The run's key is what the coordinator will use: learn it from a first, one-shard run's.
    const probe = await runCli(['run', SCENARIO, '--trials', '65536', '--seed', String(SEED), '--queue', redis.url, '--quiet']);
    expect(probe.status).toBe(0);
    const [key] = await client.keys('crucible:results:*');
    const run = (key ?? '').slice('crucible:results:'.length);
    const field = resultField(0, 65_536);
    const good = (await client.hget(resultsKey(run), field)) ?? '';
    // A malformed result for shard 0 (one count moved: trials no longer add up) and one of the wrong size for shard 1.
    const document = JSON.parse(good) as { cells: string };
    const bytes = Buffer.from(document.cells, 'base64');
    const cells = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    cells[0] = (cells[0] ?? 0) + 1;
    await client.hset(resultsKey(run), field, encodeResult(cells, 65_536, 'forger:1'));
    await client.hset(resultsKey(run), resultField(1, 65_536), encodeResult(new Float64Array(3), 65_536, 'forger:1'));
    // Duplicated jobs of shards 2 and 3, queued by someone else before the run.
    const queue = new Queue(QUEUE_NAME, { connection: connect() });
    const requires = { crucible: '0.1.0', ruleset: 'heroic', rulesetVersion: 'x' };
    for (const shard of [2, 3])
      await queue.add(
        'shard',
        { run, specDigest: '0'.repeat(64), seed: SEED, shard, trials: 65_536, requires },
        { jobId: jobIdOf({ run, shard, trials: 65_536 }, 9) },
      );
    const result = await queued();
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(expected);
    expect(result.stderr).toMatch(
      /the result stored for shard 0 was refused: the histogram of winner holds \d+ trials, not 65536; the shard is run again/,
    );
    expect(result.stderr).toMatch(/the result stored for shard 1 was refused: holds 3 cells/);
    await queue.close();
  });

  it('a worker refuses a job of another crucible version, naming itself and the difference, and puts it back unspent', async () => {
    const queue = new Queue(QUEUE_NAME, { connection: connect() });
    const job = {
      run: 'b'.repeat(64),
      specDigest: 'c'.repeat(64),
      seed: 1,
      shard: 0,
      trials: 10,
      requires: { crucible: '0.0.1', ruleset: 'heroic', rulesetVersion: '1' },
    };
    const jobId = jobIdOf(job, 1);
    await queue.add('shard', job, { jobId, attempts: 1 });
    // The refusal is recorded for the coordinator (which ends the run only when every worker refuses).
    let refusal = '';
    await until(async () => {
      refusal = Object.values(await client.hgetall(refusalsKey(job.specDigest)))[0] ?? '';
      return refusal !== '';
    }, 'the job to be refused');
    expect(refusal).toMatch(/^\d+ worker [^:]+:\d+ refuses shard 0: its crucible is \d+\.\d+\.\d+, the run's is 0\.0\.1$/);
    const stored = await queue.getJob(jobId);
    expect(stored?.attemptsMade ?? 0).toBe(0);
    expect(['waiting', 'delayed', 'active', 'prioritized']).toContain(await queue.getJobState(jobId));
    await queue.close();
  });
});
