import { chiSquareSurvival, studentTQuantile } from './distributions.js';
import { type Interval, Z_95 } from './intervals.js';

/**
 * A unit's cost from its score against the points ratio, for units fielded by count.
 *
 * The unit is fielded k models at a time against opponents that field Pₒ points each; whole models
 * rarely match a budget, so Pₒ differ. If the unit's fair cost is c, k models are worth k·c points
 * and the fight is even when k·c = Pₒ. The model
 *
 *   logit(score) = α + β·ln(k / Pₒ)      (score = win + ½ draw)
 *
 * says the score depends on the ratio of points fielded, k·c / Pₒ, on a log-odds scale; it scores ½
 * where α + β·ln(k/Pₒ) = 0, i.e. at c = e^{α/β}.
 *
 * Fit: quasi-likelihood (McCullagh & Nelder 1989, ch. 9) with each observation's variance taken
 * from its own trials, Var(score) = variance / trials, not from the binomial p(1 − p): draws make
 * the per-trial variance smaller than that, and treating them as noise would weigh the observations
 * wrongly. The estimating equations are then weighted least squares on the score scale, solved by
 * iteratively reweighted least squares (Gauss–Newton, step halving).
 */

export interface RatioObservation {
  readonly opponent: string;
  readonly count: number;
  readonly opponentPoints: number;
  /** Mean score over `trials` trials, and the per-trial sample variance of the score (draws make it
   *  below score(1−score)). */
  readonly score: number;
  readonly variance: number;
  readonly trials: number;
}

/** Which error the cost interval was sized by (see fitRatio). */
export type RatioIntervalBasis = 'simulation-noise' | 'dispersion' | 'opponents';

export interface RatioFit {
  /** logit(score) = α + β·ln(count / opponentPoints): the cost at which the unit scores ½ at equal
   *  points is c = e^{α/β} (then count·c = opponentPoints). */
  readonly alpha: number;
  readonly beta: number;
  readonly cost: number;
  readonly costInterval: Interval;
  /** Pearson dispersion (1 ≈ only simulation noise; ≫ 1: opponents disagree about the unit), df. */
  readonly dispersion: number;
  readonly degreesOfFreedom: number;
  /** The fitted score at each observation (for plotting the curve) */
  readonly fitted: readonly number[];
  /** What sized costInterval: simulation noise alone, the dispersion, or the spread between opponents. */
  readonly intervalBasis?: RatioIntervalBasis;
}

/** The upper quantile of a two-sided 95% interval. */
const TWO_SIDED_95 = 0.975;
/** Dispersion beyond simulation noise is acted on when Pearson's χ² test finds it at this level. */
const DISPERSION_TEST_LEVEL = 0.05;
const MAX_ITERATIONS = 100;
const MAX_STEP_HALVINGS = 50;
/** Iteration stops when the weighted sum of squares can fall by less than this (it is a χ², of order N). */
const CONVERGENCE_GAIN = 1e-12;

const logistic = (z: number): number => 1 / (1 + Math.exp(-z));

/**
 * The per-trial variance used for an observation. A sample variance of 0 (every trial scored the
 * same) does not mean the score is exact, only that the other outcomes are rarer than about 1 in
 * `trials`. The floor is the variance of a proportion at Wilson's centre for 0 successes in n
 * trials, q = (z²/2)/(n + z²) ≈ 1.9/n (Wilson 1927): the smallest rate the trials cannot rule
 * out, in the way Wilson's interval keeps away from 0 and 1. At the sizes simulations use it is far
 * below any genuine variance, so it only acts where the sample variance is (near) zero.
 */
function usableVariance(variance: number, trials: number): number {
  const rate = (Z_95 * Z_95) / 2 / (trials + Z_95 * Z_95);
  return Math.max(variance, rate * (1 - rate));
}

function checkObservations(observations: readonly RatioObservation[]): void {
  observations.forEach((observation, index) => {
    const where = `observations[${index}]`;
    const positive = (value: number) => value > 0 && value < Infinity;
    if (typeof observation.opponent !== 'string' || observation.opponent === '') throw new RangeError(`${where}.opponent must name the opponent, got ${JSON.stringify(observation.opponent)}`);
    if (!positive(observation.count)) throw new RangeError(`${where}.count must be a number of models > 0, got ${observation.count}`);
    if (!positive(observation.opponentPoints)) throw new RangeError(`${where}.opponentPoints must be a finite number of points > 0, got ${observation.opponentPoints}`);
    if (!(observation.score >= 0 && observation.score <= 1)) throw new RangeError(`${where}.score must be in [0, 1], got ${observation.score}`);
    if (!(observation.variance >= 0 && observation.variance < Infinity)) throw new RangeError(`${where}.variance must be a finite number ≥ 0, got ${observation.variance}`);
    if (!(observation.trials >= 1 && observation.trials < Infinity)) throw new RangeError(`${where}.trials must be at least 1, got ${observation.trials}`);
  });
  if (observations.length < 3) throw new RangeError(`fitRatio needs at least 3 observations (2 parameters and something left to judge the fit by), got ${observations.length}`);
  if (new Set(observations.map((observation) => Math.log(observation.count / observation.opponentPoints))).size < 2) {
    throw new RangeError('fitRatio needs at least 2 different points ratios (count / opponentPoints): at one ratio the score cannot show how it rises with count');
  }
}

