import { type Dice, StreamDice, streamGenerator } from '../engine/dice/index.js';
import type { Kernel } from '../engine/kernel.js';
import { Tally } from '../statistics/tally.js';

/** Trials per shard. Shard k draws from the seed's stream k (the generator jumped k times), whoever runs it. */
export const SHARD_TRIALS = 65536;

export interface RunOptions {
  readonly seed: number;
  readonly trials: number;
}

/**
 * Run `count` trials drawing from `dice` into `tally`. The kernel writes each trial's row into the
 * tally's block of rows, counted a block at a time (statistics/tally.ts `RowBlock`): the same counts
 * as `tally.add` row by row, for about half the cost.
 */
export function runWithDice(kernel: Kernel, dice: Dice, count: number, tally: Tally): void {
  const block = tally.rowBlock();
  const rows = block.rows;
  for (let done = 0; done < count; ) {
    const filled = Math.min(rows.length, count - done);
    for (let r = 0; r < filled; r++) kernel.trial(dice, rows[r] as Int32Array);
    block.count(filled);
    done += filled;
  }
}

/** Run `trials` seeded trials on this thread, shard by shard, into one Tally. */
export function runTrials(kernel: Kernel, options: RunOptions): Tally {
  const tally = new Tally(kernel.metrics);
  const generator = streamGenerator(options.seed, 0);
  for (let done = 0; done < options.trials; ) {
    const count = Math.min(SHARD_TRIALS, options.trials - done);
    runWithDice(kernel, new StreamDice(generator.clone()), count, tally);
    generator.jump();
    done += count;
  }
  return tally;
}
