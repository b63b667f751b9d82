import { StreamDice, streamGenerator } from '../../engine/dice/index.js';
import type { Kernel } from '../../engine/kernel.js';
import { runWithDice, SHARD_TRIALS } from '../../sim/run.js';
import { Tally } from '../../statistics/tally.js';

/**
 * The rows a run with `seed` tallies for the trials in `wanted`, shard by shard as runTrials runs
 * them (through runWithDice, into the rows it hands the kernel): what a replayed trial must equal.
 * Not kernel-checks.ts's runRows, which runs one dice stream with every row prefilled.
 */
export function runRowsByShard(kernel: Kernel, seed: number, wanted: readonly number[]): Map<number, Int32Array> {
  const rows = new Map<number, Int32Array>();
  let index = 0;
  // The rows as the run's kernel writes them, trial by trial, into the rows runWithDice hands it.
  const keeper: Kernel = {
    ruleset: kernel.ruleset,
    engineVersion: kernel.engineVersion,
    metrics: kernel.metrics,
    trial: (dice, row) => {
      kernel.trial(dice, row);
      if (wanted.includes(index)) rows.set(index, row.slice());
      index++;
    },
  };
  const last = Math.max(...wanted);
  const tally = new Tally(kernel.metrics);
  for (let shard = 0; shard * SHARD_TRIALS <= last; shard++) {
    runWithDice(keeper, new StreamDice(streamGenerator(seed, shard)), Math.min(SHARD_TRIALS, last + 1 - shard * SHARD_TRIALS), tally);
  }
  return rows;
}
