import { z } from 'zod';

/**
 * The ranges of a run's seed and trials: one place for every rule system's scenario schema, the
 * CLI's --seed/--trials and the workbench's fields and links (input/number-text.ts reads them).
 */

/** Seeds are 32-bit unsigned integers: the key of the run's random streams. */
export const MAX_SEED = 4294967295;
/** Trials of one run: far beyond any day's work, and still counted exactly in a double. */
export const MAX_TRIALS = 1e12;
/** A precision run's cap on trials when none is given (`--max-trials`, `maxTrials`): ~10 minutes of a typical scenario on 2 cores. */
export const DEFAULT_MAX_TRIALS = 1e9;

/** Trial indices a replay accepts: far beyond any run's trials, small enough to stay exact in a double. */
export const MAX_REPLAY_TRIAL = 1e15 - 1;

/** A scenario's `seed` field. */
export const seedField = () => z.number().int().min(0).max(MAX_SEED).default(1).describe('random seed (crucible run --seed overrides it)');

/** A scenario's `trials` field; `noun` names what one trial simulates ("fights", "games"). */
export const trialsField = (noun: string) =>
  z.number().int().min(1).max(MAX_TRIALS).default(100000).describe(`number of simulated ${noun} (crucible run --trials overrides it)`);
