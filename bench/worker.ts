import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { streamDice } from '../engine/dice/index.js';
import type { DrawMethod } from '../engine/kernel.js';
import { runTrials, runWithDice, SHARD_TRIALS } from '../sim/run.js';
import { runShard } from '../sim/shard-runner.js';
import { StreamCursor } from '../sim/stream-cursor.js';
import { Tally } from '../statistics/tally.js';
import { type BenchScenarioName, runNaive } from '../test/heroic/naive.js';
import { battleforgeBenchProfiles, battleforgeBenchScenario, compileBattleforgeBench } from '../test/battleforge/bench-scenario.js';
import { runNaiveBattleforge } from '../test/battleforge/naive.js';
import { runNaiveWarmaster } from '../test/warmaster/naive.js';
import { compileBenchScenario } from '../test/heroic/bench-scenarios.js';
import { attackBatch, type ExactJob, type ExactResult, measureExact } from './table-rows.js';
import { compileWarmasterBench, warmasterBenchScenario, warmasterBenchUnits } from '../test/warmaster/bench-scenario.js';

/**
 * One bench measurement, run in its own worker thread (bench/run.ts starts one worker per
 * measurement, one at a time): a fresh isolate per measurement keeps the JIT state and the heap of
 * one measurement out of the next, and the kernel runs faster here than on tsx's main thread.
 */

/**
 * `dice`: only the pooled attack's dice — the engine's PoolScorer on 12 dice vs DEF 4 plus a
 * Shield die, into a histogram of Wounds — the floor any per-die kernel pays before rules and
 * bookkeeping (issue 9's row b). `table`: the same attack's final Wounds drawn whole, one `pick`
 * from one table, into the same histogram (issue 9's row a). Both: bench/table-rows.ts.
 */
export type Implementation = 'engine' | 'naive' | 'dice' | 'table';

/**
 * Throughput scenarios: the heroic ones, `warmaster` (test/warmaster/bench-scenario.ts; one trial = one
 * engagement) and `battleforge` (test/battleforge/bench-scenario.ts; one trial = one six-round duel).
 */
export type BenchScenario = BenchScenarioName | 'warmaster' | 'battleforge';

export interface ThroughputJob {
  readonly kind: 'throughput';
  readonly implementation: Implementation;
  readonly scenario: BenchScenario;
  /** How the `engine` kernel draws (engine/kernel.ts): per die, or each action's outcome from its table. */
  readonly method: DrawMethod;
  readonly warmupSeconds: number;
  readonly repetitions: number;
  readonly repetitionSeconds: number;
}

export interface HeapJob {
  readonly kind: 'heap';
  readonly scenario: BenchScenarioName;
  readonly warmupTrials: number;
  readonly trials: number;
  readonly sampleEvery: number;
}

/**
 * `shards`: shards of the engine's kernel run back to back in this one thread, with none of the
 * pool's messaging — the ceiling a pool of such threads can reach. Workers sharing a `barrier`
 * (an Int32Array counter over a SharedArrayBuffer) warm up, then start timing together.
 */
export interface ShardsJob {
  readonly kind: 'shards';
  readonly scenario: BenchScenarioName;
  readonly seed: number;
  /** The shards to time: first, first + stride, … (`count` of them). */
  readonly first: number;
  readonly stride: number;
  readonly count: number;
  readonly warmupShards: number;
  readonly barrier: SharedArrayBuffer;
  readonly parties: number;
}

export type BenchJob = ThroughputJob | HeapJob | ShardsJob | ExactJob;

export interface ThroughputResult {
  readonly kind: 'throughput';
  readonly engineVersion: string | null;
  /** Trials per timed call (one runTrials / runNaive call). */
  readonly chunkTrials: number;
  readonly trialsPerSecond: number[];
  /** Summed from every run's output, so no run can be optimised away. */
  readonly checksum: number;
}

export interface HeapSample {
  readonly trials: number;
  readonly heapUsed: number;
}

export interface HeapResult {
  readonly kind: 'heap';
  readonly samples: HeapSample[];
  readonly seconds: number;
  readonly warmupSeconds: number;
}

export interface ShardsResult {
  readonly kind: 'shards';
  readonly trials: number;
  readonly seconds: number;
}

export type BenchResult = ThroughputResult | HeapResult | ShardsResult | ExactResult;

const seconds = (): number => performance.now() / 1000;

/** Runs `trials` trials from `seed` and returns something derived from their output. */
type Batch = (trials: number, seed: number) => number;

function batchFor(job: ThroughputJob): { batch: Batch; engineVersion: string | null } {
  if (job.scenario === 'warmaster') {
    if (job.implementation === 'naive') {
      return {
        batch: (trials, seed) => runNaiveWarmaster(warmasterBenchScenario, warmasterBenchUnits, seed, trials).trials,
        engineVersion: null,
      };
    }
    if (job.implementation === 'dice' || job.implementation === 'table') throw new Error('no dice-only measurement of warmaster');
    const warmasterKernel = compileWarmasterBench(job.method);
    return { batch: (trials, seed) => runTrials(warmasterKernel, { seed, trials }).trials, engineVersion: warmasterKernel.engineVersion };
  }
  if (job.scenario === 'battleforge') {
    if (job.implementation === 'naive') {
      return {
        batch: (trials, seed) => runNaiveBattleforge(battleforgeBenchScenario, battleforgeBenchProfiles, seed, trials).trials,
        engineVersion: null,
      };
    }
    if (job.implementation === 'dice' || job.implementation === 'table') throw new Error('no dice-only measurement of battleforge');
    // Per die only: the issue-9 rows do not measure battleforge's tables.
    if (job.method !== 'dice') throw new Error('battleforge is benched per die only');
    const battleforgeKernel = compileBattleforgeBench();
    return {
      batch: (trials, seed) => runTrials(battleforgeKernel, { seed, trials }).trials,
      engineVersion: battleforgeKernel.engineVersion,
    };
  }
  const scenario = job.scenario;
  if (job.implementation === 'dice' || job.implementation === 'table') {
    if (scenario !== 'pooled') throw new Error(`no ${job.implementation}-only measurement of ${scenario}`);
    return { batch: attackBatch(job.implementation), engineVersion: null };
  }
  if (job.implementation === 'naive') {
    return { batch: (trials, seed) => runNaive(scenario, seed, trials).trials, engineVersion: null };
  }
  const kernel = compileBenchScenario(scenario, job.method);
  // What runTrials does: trial + Tally.add, shard by shard.
  return { batch: (trials, seed) => runTrials(kernel, { seed, trials }).trials, engineVersion: kernel.engineVersion };
}

