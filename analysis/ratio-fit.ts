import { chiSquareSurvival, studentTQuantile } from './distributions.js';
import { type Interval, Z_95 } from './intervals.js';

/**
 * A unit's cost from its score against the points ratio, for units fielded by count.
 *
 * The unit is fielded k models at a time against opponents that field Pₒ points each; whole models
 * rarely match a budget, so Pₒ differ. Opponents also differ in kind — one counters the unit,
 * another is countered by it — so each gets its own intercept, with one slope shared:
 *
 *   logit sₒ(k) = αₒ + β·ln(k / Pₒ)      (s = win + ½ draw)
 *
 * At equal points a unit costing c fields k = Pₒ / c models, so sₒ = logistic(αₒ − β·ln c). The
 * fair cost c* is where the roster's average game at equal points is even, each opponent counting
 * once:  (1/G)·Σₒ logistic(αₒ − β·ln c*) = ½.
 *
 * Fit: quasi-likelihood (McCullagh & Nelder 1989, ch. 9) with the binomial variance shrunk by each
 * observation's draws: Var(score) = r·μ(1 − μ)/n, r = (its sample variance)/(ȳ(1 − ȳ)). Taking
 * the variance from the fitted mean, not from the sample, matters at the extremes: a sample that
 * happened to score 0 has sample variance 0 and would claim to be exact. Each opponent gets half a
 * game won and half lost at its mean ratio, and β the same at 0 (log-F(1,1) priors, Greenland &
 * Mansournia 2015): an opponent that always wins or always loses then has a finite αₒ whose share
 * of the average is ~0 or ~1, as observed. Solved by Newton's method (the quasi-likelihood is
 * concave in the canonical logit) with step halving.
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

/** Which error sized the cost interval: simulation noise alone, or that scaled by the dispersion. */
export type RatioIntervalBasis = 'simulation-noise' | 'dispersion';

export interface OpponentIntercept {
  readonly opponent: string;
  /** The points this opponent fielded. */
  readonly opponentPoints: number;
  /** logit sₒ(k) = alpha + β·ln(k / opponentPoints). */
  readonly alpha: number;
}

export interface RatioFit {
  /** One per opponent, in order of first appearance. No single α summarises them: the curves share only β. */
  readonly intercepts: readonly OpponentIntercept[];
  readonly beta: number;
  /** c*: the cost at which the average over opponents of the score at equal points is ½. */
  readonly cost: number;
  readonly costInterval: Interval;
  /** Pearson dispersion: 1 ≈ only simulation noise; ≫ 1: the curves' shape misfits (opponents'
   *  own levels are fitted, so it is not their disagreement). With its degrees of freedom. */
  readonly dispersion: number;
  readonly degreesOfFreedom: number;
  /** The fitted score at each observation, in their order (for plotting). */
  readonly fitted: readonly number[];
  readonly intervalBasis: RatioIntervalBasis;
}

/** The upper quantile of a two-sided 95% interval. */
const TWO_SIDED_95 = 0.975;
/** Dispersion beyond simulation noise is acted on when Pearson's χ² test finds it at this level. */
const DISPERSION_TEST_LEVEL = 0.05;
/** The prior data: half a game won and half lost, per opponent intercept and for the slope. */
const PRIOR_GAMES = 1;
const MAX_ITERATIONS = 200;
const MAX_STEP_HALVINGS = 60;
/** Newton stops when the quasi-log-likelihood could rise by less than this (in games; it is of order N·trials). */
const CONVERGENCE_GAIN = 1e-10;
const BISECTION_STEPS = 200;
/** Below this the fit has (almost) nothing left to judge itself by. */
const MIN_DEGREES_OF_FREEDOM = 0.5;

const logistic = (z: number): number => 1 / (1 + Math.exp(-z));
/** ln(1 + eᶻ) without overflow. */
const softplus = (z: number): number => Math.max(z, 0) + Math.log1p(Math.exp(-Math.abs(z)));

