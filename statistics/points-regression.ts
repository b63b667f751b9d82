import { studentTQuantile } from './distributions.js';
import type { Interval } from './intervals.js';
import { fitRobustLine, lineVarianceAt, type RobustLine } from './robust-line.js';

/**
 * Strength against points: what each unit deserves to cost in its list.
 *
 * Strengths are log-odds (Davidson/Bradley–Terry θ, see davidson.ts), so they are set against
 * ln(points): a unit that costs twice as much should gain the same log-odds whether it goes from
 * 20 to 40 points or from 100 to 200. The list's own cost-to-strength relation is the line
 * strength = a + b·ln(points), fitted robustly (statistics/robust-line.ts, Huber's M-estimator):
 * the units are themselves mispriced — that is what a designer looks for — so a few badly priced
 * ones must not drag the line that judges them.
 *
 * A unit's **deserved cost** is where the line puts its strength: exp((θ − a)/b), the price at
 * which it would be as strong as the list's fairly priced units of that price. Its 95% interval
 * counts what is not known — the simulation noise of θ and the uncertainty of the line (a, b) —
 * and nothing else: not how far other units scatter about the line, which is their mispricing,
 * not uncertainty about this unit. Each unit is judged against the line fitted to the *other*
 * units, so its own strength and the line are independent. The interval is Fieller's (1954): the
 * prices x whose line height a + b·x could be θ, (θ − a − b·x)² ≤ q²·(se² + Var(a + b·x)); it is
 * bounded exactly when the slope differs from 0 significantly.
 *
 * Separately, a unit is **unusual for this list** when its strength lies outside the 95%
 * prediction band of that line: further from it than a unit drawn from the list's own scatter
 * would lie. That is the old "is this unit an outlier?" question; the deserved-cost interval
 * answers "what should it cost?".
 */

export interface PricedStrength {
  readonly id: string;
  readonly points: number;
  readonly strength: number;
  readonly standardError: number;
}

export interface UnitPrice {
  readonly id: string;
  readonly points: number;
  readonly strength: number;
  readonly standardError: number;
  /** exp((θ − a)/b) on the line fitted to the others; NaN when that line does not rise. */
  readonly deservedCost: number;
  /** 95%: the simulation noise and the line's uncertainty. UNBOUNDED_COST when the line does not rise significantly. */
  readonly deservedInterval: Interval;
  /** θ − (a + b·ln points) on the line fitted to the others, and that over its prediction standard error. */
  readonly residual: number;
  readonly studentizedResidual: number;
  /** Outside the 95% prediction band of the others' line: stronger or weaker than the list's scatter explains. */
  readonly unusual?: 'stronger' | 'weaker';
  /** Its weight in the line through every unit: below 1 when the robust fit discounts it as far off the line. */
  readonly weight: number;
}

export interface PointsRegression {
  /** strength = intercept + slope · ln(points), through every unit (robust). */
  readonly intercept: number;
  readonly slope: number;
  readonly slopeInterval: Interval;
  /** The robust standard deviation of the units about the line (their mispricing plus noise), in log-odds. */
  readonly scatter: number;
  readonly degreesOfFreedom: number;
  /** Root mean square of the strengths' standard errors: the part of the scatter that is simulation noise. */
  readonly noiseSd: number;
  readonly units: readonly UnitPrice[];
}

/** The cost interval when points do not predict strength: the data rule out no price at all. */
export const UNBOUNDED_COST: Interval = Object.freeze({ low: 0, high: Infinity });

/** The upper quantile of a two-sided 95% interval. */
const TWO_SIDED_95 = 0.975;

/**
 * Fieller's interval for x = (θ − a)/b with θ ~ (strength, se²) independent of the line: the x with
 * (θ − a − b·x)² ≤ q²·(se² + Var(a) + 2x·Cov(a, b) + x²·Var(b)). In ln(points); UNBOUNDED when the
 * quadratic opens downwards (the slope is not significantly above 0).
 */
function fiellerInterval(
  line: Pick<RobustLine, 'intercept' | 'slope' | 'covariance'>,
  strength: number,
  ownVariance: number,
  quantile: number,
): Interval {
  const { intercept: a, slope: b, covariance } = line;
  const q2 = quantile * quantile;
  const leading = b * b - q2 * covariance.slope;
  if (!(b > 0) || !(leading > 0)) return UNBOUNDED_COST;
  const d = strength - a;
  const half = -(d * b + q2 * covariance.cross);
  const constant = d * d - q2 * (ownVariance + covariance.intercept);
  const root = Math.sqrt(Math.max(0, half * half - leading * constant));
  return { low: Math.exp((-half - root) / leading), high: Math.exp((-half + root) / leading) };
}

