import { serializeKernelSpec } from '../sim/kernel-spec.js';
import { SHARD_TRIALS } from '../sim/run.js';
import { ShardPool } from '../sim/shard-pool.js';
import { runSharded } from '../sim/sharded-run.js';
import { runInWorker } from './in-worker.js';
import { LoopMeter } from './loop-meter.js';
import { median } from './measure.js';
import { heroic } from '../engine/heroic/index.js';
import { benchScenarios, benchUnits, compileBenchScenario } from '../test/heroic/bench-scenarios.js';
import type { ShardsResult } from './worker.js';

/**
 * The pooled runner on the `engagement` scenario (Knights vs a regenerating Ogre), measured in the
 * same run as its ceiling:
 * - scaling: trials/s of `runSharded` on a warmed-up ShardPool of 1 and of 2 workers, repetitions
 *   alternating; and of 1 and 2 raw worker threads running the same shards with no pool at all;
 * - per-shard overhead: the pool's time not spent in the trial loop, wall × workers − Σ loop time,
 *   as a share of the loop time (the loop time is measured inside the workers, per shard);
 * - RSS (`--long` only): the process's resident memory, worker threads included, sampled through a
 *   10M-trial and a 1G-trial pooled run: a run keeps tallies, not rows, so it must stay flat.
 */

const SCENARIO = 'engagement' as const;
const SEED = 1;

export interface ParallelSettings {
  readonly shards: number;
  readonly repetitions: number;
}

export interface PooledMeasurement {
  readonly workers: number;
  readonly trialsPerSecond: number[];
  /** Per repetition: (wall × workers − Σ loop) / Σ loop. */
  readonly overhead: number[];
}

export interface ParallelResult {
  readonly shards: number;
  readonly pooled: readonly PooledMeasurement[];
  /** trials/s of 1 and of 2 raw threads, per repetition. */
  readonly raw: { readonly one: number[]; readonly two: number[] };
}

export const engagementPlan = (trials: number) => {
  const kernel = compileBenchScenario(SCENARIO);
  const spec = serializeKernelSpec({
    ruleset: heroic.id,
    version: heroic.version,
    scenario: benchScenarios[SCENARIO],
    refs: { units: benchUnits },
    method: 'dice',
    kernelModule: heroic.kernelModule,
  });
  return { spec, metrics: kernel.metrics, seed: SEED, trials };
};

async function timedPooledRun(pool: ShardPool, shards: number): Promise<{ rate: number; overhead: number }> {
  const metered = new LoopMeter(pool);
  const start = performance.now();
  const outcome = await runSharded(metered, engagementPlan(shards * SHARD_TRIALS));
  const wallMilliseconds = performance.now() - start;
  return {
    rate: outcome.tally.trials / (wallMilliseconds / 1000),
    overhead: (wallMilliseconds * pool.workers - metered.loopMilliseconds) / metered.loopMilliseconds,
  };
}

async function rawRate(threads: number, shards: number): Promise<number> {
  const barrier = new SharedArrayBuffer(4);
  const perThread = Math.floor(shards / threads);
  const results = (await Promise.all(
    Array.from({ length: threads }, (_, thread) =>
      runInWorker({
        kind: 'shards',
        scenario: SCENARIO,
        seed: SEED,
        first: thread,
        stride: threads,
        count: perThread,
        warmupShards: 8,
        barrier,
        parties: threads,
      }),
    ),
  )) as ShardsResult[];
  const trials = results.reduce((total, result) => total + result.trials, 0);
  return trials / Math.max(...results.map((result) => result.seconds));
}

export async function measureParallel(settings: ParallelSettings, log: (line: string) => void): Promise<ParallelResult> {
  const pools = [new ShardPool(1), new ShardPool(2)];
  const pooled: PooledMeasurement[] = pools.map((pool) => ({ workers: pool.workers, trialsPerSecond: [], overhead: [] }));
  const raw = { one: [] as number[], two: [] as number[] };
  try {
    // Start each pool and let its workers' JIT settle before anything is timed.
    for (const pool of pools) await runSharded(pool, engagementPlan(pool.workers * 8 * SHARD_TRIALS));
    for (let repetition = 0; repetition < settings.repetitions; repetition++) {
      for (const [i, pool] of pools.entries()) {
        const { rate, overhead } = await timedPooledRun(pool, settings.shards);
        pooled[i]?.trialsPerSecond.push(rate);
        pooled[i]?.overhead.push(overhead);
      }
      raw.one.push(await rawRate(1, settings.shards));
      raw.two.push(await rawRate(2, settings.shards));
      log(
        `  measured pool scaling, repetition ${repetition + 1}/${settings.repetitions}: pool 1 → 2 workers ${((pooled[1]?.trialsPerSecond.at(-1) ?? 0) / (pooled[0]?.trialsPerSecond.at(-1) ?? 1)).toFixed(2)}×, raw threads ${((raw.two.at(-1) ?? 0) / (raw.one.at(-1) ?? 1)).toFixed(2)}×`,
      );
    }
  } finally {
    await Promise.all(pools.map((pool) => pool.close(true)));
  }
  return { shards: settings.shards, pooled, raw };
}

export interface RssSample {
  readonly trials: number;
  readonly rss: number;
}

export interface RssResult {
  readonly workers: number;
  /** Peak RSS of each run, and samples along the longest one. */
  readonly runs: readonly { readonly trials: number; readonly seconds: number; readonly peakRss: number }[];
  readonly samples: readonly RssSample[];
}

