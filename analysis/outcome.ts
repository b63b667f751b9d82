import { z } from 'zod';
import { intervalSchema } from './document-parts.js';
import { InputError } from '../sim/errors.js';
import type { LoadedScenario } from '../sim/scenario-file.js';
import { type Interval, wilsonInterval, Z_95 } from './intervals.js';
import type { ScenarioResult } from './run.js';

/**
 * A pairing's outcome for one side: P(win), P(draw), P(loss) and the expected score
 * (win + ½ draw), each with its 95% interval. A draw is anything the win metric records that is
 * neither side's name (a draw, or nobody broken when the rounds ran out).
 *
 * The score of one trial is 1, ½ or 0; its interval is Wilson's with the effective number of
 * trials n·p(1−p)/var (the variance of the score is below the binomial p(1−p) when draws are
 * common): at the binomial variance it is the Wilson interval, and it stays inside [0, 1] at the
 * extremes, where a normal interval would not.
 */
export interface Estimate {
  readonly value: number;
  readonly interval: Interval;
}

export interface Outcome {
  /** Trials behind the estimates (summed over seatings). */
  readonly trials: number;
  readonly win: Estimate;
  readonly draw: Estimate;
  readonly loss: Estimate;
  /** Expected score: P(win) + ½ P(draw). */
  readonly score: Estimate;
  /** Per-trial variance of the score (for combining and for fits). */
  readonly scoreVariance: number;
}

const interval = intervalSchema;
const estimate = z.object({ value: z.number().min(0).max(1), interval });
export const outcomeSchema = z.object({ trials: z.number().int().min(1), win: estimate, draw: estimate, loss: estimate, score: estimate, scoreVariance: z.number().min(0) });

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

/** The outcome from counts of wins, draws and losses. */
export function outcomeFromCounts(wins: number, draws: number, losses: number): Outcome {
  const trials = wins + draws + losses;
  if (!(trials > 0)) throw new RangeError('an outcome needs at least one trial');
  const score = (wins + draws / 2) / trials;
  const second = (wins + draws / 4) / trials;
  const variance = trials > 1 ? Math.max(0, ((second - score * score) * trials) / (trials - 1)) : 0;
  return {
    trials,
    win: { value: wins / trials, interval: wilsonInterval(wins, trials) },
    draw: { value: draws / trials, interval: wilsonInterval(draws, trials) },
    loss: { value: losses / trials, interval: wilsonInterval(losses, trials) },
    score: { value: score, interval: scoreInterval(score, variance, trials) },
    scoreVariance: variance,
  };
}

/** The same outcome seen from the other side: wins and losses exchanged. */
export function reversed(outcome: Outcome): Outcome {
  const score = 1 - outcome.score.value;
  return {
    ...outcome,
    win: outcome.loss,
    loss: outcome.win,
    score: { value: score, interval: { low: 1 - outcome.score.interval.high, high: 1 - outcome.score.interval.low } },
  };
}

/**
 * Several outcomes weighted equally (the two seatings of a pairing, each run with its own trials):
 * each probability is the mean of theirs; its interval comes from the variances of the means
 * (independent runs), at the effective trials as above.
 */
export function combineOutcomes(outcomes: readonly Outcome[]): Outcome {
  const [only] = outcomes;
  if (only === undefined) throw new RangeError('nothing to combine');
  if (outcomes.length === 1) return only;
  const k = outcomes.length;
  const trials = outcomes.reduce((sum, outcome) => sum + outcome.trials, 0);
  const meanOf = (pick: (outcome: Outcome) => number) => outcomes.reduce((sum, outcome) => sum + pick(outcome), 0) / k;
  // Var(mean of k independent means) = Σ vᵢ/nᵢ / k²; expressed per trial of the pooled trials.
  const varianceOfMean = (perTrial: (outcome: Outcome) => number) => outcomes.reduce((sum, outcome) => sum + perTrial(outcome) / outcome.trials, 0) / (k * k);
  const proportion = (pick: (outcome: Outcome) => number): Estimate => {
    const value = meanOf(pick);
    const variance = varianceOfMean((outcome) => pick(outcome) * (1 - pick(outcome))) * trials;
    return { value, interval: scoreInterval(value, variance, trials) };
  };
  const score = meanOf((outcome) => outcome.score.value);
  const scoreVariance = varianceOfMean((outcome) => outcome.scoreVariance) * trials;
  return {
    trials,
    win: proportion((outcome) => outcome.win.value),
    draw: proportion((outcome) => outcome.draw.value),
    loss: proportion((outcome) => outcome.loss.value),
    score: { value: score, interval: scoreInterval(score, scoreVariance, trials) },
    scoreVariance,
  };
}

/**
 * The outcome for the side named `side` of a run, read from its win metric: the side's name is a
 * win, the other side's a loss, anything else a draw.
 */
export function outcomeOf(result: ScenarioResult, loaded: LoadedScenario, winMetric: string, side: string, other: string): Outcome {
  const summary = result.summary.find((metric) => metric.name === winMetric);
  if (summary === undefined) throw new InputError([{ file: loaded.file, path: 'winMetric', message: `the scenario has no metric ${JSON.stringify(winMetric)}` }]);
  const countOf = (label: string): number => {
    const entry = summary.distribution.find((value) => value.label === label);
    if (entry === undefined) throw new InputError([{ file: loaded.file, path: 'winMetric', message: `${winMetric} has no label ${JSON.stringify(label)} (a side's name)` }]);
    return entry.count;
  };
  const wins = countOf(side);
  const losses = countOf(other);
  return outcomeFromCounts(wins, summary.trials - wins - losses, losses);
}