/**
 * The smallest per-trial variance n trials can resolve: that of a proportion at Wilson's centre for
 * 0 successes in n trials, q = (z²/2)/(n + z²) ≈ 1.9/n (Wilson 1927) — the rarest outcome the
 * trials cannot rule out. A sample variance of 0 is read as this, not as exactness.
 */
function resolvableVariance(trials: number): number {
  const rate = (Z_95 * Z_95) / 2 / (trials + Z_95 * Z_95);
  return rate * (1 - rate);
}

/**
 * r: the per-trial variance as a share of a win-or-lose game's of the same mean — below 1 with
 * draws, 1 at 0 or 1 where nothing was drawn. At most 1: a score in [0, 1] cannot vary more than
 * that (a sample variance can, by n/(n − 1) or rounding).
 */
function drawShrinkage({ score, variance, trials }: RatioObservation): number {
  const floor = resolvableVariance(trials);
  return Math.min(1, Math.max(variance, floor) / Math.max(score * (1 - score), floor));
}

function checkObservations(observations: readonly RatioObservation[]): void {
  const pointsOf = new Map<string, number>();
  observations.forEach((observation, index) => {
    const where = `observations[${index}]`;
    const positive = (value: number) => value > 0 && value < Infinity;
    if (typeof observation.opponent !== 'string' || observation.opponent === '') throw new RangeError(`${where}.opponent must name the opponent, got ${JSON.stringify(observation.opponent)}`);
    if (!positive(observation.count)) throw new RangeError(`${where}.count must be a number of models > 0, got ${observation.count}`);
    if (!positive(observation.opponentPoints)) throw new RangeError(`${where}.opponentPoints must be a finite number of points > 0, got ${observation.opponentPoints}`);
    if (!(observation.score >= 0 && observation.score <= 1)) throw new RangeError(`${where}.score must be in [0, 1], got ${observation.score}`);
    if (!(observation.variance >= 0 && observation.variance < Infinity)) throw new RangeError(`${where}.variance must be a finite number ≥ 0, got ${observation.variance}`);
    if (!(observation.trials >= 1 && observation.trials < Infinity)) throw new RangeError(`${where}.trials must be at least 1, got ${observation.trials}`);
    const points = pointsOf.get(observation.opponent) ?? observation.opponentPoints;
    if (points !== observation.opponentPoints) throw new RangeError(`${where}.opponentPoints is ${observation.opponentPoints}, but ${observation.opponent} fielded ${points} points elsewhere: an opponent fields one size`);
    pointsOf.set(observation.opponent, points);
  });
  const parameters = pointsOf.size + 1;
  if (observations.length < 3 || observations.length <= parameters) {
    throw new RangeError(`fitRatio needs more observations than parameters (one level per opponent and the slope, ${parameters}) and at least 3, got ${observations.length}`);
  }
  const countsOf = new Map<string, Set<number>>();
  for (const { opponent, count } of observations) countsOf.set(opponent, (countsOf.get(opponent) ?? new Set()).add(count));
  if (![...countsOf.values()].some((counts) => counts.size >= 2)) {
    throw new RangeError('fitRatio needs some opponent measured at 2 different points ratios (counts): at one ratio the score cannot show how it rises with count');
  }
}

/**
 * A symmetric matrix over (α₁ … α_G, β) whose α block is diagonal — the shape of this model's
 * information, since each observation touches one αₒ and β. Solved in closed form by the Schur
 * complement of the α block.
 */
interface Arrowhead {
  readonly diagonal: readonly number[];
  readonly cross: readonly number[];
  readonly corner: number;
}

/** A⁻¹·[g, h] (g over the αₒ, h for β). */
function solveArrowhead({ diagonal, cross, corner }: Arrowhead, g: readonly number[], h: number): { alphas: number[]; beta: number } {
  let schur = corner;
  let reduced = h;
  diagonal.forEach((d, o) => {
    schur -= (cross[o] as number) ** 2 / d;
    reduced -= ((cross[o] as number) * (g[o] as number)) / d;
  });
  const beta = reduced / schur;
  return { alphas: diagonal.map((d, o) => ((g[o] as number) - (cross[o] as number) * beta) / d), beta };
}

