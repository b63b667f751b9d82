import { Redis } from 'ioredis';
import { QueueExecutor } from '../queue/queue-executor.js';
import { SHARD_TRIALS } from '../sim/run.js';
import { ShardPool } from '../sim/shard-pool.js';
import { encodeResult, resultField, resultsKey, runKeyOf } from '../queue/shard-queue.js';
import { runSharded } from '../sim/sharded-run.js';
import { startCrucibleWorker, startRedis } from '../test/helpers/redis.js';
import { median } from './measure.js';
import { engagementPlan, type Target } from './parallel.js';

/**
 * Beyond one machine (issue 18), measured on this one with a real Redis (Debian's redis-server on
 * 127.0.0.1) and real `crucible worker` processes:
 * - overhead: the same runs on 2 worker processes of 1 thread each through Redis and on the local
 *   pool of 2 threads, repetitions alternating, each on a new seed (so no result is reused);
 * - merge rate: a coordinator reading, checking and merging shard results already in Redis (the
 *   work it does per shard however many workers there are), in shards/s.
 */

export const TARGET_QUEUE_OVERHEAD = 0.05;
export const TARGET_MERGE_SHARDS_PER_SECOND = 10_000;

export interface QueueSettings {
  readonly shards: number;
  readonly repetitions: number;
  readonly mergeShards: number;
}

export interface QueueResult {
  readonly shards: number;
  readonly local: number[];
  readonly queued: number[];
  readonly mergeShardsPerSecond: number;
  readonly mergeShards: number;
}

export async function measureQueue(settings: QueueSettings, log: (line: string) => void): Promise<QueueResult> {
  const redis = await startRedis();
  const workers = await Promise.all([startCrucibleWorker(redis.url), startCrucibleWorker(redis.url)]);
  const pool = new ShardPool(2);
  const queue = await QueueExecutor.open(redis.url);
  const local: number[] = [];
  const queued: number[] = [];
  try {
    const timed = async (executor: ShardPool | QueueExecutor, seed: number): Promise<number> => {
      const started = performance.now();
      const outcome = await runSharded(executor, { ...engagementPlan(settings.shards * SHARD_TRIALS), seed });
      return outcome.tally.trials / ((performance.now() - started) / 1000);
    };
    // Warm both: threads started, kernels compiled, V8 warmed, on a seed not measured.
    await timed(pool, 1000);
    await timed(queue, 1001);
    for (let repetition = 0; repetition < settings.repetitions; repetition++) {
      const seed = 2000 + repetition;
      local.push(await timed(pool, seed));
      queued.push(await timed(queue, seed));
      log(
        `  queue: ${settings.shards} shards, local pool of 2 ${(local.at(-1) ?? 0).toFixed(0)} trials/s, 2 workers through Redis ${(queued.at(-1) ?? 0).toFixed(0)} trials/s`,
      );
    }

    // Merge rate: results of every shard of a run already stored (as a resumed or a 1,000-worker run finds them).
    const plan = { ...engagementPlan(settings.mergeShards * SHARD_TRIALS), seed: 3000 };
    const one = await runSharded(pool, { ...plan, trials: SHARD_TRIALS });
    const client = new Redis(redis.url);
    const key = resultsKey(runKeyOf(plan.spec.digest, plan.seed));
    const stored = encodeResult(one.tally.cells, SHARD_TRIALS, 'bench:0');
    for (let start = 0; start < settings.mergeShards; start += 1000) {
      const batch = client.pipeline();
      for (let shard = start; shard < Math.min(settings.mergeShards, start + 1000); shard++)
        batch.hset(key, resultField(shard, SHARD_TRIALS), stored);
      await batch.exec();
    }
    client.disconnect();
    const started = performance.now();
    const merged = await runSharded(queue, plan);
    const seconds = (performance.now() - started) / 1000;
    if (merged.tally.trials !== settings.mergeShards * SHARD_TRIALS) throw new Error('the merge bench did not merge every shard');
    const mergeShardsPerSecond = settings.mergeShards / seconds;
    log(`  queue: coordinator merged ${settings.mergeShards} stored shard results in ${seconds.toFixed(2)} s`);
    return { shards: settings.shards, local, queued, mergeShardsPerSecond, mergeShards: settings.mergeShards };
  } finally {
    await queue.close(true);
    await pool.close(true);
    // Stopped before their Redis goes: a worker left without it would wait for it.
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            worker.once('exit', resolve);
            worker.kill('SIGTERM');
          }),
      ),
    );
    await redis.stop();
  }
}

export function queueVerdicts(result: QueueResult): { lines: string[]; targets: Record<string, Target> } {
  const localRate = median(result.local);
  const queuedRate = median(result.queued);
  const overhead = localRate / queuedRate - 1;
  const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS');
  const targets: Record<string, Target> = {
    queueOverhead: { target: TARGET_QUEUE_OVERHEAD, value: overhead, pass: overhead <= TARGET_QUEUE_OVERHEAD },
    mergeShardsPerSecond: {
      target: TARGET_MERGE_SHARDS_PER_SECOND,
      value: result.mergeShardsPerSecond,
      pass: result.mergeShardsPerSecond >= TARGET_MERGE_SHARDS_PER_SECOND,
    },
  };
  const rate = (value: number): string => `${(value / 1e6).toFixed(2)} M/s`;
  return {
    lines: [
      `queue overhead (engagement, ${result.shards} shards of ${SHARD_TRIALS.toLocaleString('en')}): local pool of 2 threads ${rate(localRate)}, 2 crucible worker processes through Redis ${rate(queuedRate)} → ${(overhead * 100).toFixed(1)}% slower   target ≤ ${TARGET_QUEUE_OVERHEAD * 100}%: ${verdict(targets.queueOverhead?.pass ?? false)}`,
      `coordinator merge rate (${result.mergeShards.toLocaleString('en')} stored shard results read, checked, merged in order): ${Math.round(result.mergeShardsPerSecond).toLocaleString('en')} shards/s   target ≥ ${TARGET_MERGE_SHARDS_PER_SECOND.toLocaleString('en')}: ${verdict(targets.mergeShardsPerSecond?.pass ?? false)}`,
    ],
    targets,
  };
}
