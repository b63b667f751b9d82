import path from 'node:path';
import { compareVariants } from '../analysis/compare.js';
import { matchups } from '../analysis/matchups.js';
import { loadRoster } from '../input/roster.js';
import type { SerializedKernelSpec } from '../sim/kernel-spec.js';
import { ShardPool } from '../sim/shard-pool.js';
import type { KernelFacts, ShardExecutor, ShardResult, ShardTask } from '../sim/shard-task.js';
import { writeWarmasterRoster } from './warmaster-roster.js';

/**
 * The analysis targets of issue 7, measured: a 20 × 20 heroic matchup matrix at ±1 percentage point
 * (data/heroic/rosters/twenty.yaml, one pool of 2 workers), and what common random numbers save on a
 * bundled tactic comparison (knights-vs-regenerating-ogre, variant least-damaged: the factor of
 * trials an unpaired comparison would need for the Ogre's win rate).
 */
export interface AnalysisBench {
  readonly matrixSeconds: number;
  readonly matrixPairings: number;
  readonly matrixTrials: number;
  readonly pairedFactor: number;
  readonly pairedOutcome: string;
}

const repository = path.join(import.meta.dirname, '..');

export async function measureAnalysis(workers: number, quick: boolean): Promise<AnalysisBench> {
  const roster = await loadRoster(path.join(repository, 'data/heroic/rosters/twenty.yaml'));
  const pool = new ShardPool(workers);
  const started = performance.now();
  let result: Awaited<ReturnType<typeof matchups>>;
  try {
    result = await matchups(roster, {
      executor: pool,
      precision: 0.01,
      seed: 1,
      ...(quick ? { only: roster.roster.entries.slice(0, 8).map((entry) => entry.id) } : {}),
    });
  } finally {
    await pool.close(false);
  }
  const matrixSeconds = (performance.now() - started) / 1000;
  const comparison = await compareVariants(
    path.join(repository, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml'),
    undefined,
    'least-damaged',
    { trials: quick ? 20_000 : 100_000 },
  );
  const outcome = 'winner=Regenerating Ogre';
  const channel = comparison.outcomes.find((entry) => entry.metric === 'winner' && entry.label === 'Regenerating Ogre');
  return {
    matrixSeconds,
    matrixPairings: result.cells.length,
    // Each ordered pair is one run (its two seatings are two cells' halves).
    matrixTrials: result.entries.length ** 2 * result.trialsPerSeat,
    pairedFactor: channel?.unpairedTrialsFactor ?? Number.NaN,
    pairedOutcome: outcome,
  };
}

/** A Warmaster round robin timed in this process (issue 35 item 2): wall time, and the share of it the workers spent outside trial loops. */
export interface MatchupsOverhead {
  readonly units: number;
  readonly precision: number;
  readonly adaptive: boolean;
  readonly workers: number;
  readonly runs: number;
  readonly trials: number;
  readonly seconds: number;
  /** Σ the shards' trial-loop time, measured inside the workers. */
  readonly loopSeconds: number;
  /** 1 − loopSeconds ÷ (seconds × workers): the share of the workers' wall time not spent on trials. */
  readonly overhead: number;
}

/** Sums the trial-loop time the workers report, shard by shard (as bench/parallel.ts's MeteredExecutor). */
class LoopMeter implements ShardExecutor {
  loopMilliseconds = 0;
  constructor(private readonly inner: ShardExecutor) {}
  get workers(): number {
    return this.inner.workers;
  }
  async run(task: ShardTask): Promise<ShardResult> {
    const result = await this.inner.run(task);
    this.loopMilliseconds += result.loopMilliseconds;
    return result;
  }
  kernelFacts(spec: SerializedKernelSpec): Promise<KernelFacts> {
    return this.inner.kernelFacts(spec);
  }
  close(force: boolean): Promise<void> {
    return this.inner.close(force);
  }
}

/**
 * `units` × `units` Warmaster troop units (bench/warmaster-roster.ts), every ordered pair in both
 * seatings at ±precision, `--adaptive` or not, on a fresh pool of `workers` threads, timed from the
 * roster's loading to the result as `crucible matchups` runs it (the pool's start included).
 */
export async function measureMatchupsOverhead(units: number, precision: number, adaptive: boolean, workers = 2): Promise<MatchupsOverhead> {
  const roster = writeWarmasterRoster(units);
  const pool = new LoopMeter(new ShardPool(workers));
  const started = performance.now();
  try {
    const result = await matchups(await loadRoster(roster.file), { executor: pool, precision, seed: 1, adaptive });
    const seconds = (performance.now() - started) / 1000;
    const loopSeconds = pool.loopMilliseconds / 1000;
    return {
      units,
      precision,
      adaptive,
      workers: pool.workers,
      runs: result.entries.length ** 2,
      trials: result.trialsInAll,
      seconds,
      loopSeconds,
      overhead: 1 - loopSeconds / (seconds * pool.workers),
    };
  } finally {
    await pool.close(false);
    roster.remove();
  }
}