type Matrix2 = readonly [number, number, number]; // symmetric: [a, b, d] for [[a, b], [b, d]]

function inverse2(m: Matrix2): Matrix2 {
  const [a, b, d] = m;
  const determinant = a * d - b * b;
  return [d / determinant, -b / determinant, a / determinant];
}

/** Σ w(y − μ)², the information JᵀWJ and the score JᵀW(y − μ) at (α, β); J = μ(1 − μ)·[1, x]. */
function evaluate(xs: readonly number[], ys: readonly number[], weights: readonly number[], alpha: number, beta: number) {
  let squares = 0;
  let [iaa, iab, ibb, ga, gb] = [0, 0, 0, 0, 0];
  xs.forEach((x, i) => {
    const mu = logistic(alpha + beta * x);
    const slope = mu * (1 - mu);
    const w = weights[i] as number;
    const residual = (ys[i] as number) - mu;
    squares += w * residual * residual;
    iaa += w * slope * slope;
    iab += w * slope * slope * x;
    ibb += w * slope * slope * x * x;
    ga += w * slope * residual;
    gb += w * slope * residual * x;
  });
  return { squares, information: [iaa, iab, ibb] as Matrix2, score: [ga, gb] as const };
}

/**
 * Fieller's interval for ln c = α/β (Fieller 1954): the L with (α − βL)² ≤ q²·Var(α − βL). Unlike
 * the delta method it stays honest when β is imprecise, and it is bounded exactly when β differs
 * from 0 significantly (β² > q²·Var β); undefined otherwise.
 */
function fiellerLogCost(alpha: number, beta: number, covariance: Matrix2, quantile: number): Interval | undefined {
  const [vaa, vab, vbb] = covariance;
  const q2 = quantile * quantile;
  const a = beta * beta - q2 * vbb;
  if (!(beta > 0) || !(a > 0)) return undefined;
  const b = alpha * beta - q2 * vab;
  const c = alpha * alpha - q2 * vaa;
  const root = Math.sqrt(Math.max(0, b * b - a * c));
  return { low: (b - root) / a, high: (b + root) / a };
}

