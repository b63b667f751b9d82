import { scoreInterval, scoreStatistics } from './wilson.js';

/**
 * Stopping a run once one side's expected score (win + ½ draw) is known well enough: what lets a
 * matchup seating run only the trials its own score needs (`crucible matchups --adaptive`) instead
 * of the worst case's. A lopsided pairing varies less than an even one (a score S in [0, 1] varies
 * at most s(1 − s) a trial), and draws lower it further: a seating scoring 0.95 needs about a fifth
 * of the trials of one scoring 0.5 for the same interval.
 *
 * The rule, checked every SCORE_STOP_EVERY trials: stop once the score's 95% interval — the one
 * the report prints, Wilson's at the effective trials its variance allows (statistics/wilson.ts
 * `scoreInterval`) — reaches no further than ±halfWidth from the score, as `crucible run
 * --precision` stops on the intervals it prints. Wilson's interval is wide when few trials agree
 * (64 wins out of 64 still reach 0.057 below 1), so a run does not stop on a lucky start. The
 * trials run are a prefix of the seed's stream: a stopped run of n trials is exactly `crucible run
 * --trials n` with the same seed.
 */
export interface ScoreStop {
  /** The tally cells counting a win and a loss of the side whose score decides (draws are the rest). */
  readonly winCell: number;
  readonly lossCell: number;
  /** The ± the score's 95% interval must reach. */
  readonly halfWidth: number;
}

/** Trials between two checks inside a shard: checking costs about as much as one trial. */
export const SCORE_STOP_EVERY = 64;

/** Has the score counted in `cells` over `trials` trials reached its precision? */
export function scoreStopMet(cells: ArrayLike<number>, trials: number, stop: ScoreStop): boolean {
  if (trials <= 0) return false;
  const wins = cells[stop.winCell] ?? 0;
  const losses = cells[stop.lossCell] ?? 0;
  const { score, variance } = scoreStatistics(wins, trials - wins - losses, trials);
  const { low, high } = scoreInterval(score, variance, trials);
  return high - score <= stop.halfWidth && score - low <= stop.halfWidth;
}