/**
 * The t quantile for a deserved cost: its variance is the unit's own (known from its many games:
 * infinite degrees of freedom) plus the line's (n − 2 degrees of freedom of the others' fit), so the
 * degrees of freedom are Satterthwaite's (1946), taken at the deserved cost.
 */
function deservedQuantile(line: RobustLine, unit: PricedStrength): number {
  const x = line.slope > 0 ? (unit.strength - line.intercept) / line.slope : 0;
  const lineVariance = lineVarianceAt(line, x);
  const total = unit.standardError ** 2 + lineVariance;
  const degreesOfFreedom = lineVariance > 0 ? (total * total * line.degreesOfFreedom) / (lineVariance * lineVariance) : Infinity;
  return studentTQuantile(TWO_SIDED_95, degreesOfFreedom);
}

function checkUnits(units: readonly PricedStrength[]): void {
  units.forEach((unit, index) => {
    const where = `units[${index}] (${JSON.stringify(unit.id)})`;
    if (!(unit.points > 0 && unit.points < Infinity))
      throw new RangeError(`${where}.points must be a finite number > 0, got ${unit.points}`);
    if (!Number.isFinite(unit.strength)) throw new RangeError(`${where}.strength must be a finite number, got ${unit.strength}`);
    if (!(unit.standardError >= 0 && unit.standardError < Infinity))
      throw new RangeError(`${where}.standardError must be a finite number ≥ 0, got ${unit.standardError}`);
  });
  // A unit is judged against a line through the others, with some scatter left: 2 parameters + 2.
  if (units.length < 5)
    throw new RangeError(
      `pricing whole units needs at least 5 units (a line through the others, with scatter left to judge it by), got ${units.length}`,
    );
  if (new Set(units.map((unit) => unit.points)).size < 3)
    throw new RangeError(
      'pricing whole units needs units at 3 or more different points values: with fewer, strength cannot be related to points',
    );
}

/** Every unit's deserved cost and whether it is unusual, each against the robust line through the others. */
export function regressStrengthOnPoints(units: readonly PricedStrength[]): PointsRegression {
  checkUnits(units);
  const n = units.length;
  const xs = units.map((unit) => Math.log(unit.points));
  const ys = units.map((unit) => unit.strength);
  const line = fitRobustLine(xs, ys);
  const slopeHalfWidth = studentTQuantile(TWO_SIDED_95, line.degreesOfFreedom) * Math.sqrt(line.covariance.slope);
  const predictionQuantile = studentTQuantile(TWO_SIDED_95, (line.degreesOfFreedom * (n - 3)) / (n - 2));
  const prices = units.map((unit, i): UnitPrice => {
    const others = [...xs.keys()].filter((j) => j !== i);
    const otherXs = others.map((j) => xs[j] as number);
    if (new Set(otherXs).size < 2)
      throw new RangeError(
        `${JSON.stringify(unit.id)} is the only unit at ${unit.points} points and all the others share one price: without it no line can be fitted to judge it against`,
      );
    const fit = fitRobustLine(
      otherXs,
      others.map((j) => ys[j] as number),
    );
    const x = xs[i] as number;
    const residual = unit.strength - fit.intercept - fit.slope * x;
    const predictionSe = Math.sqrt(fit.scale * fit.scale + lineVarianceAt(fit, x));
    const studentizedResidual = predictionSe > 0 ? residual / predictionSe : residual === 0 ? 0 : Math.sign(residual) * Infinity;
    const unusual =
      studentizedResidual > predictionQuantile ? 'stronger' : studentizedResidual < -predictionQuantile ? 'weaker' : undefined;
    return {
      id: unit.id,
      points: unit.points,
      strength: unit.strength,
      standardError: unit.standardError,
      deservedCost: fit.slope > 0 ? Math.exp((unit.strength - fit.intercept) / fit.slope) : Number.NaN,
      deservedInterval: fiellerInterval(fit, unit.strength, unit.standardError ** 2, deservedQuantile(fit, unit)),
      residual,
      studentizedResidual,
      ...(unusual === undefined ? {} : { unusual }),
      weight: line.weights[i] as number,
    };
  });
  return {
    intercept: line.intercept,
    slope: line.slope,
    slopeInterval: { low: line.slope - slopeHalfWidth, high: line.slope + slopeHalfWidth },
    scatter: line.scale,
    degreesOfFreedom: line.degreesOfFreedom,
    noiseSd: Math.sqrt(units.reduce((sum, unit) => sum + unit.standardError ** 2, 0) / n),
    units: prices,
  };
}