/** vᵀA⁻¹v: the variance of the linear combination v of the parameters, when A is the information. */
function inverseQuadratic(a: Arrowhead, v: readonly number[], vBeta: number): number {
  const solved = solveArrowhead(a, v, vBeta);
  return solved.alphas.reduce((sum, x, o) => sum + x * (v[o] as number), solved.beta * vBeta);
}

interface Design {
  /** Each observation's opponent index, ln(count / opponentPoints), score and n/r (its weight in games). */
  readonly group: readonly number[];
  readonly x: readonly number[];
  readonly y: readonly number[];
  readonly games: readonly number[];
}

/** The quasi-log-likelihood (with the prior data), its gradient and its information at (α, β). */
function evaluate(design: Design, alphas: readonly number[], beta: number) {
  let logLikelihood = PRIOR_GAMES * (beta / 2 - softplus(beta));
  const gradient = alphas.map(() => 0);
  const diagonal = alphas.map(() => 0);
  const cross = alphas.map(() => 0);
  const priorMu = logistic(beta);
  let gradientBeta = PRIOR_GAMES * (0.5 - priorMu);
  let corner = PRIOR_GAMES * priorMu * (1 - priorMu);
  design.x.forEach((x, i) => {
    const o = design.group[i] as number;
    const eta = (alphas[o] as number) + beta * x;
    const y = design.y[i] as number;
    const games = design.games[i] as number;
    const mu = logistic(eta);
    logLikelihood -= games * (y * softplus(-eta) + (1 - y) * softplus(eta));
    const score = games * (y - mu);
    const information = games * mu * (1 - mu);
    gradient[o] = (gradient[o] as number) + score;
    gradientBeta += score * x;
    diagonal[o] = (diagonal[o] as number) + information;
    cross[o] = (cross[o] as number) + information * x;
    corner += information * x * x;
  });
  return { logLikelihood, gradient, gradientBeta, information: { diagonal, cross, corner } satisfies Arrowhead };
}

