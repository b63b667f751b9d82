import type { MetricSpec } from '../engine/kernel.js';
import { InputError } from '../input/errors.js';
import type { ScoreStop } from './score-stop.js';
import { histogramOffsets } from './tally.js';
import type { LoadedScenario } from '../input/scenario-file.js';
import { type Interval, wilsonInterval } from './intervals.js';
import { scoreInterval, scoreStatistics } from './wilson.js';

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
  /** The run's seed, for one run (a seating): `crucible run` of its scenario with this seed plays it again. */
  readonly seed?: number | undefined;
}

/** The outcome from counts of wins, draws and losses. */
export function outcomeFromCounts(wins: number, draws: number, losses: number): Outcome {
  const trials = wins + draws + losses;
  if (!(trials > 0)) throw new RangeError('an outcome needs at least one trial');
  const { score, variance } = scoreStatistics(wins, draws, trials);
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
 * (independent runs, each on its own random numbers), at the effective trials as above.
 */
export function combineOutcomes(outcomes: readonly Outcome[]): Outcome {
  return mixOutcomes(
    outcomes,
    outcomes.map(() => 1 / outcomes.length),
  );
}

/**
 * Outcomes of independent runs weighted by `shares` (adding up to 1): a roster's situations, each
 * its share of the games. Each probability is Σ wᵢ pᵢ with variance Σ wᵢ² pᵢ(1 − pᵢ)/nᵢ (each run
 * on its own random numbers), expressed per trial of the pooled trials for the interval.
 */
export function mixOutcomes(outcomes: readonly Outcome[], shares: readonly number[]): Outcome {
  const [only] = outcomes;
  if (only === undefined) throw new RangeError('nothing to combine');
  if (shares.length !== outcomes.length)
    throw new RangeError(`mixOutcomes needs one share per outcome, got ${shares.length} for ${outcomes.length}`);
  if (outcomes.length === 1) return only;
  const trials = outcomes.reduce((sum, outcome) => sum + outcome.trials, 0);
  const weighted = (pick: (outcome: Outcome) => number) =>
    outcomes.reduce((sum, outcome, i) => sum + (shares[i] as number) * pick(outcome), 0);
  // Var(Σ wᵢ·meanᵢ) = Σ wᵢ²·vᵢ/nᵢ for independent runs; expressed per trial of the pooled trials.
  const varianceOfMix = (perTrial: (outcome: Outcome) => number) =>
    outcomes.reduce((sum, outcome, i) => sum + (shares[i] as number) ** 2 * (perTrial(outcome) / outcome.trials), 0);
  const proportion = (pick: (outcome: Outcome) => number): Estimate => {
    const value = weighted(pick);
    const variance = varianceOfMix((outcome) => pick(outcome) * (1 - pick(outcome))) * trials;
    return { value, interval: scoreInterval(value, variance, trials) };
  };
  const score = weighted((outcome) => outcome.score.value);
  const scoreVariance = varianceOfMix((outcome) => outcome.scoreVariance) * trials;
  // Mirrors mixed (a unit against itself in every situation): exactly ½, known without noise, as each part is.
  const exact = outcomes.every(
    (outcome) => outcome.score.interval.low === outcome.score.value && outcome.score.interval.high === outcome.score.value,
  );
  return {
    trials,
    win: proportion((outcome) => outcome.win.value),
    draw: proportion((outcome) => outcome.draw.value),
    loss: proportion((outcome) => outcome.loss.value),
    score: { value: score, interval: exact ? { low: score, high: score } : scoreInterval(score, scoreVariance, trials) },
    scoreVariance,
  };
}

/** The variance of an outcome's expected score (of the mean, not per trial). */
export const scoreVarianceOfMean = (outcome: Outcome): number => outcome.scoreVariance / outcome.trials;

/** The side's score from a run's win metric, as a stop rule reads it in the tally (statistics/score-stop.ts): `halfWidth` is the ± its interval must reach. */
export interface ScoreTarget {
  readonly winMetric: string;
  readonly side: string;
  readonly other: string;
  readonly halfWidth: number;
}

/**
 * The tally cells counting a win and a loss of the side named `side` in the win metric (the side's
 * name is its win, the other side's its loss, anything else a draw), in a tally of `metrics`.
 */
function scoreCells(
  metrics: readonly MetricSpec[],
  winMetric: string,
  side: string,
  other: string,
  file: string,
): { readonly winCell: number; readonly lossCell: number } {
  const index = metrics.findIndex((metric) => metric.name === winMetric);
  const metric = metrics[index];
  if (metric === undefined)
    throw new InputError([{ file, path: 'winMetric', message: `the scenario has no metric ${JSON.stringify(winMetric)}` }]);
  const offset = histogramOffsets(metrics)[index] ?? 0;
  const cellOf = (label: string): number => {
    const value = metric.labels?.indexOf(label) ?? -1;
    if (value < 0)
      throw new InputError([{ file, path: 'winMetric', message: `${winMetric} has no label ${JSON.stringify(label)} (a side's name)` }]);
    return offset + value;
  };
  return { winCell: cellOf(side), lossCell: cellOf(other) };
}

/** The win and loss cells of `target`'s side, in a tally of a kernel's `metrics` (a problem of `file` if it has none). */
export function targetCells(
  metrics: readonly MetricSpec[],
  target: Omit<ScoreTarget, 'halfWidth'>,
  file: string,
): { readonly winCell: number; readonly lossCell: number } {
  return scoreCells(metrics, target.winMetric, target.side, target.other, file);
}

/** `target` as the stop rule reads it in a tally of a kernel's `metrics`. */
export function scoreStopOf(metrics: readonly MetricSpec[], target: ScoreTarget, file: string): ScoreStop {
  return { ...targetCells(metrics, target, file), halfWidth: target.halfWidth };
}

/** What outcomeOf reads of a run (a ScenarioResult, sim/run-scenario.ts). */
export interface RunCounts {
  readonly metrics: readonly MetricSpec[];
  readonly trials: number;
  readonly tally: { readonly cells: ArrayLike<number> };
}

/** The outcome for the side named `side` of a run, read from its win metric's counts. */
export function outcomeOf(result: RunCounts, loaded: LoadedScenario, winMetric: string, side: string, other: string): Outcome {
  const { winCell, lossCell } = scoreCells(result.metrics, winMetric, side, other, loaded.file);
  const wins = result.tally.cells[winCell] ?? 0;
  const losses = result.tally.cells[lossCell] ?? 0;
  return outcomeFromCounts(wins, result.trials - wins - losses, losses);
}
