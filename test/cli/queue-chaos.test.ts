import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runCli } from '../helpers/capture.js';
import { until } from '../helpers/coordinator.js';
import { startCrucibleWorker, startRedis, type TestRedis } from '../helpers/redis.js';
import { mulberry32 } from '../helpers/mulberry32.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A queued run under a seeded schedule of trouble (issue 31): a worker killed outright and
 * replaced, a worker paused (SIGSTOP) and resumed, an outage (every worker killed, Redis killed and
 * started again empty — its jobs, spec and results gone: no persistence — new workers), and a
 * second coordinator of the same run. Both
 * coordinators print the local run's bytes. The coordinators run in this process (runCli: each
 * with its own connections, as in two processes), checking on their jobs every 0.2 s
 * (CRUCIBLE_TEST_QUEUE_FAST); the workers are real processes.
 */

const SCENARIO = path.join(REPOSITORY, 'data/battleforge/scenarios/men-at-arms-vs-orc-warriors.yaml');
// 12 shards: two jobs (8 and 4), enough for trouble to land while shards are in flight (two one-thread workers).
const TRIALS = String(12 * 65_536);
const SEED = 4242;
/** Changing it gives another schedule; every schedule must end in the same bytes. */
const CHAOS_SEED = 31;

let redis: TestRedis;
const workers: ChildProcess[] = [];
const coordinators: Promise<CliRun>[] = [];
const FAST = { CRUCIBLE_TEST_QUEUE_FAST: '1' };

const sleep = (milliseconds: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, milliseconds));

async function startWorker(): Promise<ChildProcess> {
  const worker = await startCrucibleWorker(redis.url, ['--stalled-after', '0.5']);
  workers.push(worker);
  return worker;
}

beforeAll(async () => {
  redis = await startRedis();
}, 60_000);

afterAll(async () => {
  for (const worker of workers) {
    worker.kill('SIGCONT');
    worker.kill('SIGKILL');
  }
  await redis?.stop();
});

describe('a queued run under kills, pauses, a Redis restart and a duplicate coordinator', () => {
  it("ends in the local run's bytes", async () => {
    await Promise.all([startWorker(), startWorker()]);
    const args = ['run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--queue', redis.url, '--quiet'];
    const random = mulberry32(CHAOS_SEED);
    const pick = (): ChildProcess => workers[Math.floor(random() * workers.length)] as ChildProcess;
    const events: { readonly at: number; readonly act: () => Promise<void> }[] = [
      {
        at: 300 + random() * 1500,
        act: async () => {
          const paused = pick();
          paused.kill('SIGSTOP');
          await sleep(300 + random() * 700);
          paused.kill('SIGCONT');
        },
      },
      {
        at: 300 + random() * 1500,
        act: async () => {
          pick().kill('SIGKILL');
          void startWorker();
        },
      },
      {
        // An outage once both coordinators wait and the first results are in: every worker gone with
        // the jobs it held, Redis back empty; a new worker joins (and the replacement above, if it was still starting).
        at: random() * 500,
        act: async () => {
          await until(
            async () => {
              const client = new Redis(redis.url, { retryStrategy: () => null });
              client.on('error', () => {});
              try {
                const listening = String(await client.client('LIST'))
                  .split('\n')
                  .filter((line) => /name=\S*:qe\b/.test(line)).length;
                const results = (await client.keys('crucible:results:*')).length;
                return listening >= 2 && results >= 1;
              } finally {
                client.disconnect();
              }
            },
            'both coordinators waiting and the first results',
            60,
          );
          for (const worker of workers) worker.kill('SIGKILL');
          await redis.restart();
          await startWorker();
        },
      },
      {
        at: random() * 500,
        act: async () => {
          coordinators.push(runCli(args, FAST));
        },
      },
    ];
    coordinators.push(runCli(args, FAST));
    await Promise.all(
      events.map(async (event) => {
        await sleep(event.at);
        await event.act();
      }),
    );
    const runs = await Promise.all(coordinators);
    expect(coordinators).toHaveLength(2);
    // No bound on the wall time here: a run that never recovers fails by the test's timeout, and how
    // fast a queued run is, bench/queue.ts measures (a 30 s bound failed at 31.3 s under load 11).
    // The local run's bytes, computed once the workers are idle (alongside them, it slowed their start and the run).
    const local = await runCli(['run', SCENARIO, '--trials', TRIALS, '--seed', String(SEED), '--quiet']);
    for (const run of runs) {
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe(local.stdout);
    }
    // Bounds for a loaded machine: on 2 cores shared with other work (load 7–8) the coordinators' start-up alone took over 20 s.
  }, 240_000);
});