/** Pooled runs of `trialCounts` trials each, on one pool of 2 workers, sampling RSS as shards complete. */
export async function measureRss(trialCounts: readonly number[], log: (line: string) => void): Promise<RssResult> {
  const pool = new ShardPool(2);
  const runs: { trials: number; seconds: number; peakRss: number }[] = [];
  const samples: RssSample[] = [];
  try {
    for (const trials of trialCounts) {
      let peakRss = 0;
      let nextSample = 0;
      const start = performance.now();
      await runSharded(pool, engagementPlan(trials), {
        onProgress: ({ trialsDone }) => {
          const rss = process.memoryUsage.rss();
          peakRss = Math.max(peakRss, rss);
          if (trials === trialCounts.at(-1) && trialsDone >= nextSample) {
            samples.push({ trials: trialsDone, rss });
            nextSample += trials / 20;
          }
        },
      });
      const seconds = (performance.now() - start) / 1000;
      runs.push({ trials, seconds, peakRss });
      log(`  RSS: ${trials.toLocaleString('en')} pooled trials in ${seconds.toFixed(0)} s, peak ${(peakRss / 2 ** 20).toFixed(1)} MB`);
    }
  } finally {
    await pool.close(true);
  }
  return { workers: 2, runs, samples };
}

/** 2 pooled workers against 1, on this 2-core machine (raw threads reach about 2.0×). */
export const TARGET_TWO_WORKERS_OVER_ONE = 1.8;
/** The pool's own cost per shard, as a share of the shard's trial loop. */
export const TARGET_SHARD_OVERHEAD = 0.02;
/**
 * RSS "flat" from 10M to 1G trials: within 32 MB. Keeping even one bit per trial would add 119 MB
 * over the extra 990M trials; what remains is the heaps' and GC's ordinary breathing.
 */
export const TARGET_RSS_GROWTH_BYTES = 32 * 2 ** 20;

export interface Target {
  readonly target: number;
  readonly value: number;
  readonly pass: boolean;
}

const megabytes = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS');

/** The summary lines and targets of the parallel measurements (medians over repetitions). */
export function parallelVerdicts(result: ParallelResult, rss: RssResult | undefined): { lines: string[]; targets: Record<string, Target> } {
  const one = result.pooled.find((measurement) => measurement.workers === 1);
  const two = result.pooled.find((measurement) => measurement.workers === 2);
  const oneRate = median(one?.trialsPerSecond ?? []);
  const twoRate = median(two?.trialsPerSecond ?? []);
  const pooledRatio = twoRate / oneRate;
  const rawRatio = median(result.raw.two) / median(result.raw.one);
  const overheadOne = median(one?.overhead ?? []);
  const overheadTwo = median(two?.overhead ?? []);
  const targets: Record<string, Target> = {
    twoWorkersOverOne: { target: TARGET_TWO_WORKERS_OVER_ONE, value: pooledRatio, pass: pooledRatio >= TARGET_TWO_WORKERS_OVER_ONE },
    shardOverhead: { target: TARGET_SHARD_OVERHEAD, value: overheadOne, pass: overheadOne < TARGET_SHARD_OVERHEAD },
  };
  const rate = (perSecond: number): string => `${(perSecond / 1e6).toFixed(2)} M/s`;
  const lines = [
    `pool scaling (engagement, ${result.shards} shards of ${SHARD_TRIALS.toLocaleString('en')}): 1 worker ${rate(oneRate)}, 2 workers ${rate(twoRate)} → ${pooledRatio.toFixed(2)}×   target ≥ ${TARGET_TWO_WORKERS_OVER_ONE}×: ${verdict(targets.twoWorkersOverOne?.pass ?? false)}`,
    `  raw threads, no pool: 1 thread ${rate(median(result.raw.one))}, 2 threads ${rate(median(result.raw.two))} → ${rawRatio.toFixed(2)}× (the ceiling on this machine now)`,
    `per-shard overhead (pool time outside the trial loop / loop time): 1 worker ${(overheadOne * 100).toFixed(2)}%, 2 workers ${(overheadTwo * 100).toFixed(2)}%   target < ${TARGET_SHARD_OVERHEAD * 100}% (1 worker): ${verdict(targets.shardOverhead?.pass ?? false)}`,
  ];
  if (rss !== undefined) {
    const first = rss.runs[0];
    const last = rss.runs.at(-1);
    const growth = (last?.peakRss ?? 0) - (first?.peakRss ?? 0);
    targets.rssGrowthBytes = { target: TARGET_RSS_GROWTH_BYTES, value: growth, pass: growth <= TARGET_RSS_GROWTH_BYTES };
    lines.push(
      `peak RSS, pooled on 2 workers: ${rss.runs.map((run) => `${run.trials.toLocaleString('en')} trials ${megabytes(run.peakRss)}`).join(', ')}; growth ${megabytes(growth)}   target ≤ ${megabytes(TARGET_RSS_GROWTH_BYTES)}: ${verdict(growth <= TARGET_RSS_GROWTH_BYTES)}`,
      `  RSS MB along the longest run: ${rss.samples.map((sample) => `${(sample.trials / 1e6).toFixed(0)}M:${(sample.rss / 2 ** 20).toFixed(0)}`).join(' ')}`,
    );
  }
  return { lines, targets };
}
