import { studentTQuantile } from './distributions.js';
import type { Interval } from './intervals.js';

/**
 * Strength against points: which units are over- or under-costed for what they do.
 *
 * Strengths are log-odds (Davidson/Bradley–Terry θ, see davidson.ts), so they are regressed on
 * ln(points), not on points: a unit that costs twice as much should gain the same log-odds whether
 * it goes from 20 to 40 points or from 100 to 200, which is what "points buy a fixed share of
 * fighting value" means. On a linear points scale the same rule would make the line bend.
 *
 * The fit is ordinary least squares, strength = intercept + slope·ln(points) + e. The residual
 * standard deviation absorbs both the unit-to-unit scatter (no costing system is perfect) and the
 * estimation noise of each strength; OLS weighs all units alike, which suits a round robin where
 * every unit played the same number of games (their standard errors are alike).
 *
 * Each unit is judged against the line fitted to the *other* units (leave-one-out), so an outlier
 * cannot pull the line towards itself and hide: its externally studentised residual follows
 * Student's t with n − 3 degrees of freedom when the unit is fairly costed (normal scatter).
 */

export interface PricedStrength {
  readonly id: string;
  readonly points: number;
  readonly strength: number;
  readonly standardError: number;
}

export interface CostVerdict {
  readonly id: string;
  readonly points: number;
  readonly strength: number;
  /** Points the fitted line gives this strength (inverse prediction), with its 95% interval from the
   *  prediction band (so it covers the unit-to-unit scatter of the fit and the line's own error).
   *  The line is the one fitted to the other units. When that line does not rise significantly, no
   *  price can be read off it: the interval is UNBOUNDED_COST ({low: 0, high: Infinity}), and
   *  fittedCost is NaN if the line does not rise at all. */
  readonly fittedCost: number;
  readonly costInterval: Interval;
  /** strength − line(points), and the externally studentised residual (leave-one-out). */
  readonly residual: number;
  readonly studentizedResidual: number;
  /** 'under-costed' (stronger than its points: residual above the 95% leave-one-out prediction
   *  interval), 'over-costed' (below it) or 'fair'. When costInterval is bounded, a unit is 'fair'
   *  exactly when its published points lie inside it (the same band, read the other way). */
  readonly verdict: 'under-costed' | 'fair' | 'over-costed';
  /** 95% interval for the unit's deserved cost — the points at which the true line would give it
   *  its true strength — from its own standard error and the line's error, without the scatter
   *  between units: the range to reprice it within. Narrower than costInterval, which also spans
   *  the scatter a fairly costed unit shows. UNBOUNDED_COST when the line does not rise significantly. */
  readonly deservedCostInterval?: Interval;
}

export interface PointsRegression {
  /** strength = intercept + slope · log(points) (a unit twice as expensive gains `slope·ln 2` log-odds). */
  readonly intercept: number;
  readonly slope: number;
  readonly slopeInterval: Interval;
  /** Residual standard deviation (unit-to-unit scatter plus estimation noise) and degrees of freedom. */
  readonly residualSd: number;
  readonly degreesOfFreedom: number;
  readonly units: readonly CostVerdict[];
  /** Root mean square of the strengths' standard errors: the part of residualSd that is estimation
   *  noise (the rest, √(residualSd² − noiseSd²), is how loosely the units fit the line). */
  readonly noiseSd?: number;
}

/** The cost interval when points do not predict strength: the data rule out no price at all. */
export const UNBOUNDED_COST: Interval = Object.freeze({ low: 0, high: Infinity });

/** The upper quantile of a two-sided 95% interval. */
const TWO_SIDED_95 = 0.975;

interface Line {
  readonly intercept: number;
  readonly slope: number;
  readonly meanX: number;
  readonly meanY: number;
  /** Σ(x − x̄)², Σ residual², number of points. */
  readonly sxx: number;
  readonly sse: number;
  readonly count: number;
}

function fitLine(xs: readonly number[], ys: readonly number[]): Line {
  const count = xs.length;
  const meanX = xs.reduce((sum, x) => sum + x, 0) / count;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / count;
  let sxx = 0;
  let sxy = 0;
  xs.forEach((x, i) => {
    sxx += (x - meanX) ** 2;
    sxy += (x - meanX) * ((ys[i] as number) - meanY);
  });
  const slope = sxy / sxx;
  const intercept = meanY - slope * meanX;
  const sse = xs.reduce((sum, x, i) => sum + ((ys[i] as number) - intercept - slope * x) ** 2, 0);
  return { intercept, slope, meanX, meanY, sxx, sse, count };
}

/**
 * The points whose band contains y0 (classical calibration, Fieller's construction): the u = x − x̄
 * (x = ln points) with (y0 − ȳ − b·u)² ≤ q²·(ownVariance + s²/m + s²u²/Sxx). With ownVariance = s²
 * the band is the prediction band (a new unit's scatter and noise plus the line's error); with the
 * unit's own squared standard error it is the confidence band for where the true line puts it.
 * Bounded exactly when b² > q²s²/Sxx (the slope differs from 0 significantly); it must also be
 * positive for a price to be read off.
 */