export function fitRatio(observations: readonly RatioObservation[]): RatioFit {
  checkObservations(observations);
  const n = observations.length;
  const xs = observations.map((observation) => Math.log(observation.count / observation.opponentPoints));
  const ys = observations.map((observation) => observation.score);
  const weights = observations.map((observation) => observation.trials / usableVariance(observation.variance, observation.trials));

  // Start from a straight-line fit of the empirical logits (scores nudged off 0 and 1 by half a trial).
  const logits = observations.map(({ score, trials }) => Math.log((score * trials + 0.5) / ((1 - score) * trials + 0.5)));
  const meanX = xs.reduce((sum, x) => sum + x, 0) / n;
  const meanLogit = logits.reduce((sum, value) => sum + value, 0) / n;
  const sxx = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  let beta = xs.reduce((sum, x, i) => sum + (x - meanX) * ((logits[i] as number) - meanLogit), 0) / sxx;
  let alpha = meanLogit - beta * meanX;

  let current = evaluate(xs, ys, weights, alpha, beta);
  for (let iteration = 0; ; iteration++) {
    const [va, vab, vb] = inverse2(current.information);
    const [ga, gb] = current.score;
    const [stepA, stepB] = [va * ga + vab * gb, vab * ga + vb * gb];
    if (stepA * ga + stepB * gb < CONVERGENCE_GAIN) break;
    if (iteration === MAX_ITERATIONS || !Number.isFinite(stepA + stepB)) throw new RangeError('fitRatio did not converge: the scores do not follow a logistic curve in the points ratio');
    let accepted = false;
    for (let halving = 0, scale = 1; halving < MAX_STEP_HALVINGS && !accepted; halving++, scale /= 2) {
      const trial = evaluate(xs, ys, weights, alpha + scale * stepA, beta + scale * stepB);
      if (trial.squares <= current.squares * (1 + 1e-14)) {
        [alpha, beta, current, accepted] = [alpha + scale * stepA, beta + scale * stepB, trial, true];
      }
    }
    if (!accepted) break;
  }

  const degreesOfFreedom = n - 2;
  const dispersion = current.squares / degreesOfFreedom;
  const noiseCovariance = inverse2(current.information);
  const candidates: { basis: RatioIntervalBasis; covariance: Matrix2; quantile: number }[] = [];
  // Simulation noise is known from the trials, so by itself it gets normal quantiles and no
  // inflation. Only when Pearson's χ² shows more spread than that noise can explain is the extra
  // spread estimated from the data (t quantiles for that estimate), in two ways, keeping the wider:
  // - dispersion: every observation's variance scaled by φ (McCullagh & Nelder's quasi-likelihood);
  // - opponents: a cluster-robust (sandwich) covariance over opponents. An opponent that counters
  //   the unit shifts all its counts together; φ would count those as independent errors and
  //   understate them by about the number of counts per opponent.
  // Both are floored at the noise-only interval: scaling by φ < 1 would claim less than the noise.
  const overdispersed = chiSquareSurvival(current.squares, degreesOfFreedom) < DISPERSION_TEST_LEVEL;
  candidates.push({ basis: 'simulation-noise', covariance: noiseCovariance, quantile: Z_95 });
  if (overdispersed) {
    const scale = Math.max(dispersion, 1);
    const [vaa, vab, vbb] = noiseCovariance;
    candidates.push({ basis: 'dispersion', covariance: [vaa * scale, vab * scale, vbb * scale], quantile: studentTQuantile(TWO_SIDED_95, degreesOfFreedom) });
    // From 3 opponents: the opponents' shares of the score equations sum to 0, so 2 give a degenerate estimate.
    const opponents = new Set(observations.map((observation) => observation.opponent)).size;
    if (opponents >= 3) candidates.push({ basis: 'opponents', covariance: opponentRobustCovariance(observations, xs, ys, weights, alpha, beta, noiseCovariance), quantile: studentTQuantile(TWO_SIDED_95, opponents - 1) });
  }
  let chosen: { basis: RatioIntervalBasis; interval: Interval } | undefined;
  for (const { basis, covariance, quantile } of candidates) {
    const interval = fiellerLogCost(alpha, beta, covariance, quantile);
    if (interval === undefined) {
      throw new RangeError(beta > 0
        ? `the score does not rise significantly with count (β = ${beta.toPrecision(3)}, allowing for ${basis === 'simulation-noise' ? 'simulation noise' : 'how much the opponents disagree'}): no cost can be read off; try counts further apart or more trials`
        : `the score does not rise with count (β = ${beta.toPrecision(3)} ≤ 0): no cost can be read off`);
    }
    if (chosen === undefined || interval.high - interval.low > chosen.interval.high - chosen.interval.low) chosen = { basis, interval };
  }
  const { basis, interval } = chosen as { basis: RatioIntervalBasis; interval: Interval };
  return {
    alpha,
    beta,
    cost: Math.exp(alpha / beta),
    costInterval: { low: Math.exp(interval.low), high: Math.exp(interval.high) },
    dispersion,
    degreesOfFreedom,
    fitted: xs.map((x) => logistic(alpha + beta * x)),
    intervalBasis: basis,
  };
}

/**
 * Cluster-robust covariance over opponents (Liang & Zeger 1986): B⁻¹(Σₒ Uₒ Uₒᵀ)B⁻¹ · G/(G − 1),
 * with Uₒ the opponent's share of the score equations and B the information.
 */
function opponentRobustCovariance(observations: readonly RatioObservation[], xs: readonly number[], ys: readonly number[], weights: readonly number[], alpha: number, beta: number, inverseInformation: Matrix2): Matrix2 {
  const shares = new Map<string, [number, number]>();
  observations.forEach((observation, i) => {
    const x = xs[i] as number;
    const mu = logistic(alpha + beta * x);
    const term = (weights[i] as number) * mu * (1 - mu) * ((ys[i] as number) - mu);
    const share = shares.get(observation.opponent) ?? [0, 0];
    shares.set(observation.opponent, [share[0] + term, share[1] + term * x]);
  });
  let [maa, mab, mbb] = [0, 0, 0];
  for (const [ua, ub] of shares.values()) [maa, mab, mbb] = [maa + ua * ua, mab + ua * ub, mbb + ub * ub];
  const groups = shares.size;
  const [ba, bab, bb] = inverseInformation;
  // B⁻¹ M B⁻¹ for symmetric 2 × 2 matrices, written out.
  const [ra, rab, rba, rb] = [ba * maa + bab * mab, ba * mab + bab * mbb, bab * maa + bb * mab, bab * mab + bb * mbb];
  const correction = groups / (groups - 1);
  return [(ra * ba + rab * bab) * correction, (ra * bab + rab * bb) * correction, (rba * bab + rb * bb) * correction];
}

/** Fitted score at a count against an opponent fielding `opponentPoints` (for charts). */
export function ratioScore(fit: RatioFit, count: number, opponentPoints: number): number {
  if (!(count > 0 && count < Infinity) || !(opponentPoints > 0 && opponentPoints < Infinity)) {
    throw new RangeError(`ratioScore needs a count and opponent points > 0, got ${count} and ${opponentPoints}`);
  }
  return logistic(fit.alpha + fit.beta * Math.log(count / opponentPoints));
}