/** ln c*: the root of (1/G)·Σₒ logistic(αₒ − β·L) = ½, which lies between the smallest and largest αₒ/β. */
function solveLogCost(alphas: readonly number[], beta: number): number {
  const meanScore = (logCost: number) => alphas.reduce((sum, alpha) => sum + logistic(alpha - beta * logCost), 0) / alphas.length;
  let low = Math.min(...alphas) / beta;
  let high = Math.max(...alphas) / beta;
  for (let step = 0; step < BISECTION_STEPS && high - low > 1e-15 * Math.max(1, Math.abs(low)); step++) {
    const middle = (low + high) / 2;
    if (meanScore(middle) > 0.5) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * Pearson's χ² and its degrees of freedom. Each score's variance is taken as at least what its
 * trials can resolve: an expected rate far below 1 in n is not tested by n trials, and one lucky
 * game there is noise, not misfit. Such a score adds only μ(1 − μ)/floor to χ² on average, so it
 * counts for that share of a degree of freedom, less its leverage hᵢ (the share of a parameter it
 * spends): df = Σ min(1, μ(1 − μ)/floor)·(1 − hᵢ). With no score near 0 or 1 and the prior data
 * negligible, that is N − (G + 1); a lopsided opponent, fitted mostly by its prior half game, does
 * not pretend to test the curve.
 */
function pearsonChiSquare(observations: readonly RatioObservation[], design: Design, fitted: readonly number[], information: Arrowhead): { pearson: number; degreesOfFreedom: number } {
  let [pearson, degreesOfFreedom] = [0, 0];
  fitted.forEach((mu, i) => {
    const floor = resolvableVariance(observations[i]?.trials as number);
    const variance = mu * (1 - mu);
    const games = design.games[i] as number;
    const direction = information.diagonal.map((_, o) => (o === design.group[i] ? 1 : 0));
    const leverage = games * variance * inverseQuadratic(information, direction, design.x[i] as number);
    pearson += (games * ((design.y[i] as number) - mu) ** 2) / Math.max(variance, floor);
    degreesOfFreedom += Math.min(1, variance / floor) * (1 - leverage);
  });
  return { pearson, degreesOfFreedom };
}

export function fitRatio(observations: readonly RatioObservation[]): RatioFit {
  checkObservations(observations);
  const opponents = [...new Map(observations.map((observation) => [observation.opponent, observation.opponentPoints])).entries()];
  const index = new Map(opponents.map(([opponent], o) => [opponent, o]));
  const real: Design = {
    group: observations.map((observation) => index.get(observation.opponent) as number),
    x: observations.map((observation) => Math.log(observation.count / observation.opponentPoints)),
    y: observations.map((observation) => observation.score),
    games: observations.map((observation) => observation.trials / drawShrinkage(observation)),
  };
  // The prior data: half a game won and half lost against each opponent at its mean ratio (weighted by trials).
  const meanX = opponents.map((_, o) => {
    const mine = observations.flatMap((observation, i) => (real.group[i] === o ? [[observation.trials, real.x[i] as number] as const] : []));
    return mine.reduce((sum, [trials, x]) => sum + trials * x, 0) / mine.reduce((sum, [trials]) => sum + trials, 0);
  });
  const design: Design = {
    group: [...real.group, ...opponents.map((_, o) => o)],
    x: [...real.x, ...meanX],
    y: [...real.y, ...opponents.map(() => 0.5)],
    games: [...real.games, ...opponents.map(() => PRIOR_GAMES)],
  };

  // Start from the within-opponent regression of the empirical logits (nudged off 0 and 1 by half a trial).
  const logits = observations.map(({ score, trials }) => Math.log((score * trials + 0.5) / ((1 - score) * trials + 0.5)));
  const meanLogit = opponents.map((_, o) => {
    const mine = logits.filter((_, i) => real.group[i] === o);
    return mine.reduce((sum, value) => sum + value, 0) / mine.length;
  });
  const centredX = (i: number) => (real.x[i] as number) - (meanX[real.group[i] as number] as number);
  const sxx = real.x.reduce((sum, _, i) => sum + centredX(i) ** 2, 0);
  let beta = logits.reduce((sum, logit, i) => sum + centredX(i) * (logit - (meanLogit[real.group[i] as number] as number)), 0) / sxx;
  let alphas = meanLogit.map((logit, o) => logit - beta * (meanX[o] as number));

  let current = evaluate(design, alphas, beta);
  for (let iteration = 0; ; iteration++) {
    const step = solveArrowhead(current.information, current.gradient, current.gradientBeta);
    const gain = step.alphas.reduce((sum, value, o) => sum + value * (current.gradient[o] as number), step.beta * current.gradientBeta);
    if (gain < CONVERGENCE_GAIN) break;
    if (iteration === MAX_ITERATIONS || !Number.isFinite(gain)) throw new RangeError('fitRatio did not converge: the scores do not follow a logistic curve in the points ratio');
    let accepted = false;
    for (let halving = 0, scale = 1; halving < MAX_STEP_HALVINGS && !accepted; halving++, scale /= 2) {
      const nextAlphas = alphas.map((alpha, o) => alpha + scale * (step.alphas[o] as number));
      const trial = evaluate(design, nextAlphas, beta + scale * step.beta);
      if (trial.logLikelihood >= current.logLikelihood - 1e-12 * Math.abs(current.logLikelihood)) {
        [alphas, beta, current, accepted] = [nextAlphas, beta + scale * step.beta, trial, true];
      }
    }
    if (!accepted) break;
  }

  const fitted = real.x.map((x, i) => logistic((alphas[real.group[i] as number] as number) + beta * x));
  const { pearson, degreesOfFreedom } = pearsonChiSquare(observations, real, fitted, current.information);
  if (!(degreesOfFreedom >= MIN_DEGREES_OF_FREEDOM)) {
    throw new RangeError(`too few observations with scores away from 0 and 1 to judge the fit (${degreesOfFreedom.toFixed(2)} degrees of freedom left): measure counts nearer the even match`);
  }
  const dispersion = pearson / degreesOfFreedom;
  // Simulation noise is known from the trials: normal quantiles, no inflation. Only when Pearson's
  // χ² shows more spread than it explains is the variance scaled by the dispersion (estimated: t
  // quantiles), never by less than 1, which would claim less than the noise.
  const overdispersed = chiSquareSurvival(pearson, degreesOfFreedom) < DISPERSION_TEST_LEVEL;
  const intervalBasis: RatioIntervalBasis = overdispersed ? 'dispersion' : 'simulation-noise';
  const scale = overdispersed ? Math.max(dispersion, 1) : 1;
  const quantile = overdispersed ? studentTQuantile(TWO_SIDED_95, degreesOfFreedom) : Z_95;
  const betaSe = Math.sqrt(scale * inverseQuadratic(current.information, alphas.map(() => 0), 1));
  if (!(beta > 0)) throw new RangeError(`the score does not rise with count (β = ${beta.toPrecision(3)} ≤ 0): no cost can be read off`);
  if (!(beta > quantile * betaSe)) {
    throw new RangeError(`the score does not rise significantly with count (β = ${beta.toPrecision(3)} ± ${(quantile * betaSe).toPrecision(2)}, allowing for ${overdispersed ? 'how loosely the curve fits' : 'simulation noise'}): no cost can be read off; try counts further apart or more trials`);
  }

  // Delta method through the implicit equation g(α, β, L) = mean logistic(αₒ − β·L) − ½ = 0:
  // dL/dθ = −∇θg / (∂g/∂L), so Var(L) = ∇θg·Σ·∇θgᵀ / (∂g/∂L)².
  const logCost = solveLogCost(alphas, beta);
  const slopes = alphas.map((alpha) => {
    const s = logistic(alpha - beta * logCost);
    return s * (1 - s) / opponents.length;
  });
  const slopeSum = slopes.reduce((sum, value) => sum + value, 0);
  // Every opponent lopsided at c* (the average is ½ only because some always win and the rest always lose): nothing pins c* down.
  const logCostSe = slopeSum > 0 ? Math.sqrt(scale * inverseQuadratic(current.information, slopes, -logCost * slopeSum)) / (beta * slopeSum) : Infinity;
  const halfWidth = quantile * logCostSe;
  return {
    intercepts: opponents.map(([opponent, opponentPoints], o) => ({ opponent, opponentPoints, alpha: alphas[o] as number })),
    beta,
    cost: Math.exp(logCost),
    costInterval: { low: Math.exp(logCost - halfWidth), high: Math.exp(logCost + halfWidth) },
    dispersion,
    degreesOfFreedom,
    fitted,
    intervalBasis,
  };
}

/**
 * The fitted score of `count` models against opponents fielding `opponentPoints`: against `opponent`
 * alone, or (without it) averaged over every opponent fitted, each fielding `opponentPoints`. At
 * count · cost = opponentPoints the average is ½.
 */
export function ratioScore(fit: RatioFit, count: number, opponentPoints: number, opponent?: string): number {
  if (!(count > 0 && count < Infinity) || !(opponentPoints > 0 && opponentPoints < Infinity)) {
    throw new RangeError(`ratioScore needs a count and opponent points > 0, got ${count} and ${opponentPoints}`);
  }
  const x = Math.log(count / opponentPoints);
  if (opponent !== undefined) {
    const intercept = fit.intercepts.find((entry) => entry.opponent === opponent);
    if (intercept === undefined) throw new RangeError(`ratioScore: no opponent ${JSON.stringify(opponent)} in the fit (it has ${fit.intercepts.map((entry) => entry.opponent).join(', ')})`);
    return logistic(intercept.alpha + fit.beta * x);
  }
  return fit.intercepts.reduce((sum, { alpha }) => sum + logistic(alpha + fit.beta * x), 0) / fit.intercepts.length;
}
