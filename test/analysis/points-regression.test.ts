import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { linearRegression } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { type PricedStrength, regressStrengthOnPoints, UNBOUNDED_COST } from '../../analysis/points-regression.js';
import { seedGenerator } from '../../engine/dice/index.js';
import { CHECK_Z } from '../helpers/power.js';

/**
 * Synthetic truth: each unit's true strength is INTERCEPT + SLOPE·ln(points) plus its own
 * scatter N(0, SCATTER²) (no costing is perfect), and the strength we are given carries estimation
 * noise N(0, NOISE²) on top, as a Davidson fit's would.
 *
 * What the intervals claim, and so what they are checked against:
 * - the slope interval covers SLOPE;
 * - a fairly costed unit (drawn from this population) is flagged 5% of the time, and its cost
 *   interval — the points at which its strength would sit inside the prediction band — covers its
 *   published points 95% of the time (the same event, computed by a different route);
 * - the unit's deserved cost, where the true line gives its true strength, exp((θ − a)/b), is
 *   covered 95% of the time by deservedCostInterval (the unit's own noise and the line's error),
 *   and at least that often by costInterval, which also spans the scatter between units.
 */

const SEED = 20261122;
const INTERCEPT = -4;
const SLOPE = 1;
const SCATTER = 0.3;
const NOISE = 0.1;
const UNITS = 30;
const REPLICATIONS = 500;
/** Published points from 20 to 300, evenly spread on a log scale and rounded as a points list would be. */
const POINTS = Array.from({ length: UNITS }, (_, i) => Math.round(20 * 15 ** (i / (UNITS - 1))));

function normal(rng: RandomGenerator): number {
  const u = uniformFloat64(rng);
  const v = uniformFloat64(rng);
  return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
}

function syntheticUnits(rng: RandomGenerator, offsets: ReadonlyMap<number, number> = new Map()) {
  const trueStrength = POINTS.map((points, i) => INTERCEPT + SLOPE * Math.log(points) + SCATTER * normal(rng) + (offsets.get(i) ?? 0));
  const units: PricedStrength[] = POINTS.map((points, i) => ({ id: `unit-${i}`, points, strength: (trueStrength[i] as number) + NOISE * normal(rng), standardError: NOISE }));
  return { units, trueStrength };
}

/** |count − expected| within CHECK_Z binomial standard errors of `trials` checks at rate `rate`. */
function expectRate(count: number, trials: number, rate: number): void {
  const tolerance = CHECK_Z * Math.sqrt(trials * rate * (1 - rate));
  expect(Math.abs(count - trials * rate), `${count} of ${trials} against a rate of ${rate}`).toBeLessThanOrEqual(tolerance);
}

const inside = (value: number, interval: { low: number; high: number }) => interval.low <= value && value <= interval.high;