/**
 * Warm up (batches doubling until one takes ≥ 50 ms, for `warmupSeconds`), then time repetitions.
 * Each repetition runs chunks of ~1/10 of a repetition until `repetitionSeconds` have passed, so a
 * poor rate estimate from the warm-up (JIT tiers, a noisy neighbour) cannot make a repetition tiny.
 */
function measureThroughput(job: ThroughputJob): ThroughputResult {
  const { batch, engineVersion } = batchFor(job);
  let checksum = 0;
  let seed = 1;
  let size = 1000;
  let rate = 0;
  const warmupStart = seconds();
  while (seconds() - warmupStart < job.warmupSeconds) {
    const start = seconds();
    checksum += batch(size, seed++);
    const elapsed = seconds() - start;
    rate = size / elapsed;
    if (elapsed < 0.05) size *= 2;
  }
  const chunkTrials = Math.max(1000, Math.round((rate * job.repetitionSeconds) / 10));
  const trialsPerSecond: number[] = [];
  for (let r = 0; r < job.repetitions; r++) {
    const start = seconds();
    let trials = 0;
    while (seconds() - start < job.repetitionSeconds) {
      checksum += batch(chunkTrials, seed++);
      trials += chunkTrials;
    }
    trialsPerSecond.push(trials / (seconds() - start));
  }
  return { kind: 'throughput', engineVersion, chunkTrials, trialsPerSecond, checksum };
}

/** `gc()` without starting the process with --expose-gc (a worker may not take V8 flags). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Heap used after a full collection (twice: the first may leave garbage from finalisers). */
function settledHeap(gc: () => void): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Run `trials` trials in `sampleEvery` chunks, writing the settled heap before the first chunk and
 * after each into `heapUsed` (preallocated, so sampling adds nothing to the heap it measures).
 */
function sampledRun(run: (count: number) => void, gc: () => void, trials: number, sampleEvery: number, heapUsed: Float64Array): void {
  heapUsed[0] = settledHeap(gc);
  let sample = 1;
  for (let done = 0; done < trials; sample++) {
    const count = Math.min(sampleEvery, trials - done);
    run(count);
    done += count;
    heapUsed[sample] = settledHeap(gc);
  }
}

/**
 * One long run of the engine kernel into one Tally, sampling the settled heap as it goes. The
 * warm-up is the same sampling loop on fewer trials, so the JIT has compiled the kernel AND the
 * sampling code (whose optimised code would otherwise show up as a few KB of one-off growth).
 */
function measureHeap(job: HeapJob): HeapResult {
  const gc = exposeGc();
  const kernel = compileBenchScenario(job.scenario);
  const dice = streamDice(1);
  const tally = new Tally(kernel.metrics);
  const run = (count: number): void => runWithDice(kernel, dice, count, tally);
  const sampleCount = Math.ceil(job.trials / job.sampleEvery) + 1;
  const heapUsed = new Float64Array(sampleCount);
  // Timer first: `performance` loads lazily in a worker, and would show as ~50 KB of growth.
  const warmupStart = seconds();
  sampledRun(run, gc, job.warmupTrials, Math.ceil(job.warmupTrials / (sampleCount - 1)), heapUsed);
  const start = seconds();
  sampledRun(run, gc, job.trials, job.sampleEvery, heapUsed);
  const elapsed = seconds() - start;
  const samples = Array.from(heapUsed, (used, i) => ({ trials: Math.min(i * job.sampleEvery, job.trials), heapUsed: used }));
  return { kind: 'heap', samples, seconds: elapsed, warmupSeconds: start - warmupStart };
}

function measureShards(job: ShardsJob): ShardsResult {
  const kernel = compileBenchScenario(job.scenario);
  const cursor = new StreamCursor();
  // Warm-up shards come from another seed, so the timed ones start from a cold stream position
  // exactly as in a pool.
  for (let shard = 0; shard < job.warmupShards; shard++) runShard(kernel, cursor, job.seed + 1, shard, SHARD_TRIALS);
  const arrived = new Int32Array(job.barrier);
  Atomics.add(arrived, 0, 1);
  while (Atomics.load(arrived, 0) < job.parties) Atomics.wait(arrived, 0, Atomics.load(arrived, 0), 10);
  const start = seconds();
  for (let i = 0; i < job.count; i++) runShard(kernel, cursor, job.seed, job.first + i * job.stride, SHARD_TRIALS);
  return { kind: 'shards', trials: job.count * SHARD_TRIALS, seconds: seconds() - start };
}

const job = workerData as BenchJob;
const result: BenchResult =
  job.kind === 'throughput'
    ? measureThroughput(job)
    : job.kind === 'heap'
      ? measureHeap(job)
      : job.kind === 'exact'
        ? measureExact(job)
        : measureShards(job);
parentPort?.postMessage(result);
