import { EnumeratingDice, TooManyOutcomesError, UNIT_ROUNDOFF } from '../engine/dice/index.js';
import type { Kernel } from '../engine/kernel.js';

/**
 * Exact evaluation (`--method exact`): a trial's every outcome, by running the kernel once per path
 * through its draws (engine/dice/enumerating.ts) with each action's outcome drawn whole from its
 * table (method `tables`), so a pooled attack is one branch per total rather than 6ⁿ faces. The
 * kernel is the Monte Carlo one; only the dice differ, so the two methods cannot drift apart.
 *
 * A single action (an attack, a round, a volley, a rally) has few paths; a long chain has too many
 * and `exactDistributions` gives up beyond its budget of paths and of draws over all paths (the
 * work done: a chain's paths are long), and `auto` then runs Monte Carlo.
 */
export interface ExactBudget {
  readonly paths: number;
  readonly draws: number;
}
export interface ExactDistributions {
  /** Per metric, P(value = v) for v = 0..max. */
  readonly probabilities: readonly Float64Array[];
  /** Paths the trial can take (kernel runs). */
  readonly paths: number;
  /**
   * Bound on any probability's absolute error: the paths' products and the tables' convolutions
   * in float64 (their relative error bounds), and the summation of up to `paths` terms.
   */
  readonly errorBound: number;
}

/** What `auto` tries before falling back to Monte Carlo: a few tenths of a second at most. */
export const AUTO_BUDGET: ExactBudget = { paths: 20_000, draws: 200_000 };
/** What `--method exact` tries before refusing: a few seconds at most (the bench engagement to its end fits: 760,124 paths). */
export const EXACT_BUDGET: ExactBudget = { paths: 2_000_000, draws: 10_000_000 };

/** Every path of one trial of `kernel` (built with method `tables`), or undefined beyond `budget`. */
export function exactDistributions(kernel: Kernel, budget: ExactBudget): ExactDistributions | undefined {
  const metrics = kernel.metrics;
  const probabilities = metrics.map((metric) => new Float64Array(metric.max + 1));
  const row = new Int32Array(metrics.length);
  const dice = new EnumeratingDice();
  let paths = 0;
  let draws = 0;
  let worstRelativeError = 0;
  do {
    if (paths === budget.paths || draws > budget.draws) return undefined;
    dice.begin();
    try {
      kernel.trial(dice, row);
    } catch (error) {
      if (error instanceof TooManyOutcomesError) return undefined;
      throw error;
    }
    paths++;
    draws += dice.draws;
    const p = dice.probability;
    if (dice.relativeError > worstRelativeError) worstRelativeError = dice.relativeError;
    for (let m = 0; m < row.length; m++) {
      const histogram = probabilities[m] as Float64Array;
      histogram[row[m] as number] = (histogram[row[m] as number] as number) + p;
    }
  } while (dice.advance());
  const errorBound = worstRelativeError + paths * UNIT_ROUNDOFF;
  // The paths partition the outcomes: their probabilities must add up to 1 (a check on the enumeration).
  const total = (probabilities[0] as Float64Array).reduce((sum, p) => sum + p, 0);
  if (Math.abs(total - 1) > errorBound + 1e-12) throw new Error(`exact evaluation: the paths' probabilities add up to ${total}, not 1`);
  // A certain outcome summed from many paths can land a rounding step below 1; within the bound it is 1.
  for (const histogram of probabilities)
    for (let v = 0; v < histogram.length; v++) if ((histogram[v] as number) > 1 - errorBound) histogram[v] = 1;
  return { probabilities, paths, errorBound };
}