describe('strength regressed on ln(points)', () => {
  it('is the least-squares line, with externally studentised residuals from the hat matrix', () => {
    const { units } = syntheticUnits(seedGenerator(SEED));
    const fit = regressStrengthOnPoints(units);
    const xs = units.map((unit) => Math.log(unit.points));
    // Oracle: simple-statistics' regression, and the closed forms of leverage and deleted variance.
    const line = linearRegression(units.map((unit, i) => [xs[i] as number, unit.strength]));
    expect(fit.slope).toBeCloseTo(line.m, 12);
    expect(fit.intercept).toBeCloseTo(line.b, 12);
    const n = units.length;
    const meanX = xs.reduce((a, b) => a + b, 0) / n;
    const sxx = xs.reduce((sum, x) => sum + (x - meanX) ** 2, 0);
    const residuals = units.map((unit, i) => unit.strength - line.b - line.m * (xs[i] as number));
    const sse = residuals.reduce((sum, e) => sum + e * e, 0);
    expect(fit.residualSd).toBeCloseTo(Math.sqrt(sse / (n - 2)), 12);
    expect(fit.degreesOfFreedom).toBe(n - 2);
    fit.units.forEach((verdict, i) => {
      const e = residuals[i] as number;
      const leverage = 1 / n + ((xs[i] as number) - meanX) ** 2 / sxx;
      const deletedSd = Math.sqrt((sse - (e * e) / (1 - leverage)) / (n - 3));
      expect(verdict.residual).toBeCloseTo(e, 12);
      expect(verdict.studentizedResidual).toBeCloseTo(e / (deletedSd * Math.sqrt(1 - leverage)), 10);
    });
    expect(fit.noiseSd).toBeCloseTo(NOISE, 12);
  });

  it('flags a unit exactly when its published points fall outside its cost interval', () => {
    const rng = seedGenerator(SEED);
    const disagreements: string[] = [];
    for (let replication = 0; replication < 50; replication++) {
      for (const verdict of regressStrengthOnPoints(syntheticUnits(rng).units).units) {
        const consistent =
          (verdict.verdict === 'fair') === inside(verdict.points, verdict.costInterval) &&
          inside(verdict.fittedCost, verdict.costInterval) &&
          Math.sign(verdict.studentizedResidual) === Math.sign(verdict.residual);
        if (!consistent) disagreements.push(`${verdict.id}: ${verdict.verdict}, ${verdict.points} (fitted ${verdict.fittedCost}) in ${JSON.stringify(verdict.costInterval)}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('recovers the slope, flags fair units about 5% of the time and covers costs as it claims, over replications', () => {
    const rng = seedGenerator(SEED);
    let slopeCovered = 0;
    let flagged = 0;
    let deservedCovered = 0;
    let deservedCoveredByCostInterval = 0;
    for (let replication = 0; replication < REPLICATIONS; replication++) {
      const { units, trueStrength } = syntheticUnits(rng);
      const fit = regressStrengthOnPoints(units);
      if (inside(SLOPE, fit.slopeInterval)) slopeCovered++;
      fit.units.forEach((verdict, i) => {
        const deserved = Math.exp(((trueStrength[i] as number) - INTERCEPT) / SLOPE);
        if (verdict.verdict !== 'fair') flagged++;
        if (verdict.deservedCostInterval !== undefined && inside(deserved, verdict.deservedCostInterval)) deservedCovered++;
        if (inside(deserved, verdict.costInterval)) deservedCoveredByCostInterval++;
      });
    }
    const checks = REPLICATIONS * UNITS;
    expectRate(slopeCovered, REPLICATIONS, 0.95);
    expectRate(flagged, checks, 0.05);
    expectRate(deservedCovered, checks, 0.95);
    expect(deservedCoveredByCostInterval).toBeGreaterThanOrEqual(deservedCovered);
  });

  it('flags a unit given a large offset, the right way round', () => {
    const rng = seedGenerator(SEED);
    // ±2 log-odds is over 6 standard deviations of a fair unit's residual: missed about once in 10⁴.
    const offsets = new Map([
      [7, 2],
      [21, -2],
    ]);
    let caught = 0;
    let pricedTheRightWay = 0;
    const replications = 100;
    for (let replication = 0; replication < replications; replication++) {
      const fit = regressStrengthOnPoints(syntheticUnits(rng, offsets).units);
      const [strong, weak] = [fit.units[7], fit.units[21]];
      if (strong?.verdict === 'under-costed' && weak?.verdict === 'over-costed') caught++;
      if ((strong?.fittedCost ?? 0) > (POINTS[7] as number) && (weak?.fittedCost ?? Infinity) < (POINTS[21] as number)) pricedTheRightWay++;
    }
    expect(caught).toBeGreaterThanOrEqual(replications - 2);
    expect(pricedTheRightWay).toBe(replications);
  });

  it('gives no price when strength does not rise with points', () => {
    const priced = (strengths: readonly number[]) => strengths.map((strength, i) => ({ id: `u${i}`, points: 10 * (i + 1), strength, standardError: 0.05 }));
    // Scattered with no trend: the line could be flat, so any price fits.
    const flat = regressStrengthOnPoints(priced([0.3, -0.1, 0.2, -0.2, 0.1, 0]));
    expect(flat.slopeInterval.low).toBeLessThan(0);
    for (const verdict of flat.units) expect(verdict.costInterval).toEqual(UNBOUNDED_COST);
    // Falling with points: no line to read a price off, so no fitted cost either.
    const falling = regressStrengthOnPoints(priced([0.5, 0.3, 0.35, 0.1, 0, -0.2]));
    expect(falling.slopeInterval.high).toBeLessThan(0);
    for (const verdict of falling.units) {
      expect(verdict.costInterval).toEqual(UNBOUNDED_COST);
      expect(verdict.fittedCost).toBeNaN();
    }
  });

  it('refuses data that cannot be judged, saying why', () => {
    const unit = (id: string, points: number, strength: number): PricedStrength => ({ id, points, strength, standardError: 0.1 });
    expect(() => regressStrengthOnPoints([unit('a', 10, 0), unit('b', 20, 1), unit('c', 30, 2)])).toThrow(/at least 4 units/);
    expect(() => regressStrengthOnPoints([unit('a', 10, 0), unit('b', 10, 1), unit('c', 10, 2), unit('d', 10, 3)])).toThrow(/2 or more different points/);
    expect(() => regressStrengthOnPoints([unit('a', 10, 0), unit('b', 20, 1), unit('c', 20, 2), unit('d', 20, 3)])).toThrow(/"a" is the only unit at 10 points/);
    expect(() => regressStrengthOnPoints([unit('a', 0, 0), unit('b', 20, 1), unit('c', 30, 2), unit('d', 40, 3)])).toThrow(/units\[0\] \("a"\)\.points must be a finite number > 0/);
    expect(() => regressStrengthOnPoints([unit('a', 10, Number.NaN), unit('b', 20, 1), unit('c', 30, 2), unit('d', 40, 3)])).toThrow(/strength must be a finite number/);
    expect(() => regressStrengthOnPoints([{ ...unit('a', 10, 0), standardError: -1 }, unit('b', 20, 1), unit('c', 30, 2), unit('d', 40, 3)])).toThrow(/standardError/);
  });
});
