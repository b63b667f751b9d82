/**
 * A straight line y = intercept + slope·x fitted robustly: Huber's M-estimator (Huber 1964; 1981,
 * ch. 7), as R's MASS::rlm fits it by default. Least squares lets every point pull the line in
 * proportion to its residual; Huber's ψ lets a point pull in proportion to its residual only up to
 * k = 1.345 robust standard deviations, and no further. A few points far off the line — the units
 * a costing system got badly wrong, which are exactly what a designer looks for — then move the
 * line far less than they would move least squares, while on well-behaved data the fit keeps 95%
 * of least squares' efficiency.
 *
 * Fitted by iteratively reweighted least squares, the scale re-estimated at every step as the
 * median absolute residual / 0.6745 (a robust standard deviation: the normal's own at normal data).
 * For a fixed scale Huber's objective is convex, so the line found does not depend on the start.
 *
 * Its covariance is Huber's asymptotic one with his small-sample correction (Huber 1981, §7.6;
 * MASS's summary.rlm, method "XtX"): σ² κ² (Σψ²/(n − p)) / (mean ψ')² · (XᵀX)⁻¹, κ = 1 + p·var(ψ')/(n·(mean ψ')²).
 */

/** Huber's tuning constant: 95% efficiency at the normal. */
export const HUBER_K = 1.345;
/** MAD → standard deviation at the normal: 1 / Φ⁻¹(0.75). */
const MAD_TO_SD = 1 / 0.6744897501960817;
const MAX_ITERATIONS = 100;
/**
 * The share of least squares' n − 2 degrees of freedom that t quantiles of this fit use. Huber's
 * variance estimate rests on a robust scale that is itself less stable than least squares' at
 * small n, and with n − 2 its 95% intervals covered 93% at 10 points and 89% at 6 (measured on
 * normal, heavy-tailed and contaminated scatter, test/analysis/points-regression.test.ts); at 70%
 * of them they cover 94–96% from 10 points up, 91–94% at 6. The price of it is a slightly wider
 * interval on long lists (about 2% at 24 points).
 */
const DEGREES_OF_FREEDOM_SHARE = 0.7;
const TOLERANCE = 1e-10;

export interface RobustLine {
  readonly intercept: number;
  readonly slope: number;
  /** The robust residual standard deviation (MAD-based) the weights were computed with. */
  readonly scale: number;
  /** Var(intercept), Cov(intercept, slope), Var(slope). */
  readonly covariance: { readonly intercept: number; readonly cross: number; readonly slope: number };
  /** Each point's final weight in [0, 1]: 1 inside k·scale of the line, k·scale/|residual| beyond. */
  readonly weights: readonly number[];
  /** For t quantiles: DEGREES_OF_FREEDOM_SHARE·(n − 2) (see there). */
  readonly degreesOfFreedom: number;
  readonly iterations: number;
  readonly converged: boolean;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Weighted least squares of y on x: intercept and slope. */
function weightedLine(xs: readonly number[], ys: readonly number[], weights: readonly number[]): { intercept: number; slope: number } {
  let sw = 0;
  let sx = 0;
  let sy = 0;
  xs.forEach((x, i) => {
    const w = weights[i] as number;
    sw += w;
    sx += w * x;
    sy += w * (ys[i] as number);
  });
  const meanX = sx / sw;
  const meanY = sy / sw;
  let sxx = 0;
  let sxy = 0;
  xs.forEach((x, i) => {
    const w = weights[i] as number;
    sxx += w * (x - meanX) ** 2;
    sxy += w * (x - meanX) * ((ys[i] as number) - meanY);
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { intercept: meanY - slope * meanX, slope };
}

const huberWeight = (u: number): number => (Math.abs(u) <= HUBER_K ? 1 : HUBER_K / Math.abs(u));

/** The line through (xs, ys) by Huber's M-estimator; needs at least 3 points and 2 different x. */
export function fitRobustLine(xs: readonly number[], ys: readonly number[]): RobustLine {
  const n = xs.length;
  if (n !== ys.length) throw new RangeError(`fitRobustLine needs as many y as x, got ${ys.length} and ${n}`);
  if (n < 3) throw new RangeError(`fitRobustLine needs at least 3 points, got ${n}`);
  if (![...xs, ...ys].every(Number.isFinite)) throw new RangeError('fitRobustLine needs finite numbers');
  if (new Set(xs).size < 2) throw new RangeError('fitRobustLine needs at least 2 different x');
  let weights = xs.map(() => 1);
  let line = weightedLine(xs, ys, weights);
  let scale = 0;
  let iterations = 0;
  let converged = false;
  for (; iterations < MAX_ITERATIONS && !converged; iterations++) {
    const residuals = xs.map((x, i) => (ys[i] as number) - line.intercept - line.slope * x);
    scale = median(residuals.map(Math.abs)) * MAD_TO_SD;
    // Half the points exactly on the line: no scatter to weigh by, least squares of those is the answer.
    if (!(scale > 0)) {
      converged = true;
      break;
    }
    weights = residuals.map((residual) => huberWeight(residual / scale));
    const next = weightedLine(xs, ys, weights);
    const moved = Math.abs(next.intercept - line.intercept) + Math.abs(next.slope - line.slope) * (1 + Math.max(...xs.map(Math.abs)));
    line = next;
    converged = moved < TOLERANCE * (1 + scale);
  }
  const residuals = xs.map((x, i) => (ys[i] as number) - line.intercept - line.slope * x);
  const p = 2;
  // ψ(r/σ)·σ (a residual, clipped at k·σ) and ψ'(r/σ) (1 inside, 0 beyond).
  const clipped = residuals.map((residual) => (scale > 0 ? Math.max(-HUBER_K * scale, Math.min(HUBER_K * scale, residual)) : residual));
  const slopes = residuals.map((residual): number => (scale > 0 && Math.abs(residual) > HUBER_K * scale ? 0 : 1));
  const meanSlope = slopes.reduce((sum, value) => sum + value, 0) / n;
  const slopeVariance = slopes.reduce((sum, value) => sum + (value - meanSlope) ** 2, 0) / (n - 1);
  const kappa = 1 + (p * slopeVariance) / (n * meanSlope * meanSlope);
  const spread = Math.sqrt(clipped.reduce((sum, value) => sum + value * value, 0) / (n - p)) * (kappa / meanSlope);
  // (XᵀX)⁻¹ for the columns (1, x).
  const meanX = xs.reduce((sum, x) => sum + x, 0) / n;
  const sxx = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
  const variance = spread * spread;
  return {
    intercept: line.intercept,
    slope: line.slope,
    scale,
    covariance: { intercept: variance * (1 / n + (meanX * meanX) / sxx), cross: (-variance * meanX) / sxx, slope: variance / sxx },
    weights,
    degreesOfFreedom: (n - p) * DEGREES_OF_FREEDOM_SHARE,
    iterations,
    converged,
  };
}

/** Var(intercept + slope·x): how uncertain the line's height is at x. */
export function lineVarianceAt(line: RobustLine, x: number): number {
  const { covariance } = line;
  return covariance.intercept + 2 * x * covariance.cross + x * x * covariance.slope;
}