function calibrationInterval(line: Line, y0: number, residualSd: number, ownVariance: number, quantile: number): Interval {
  const { slope, sxx, count } = line;
  const q2 = quantile * quantile;
  const curvature = slope * slope - (q2 * residualSd * residualSd) / sxx;
  if (!(slope > 0) || !(curvature > 0)) return UNBOUNDED_COST;
  const offset = y0 - line.meanY;
  const halfWidth = Math.sqrt(q2 * ((residualSd * residualSd * offset * offset) / sxx + curvature * (ownVariance + (residualSd * residualSd) / count)));
  return {
    low: Math.exp(line.meanX + (slope * offset - halfWidth) / curvature),
    high: Math.exp(line.meanX + (slope * offset + halfWidth) / curvature),
  };
}

/**
 * The t quantile for the deserved-cost interval. Its variance is the unit's own (known from its
 * many games: infinite degrees of freedom) plus the line's (s², n − 3 degrees of freedom), so the
 * degrees of freedom are Satterthwaite's (1946), taken at the fitted cost.
 */
function deservedQuantile(line: Line, unit: PricedStrength, residualSd: number, lineDegreesOfFreedom: number): number {
  const u = line.slope > 0 ? (unit.strength - line.meanY) / line.slope : 0;
  const lineVariance = residualSd * residualSd * (1 / line.count + (u * u) / line.sxx);
  const total = unit.standardError ** 2 + lineVariance;
  const degreesOfFreedom = lineVariance > 0 ? (total * total * lineDegreesOfFreedom) / (lineVariance * lineVariance) : Infinity;
  return studentTQuantile(TWO_SIDED_95, degreesOfFreedom);
}

function checkUnits(units: readonly PricedStrength[]): void {
  units.forEach((unit, index) => {
    const where = `units[${index}] (${JSON.stringify(unit.id)})`;
    if (!(unit.points > 0 && unit.points < Infinity)) throw new RangeError(`${where}.points must be a finite number > 0, got ${unit.points}`);
    if (!Number.isFinite(unit.strength)) throw new RangeError(`${where}.strength must be a finite number, got ${unit.strength}`);
    if (!(unit.standardError >= 0 && unit.standardError < Infinity)) throw new RangeError(`${where}.standardError must be a finite number ≥ 0, got ${unit.standardError}`);
  });
  // A verdict compares a unit with a line fitted to the others and their scatter: 2 parameters + 1 degree of freedom.
  if (units.length < 4) throw new RangeError(`regressStrengthOnPoints needs at least 4 units (a line through the others, with some scatter left to judge against), got ${units.length}`);
  if (new Set(units.map((unit) => unit.points)).size < 2) throw new RangeError('regressStrengthOnPoints needs units at 2 or more different points values: with one price, strength cannot be related to points');
}

export function regressStrengthOnPoints(units: readonly PricedStrength[]): PointsRegression {
  checkUnits(units);
  const n = units.length;
  const xs = units.map((unit) => Math.log(unit.points));
  const ys = units.map((unit) => unit.strength);
  const line = fitLine(xs, ys);
  const degreesOfFreedom = n - 2;
  const residualSd = Math.sqrt(line.sse / degreesOfFreedom);
  const slopeHalfWidth = (studentTQuantile(TWO_SIDED_95, degreesOfFreedom) * residualSd) / Math.sqrt(line.sxx);
  const leaveOneOutT = studentTQuantile(TWO_SIDED_95, n - 3);

  const verdicts = units.map((unit, i): CostVerdict => {
    const others = fitLine(
      xs.filter((_, j) => j !== i),
      ys.filter((_, j) => j !== i),
    );
    if (!(others.sxx > 0)) {
      throw new RangeError(`${JSON.stringify(unit.id)} is the only unit at ${unit.points} points and all the others share one price: without it no line can be fitted to judge it against`);
    }
    const x = xs[i] as number;
    const othersSd = Math.sqrt(others.sse / (n - 3));
    // The deleted residual over its standard error is the externally studentised residual.
    const deleted = unit.strength - others.intercept - others.slope * x;
    const deletedSe = othersSd * Math.sqrt(1 + 1 / others.count + (x - others.meanX) ** 2 / others.sxx);
    const studentizedResidual = deletedSe > 0 ? deleted / deletedSe : deleted === 0 ? 0 : Math.sign(deleted) * Infinity;
    const verdict = studentizedResidual > leaveOneOutT ? 'under-costed' : studentizedResidual < -leaveOneOutT ? 'over-costed' : 'fair';
    return {
      id: unit.id,
      points: unit.points,
      strength: unit.strength,
      fittedCost: others.slope > 0 ? Math.exp((unit.strength - others.intercept) / others.slope) : Number.NaN,
      costInterval: calibrationInterval(others, unit.strength, othersSd, othersSd * othersSd, leaveOneOutT),
      deservedCostInterval: calibrationInterval(others, unit.strength, othersSd, unit.standardError ** 2, deservedQuantile(others, unit, othersSd, n - 3)),
      residual: unit.strength - line.intercept - line.slope * x,
      studentizedResidual,
      verdict,
    };
  });
  return {
    intercept: line.intercept,
    slope: line.slope,
    slopeInterval: { low: line.slope - slopeHalfWidth, high: line.slope + slopeHalfWidth },
    residualSd,
    degreesOfFreedom,
    units: verdicts,
    noiseSd: Math.sqrt(units.reduce((sum, unit) => sum + unit.standardError ** 2, 0) / n),
  };
}
