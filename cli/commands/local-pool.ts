import { ShardPool } from '../../sim/shard-pool.js';
import { usefulWorkers } from './options.js';

/**
 * The worker pool of a local run or analysis: `--workers` threads (at most the cores), or without
 * it one per core, fewer where other processes keep cores busy (said on `note`).
 */
export function localPool(workers: number | undefined, note: (text: string) => void): ShardPool {
  return new ShardPool(usefulWorkers(workers, note), workers === undefined ? { fitToLoad: { note } } : {});
}
