import { SHARD_TRIALS } from './run.js';

/**
 * Shard arithmetic. A run of N trials is cut into ⌈N / SHARD_TRIALS⌉ shards: shard k holds trials
 * k·SHARD_TRIALS … min(N, (k+1)·SHARD_TRIALS) − 1 and draws from the seed's stream k. Only N fixes
 * the boundaries — never the number of workers — which is why any split of the work gives the
 * same tallies.
 */

export function shardCount(trials: number): number {
  return Math.ceil(trials / SHARD_TRIALS);
}

/** Index of the first trial of shard k (what `crucible replay --trial` takes). */
export function firstTrialOf(shard: number): number {
  return shard * SHARD_TRIALS;
}

/** Trials in shard k of a run of `trials` trials (the last shard may be short). */
export function trialsInShard(trials: number, shard: number): number {
  return Math.max(0, Math.min(SHARD_TRIALS, trials - firstTrialOf(shard)));
}

/**
 * A set of shard indices as a sorted list of half-open ranges [start, end). Runs complete shards
 * almost in order, so a long run's completed set stays a handful of ranges (the checkpoint format).
 */
export type ShardRanges = readonly (readonly [start: number, end: number])[];

/** Shards 0 … prefix − 1 plus `extras` (each ≥ prefix), as ranges. */
export function rangesOf(prefix: number, extras: Iterable<number> = []): [number, number][] {
  const ranges: [number, number][] = prefix > 0 ? [[0, prefix]] : [];
  for (const index of [...new Set(extras)].sort((a, b) => a - b)) {
    const last = ranges.at(-1);
    if (last !== undefined && last[1] === index) last[1] = index + 1;
    else ranges.push([index, index + 1]);
  }
  return ranges;
}

/** Total trials held by the shards in `ranges` of a run of `trials` trials. */
export function trialsInRanges(trials: number, ranges: ShardRanges): number {
  let total = 0;
  for (const [start, end] of ranges) {
    for (let shard = start; shard < end; shard++) total += trialsInShard(trials, shard);
  }
  return total;
}
