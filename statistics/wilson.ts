/**
 * The 95% two-sided normal quantile, Wilson's interval for a proportion and for an expected score:
 * what the reports' intervals (statistics/intervals.ts, outcome.ts) and a run's score stop rule
 * (statistics/score-stop.ts) both read.
 */
export const Z_95 = 1.959963984540054;

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/**
 * Wilson score interval for a proportion of `successes` out of `trials` (Wilson 1927; method 3
 * of Newcombe 1998). Unlike the plain normal ("Wald") interval it stays inside [0, 1] and is
 * sensible at 0 or `trials` successes, which rare events in a simulation often hit.
 */
export function wilsonInterval(successes: number, trials: number, z: number = Z_95): Interval {
  if (!(trials > 0) || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval needs 0 ≤ successes ≤ trials and trials > 0, got ${successes} of ${trials}`);
  }
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // At 0 or `trials` successes the bound is exactly 0 or 1; rounding would leave it a hair off.
  const low = successes === 0 ? 0 : Math.max(0, centre - halfWidth);
  const high = successes === trials ? 1 : Math.min(1, centre + halfWidth);
  return { low, high };
}

/** A proportion-like mean in [0, 1] with per-trial variance `variance` over `trials` trials: Wilson at the effective trials. */
export function scoreInterval(mean: number, variance: number, trials: number): Interval {
  const binomial = mean * (1 - mean);
  // No spread at all (every trial the same score): the plain Wilson interval of what was seen.
  const effective = variance > 0 && binomial > 0 ? (trials * binomial) / variance : trials;
  const successes = Math.min(effective, Math.max(0, mean * effective));
  if (binomial === 0) return wilsonInterval(Math.round(mean * trials), trials);
  if (variance === 0) {
    // Every trial scored the same in-between value (all draws): the chance of anything else is at
    // most Wilson's bound for none in `trials`, and it could move the score by at most half that.
    const half = (1 - wilsonInterval(trials, trials).low) / 2;
    return { low: Math.max(0, mean - half), high: Math.min(1, mean + half) };
  }
  const z2 = Z_95 * Z_95;
  const denominator = 1 + z2 / effective;
  const p = successes / effective;
  const centre = (p + z2 / (2 * effective)) / denominator;
  const half = (Z_95 / denominator) * Math.sqrt((p * (1 - p)) / effective + z2 / (4 * effective * effective));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The expected score (win + ½ draw) of `trials` trials with `wins` and `draws`, and its per-trial
 * variance (the unbiased sample variance of scores 1, ½ and 0).
 */
export function scoreStatistics(wins: number, draws: number, trials: number): { readonly score: number; readonly variance: number } {
  const score = (wins + draws / 2) / trials;
  const second = (wins + draws / 4) / trials;
  const variance = trials > 1 ? Math.max(0, ((second - score * score) * trials) / (trials - 1)) : 0;
  return { score, variance };
}
