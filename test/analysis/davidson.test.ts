import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';
import { describe, expect, it } from 'vitest';
import { davidsonExpectedScore, davidsonProbabilities, fitDavidson, type PairingCounts } from '../../statistics/davidson.js';
import { Z_95 } from '../../statistics/intervals.js';
import { seedGenerator } from '../../engine/dice/index.js';
import { CHECK_Z } from '../helpers/power.js';

/**
 * Synthetic truth: units with known strengths θ (centred), draw parameter ν and first-seat
 * advantage η play a round robin in both seatings; game outcomes are drawn from the model's own
 * probabilities (written out below from the formula, not taken from the code under test). The fit
 * must find the truth within its standard errors, its 95% intervals must cover the truth 95% of
 * the time over replications, and its maximum must be a maximum of an independently written
 * likelihood.
 */

const SEED = 20261122;
const centred = (values: readonly number[]) => values.map((value) => value - values.reduce((a, b) => a + b, 0) / values.length);
const TRUE_STRENGTH = centred([-1.2, -0.8, -0.5, -0.2, 0, 0.15, 0.4, 0.9, 1.3]);
const TRUE_DRAW = 0.6;
const TRUE_SEAT = 0.25;
const UNITS = TRUE_STRENGTH.length;

/** The model from its formula: π = e^θ, the first seat's π multiplied by e^η. */
function modelProbabilities(thetaFirst: number, thetaSecond: number, nu: number, eta: number) {
  const first = Math.exp(thetaFirst + eta);
  const second = Math.exp(thetaSecond);
  const draw = nu * Math.sqrt(first * second);
  const total = first + second + draw;
  return { firstWins: first / total, draw: draw / total, secondWins: second / total };
}

/** Every ordered pair (both seatings) plays `games` games, drawn outcome by outcome. */
function roundRobin(rng: RandomGenerator, games: number, theta: readonly number[] = TRUE_STRENGTH): PairingCounts[] {
  const pairings: PairingCounts[] = [];
  theta.forEach((thetaFirst, first) =>
    theta.forEach((thetaSecond, second) => {
      if (first === second) return;
      const p = modelProbabilities(thetaFirst, thetaSecond, TRUE_DRAW, TRUE_SEAT);
      let [firstWins, draws] = [0, 0];
      for (let game = 0; game < games; game++) {
        const u = uniformFloat64(rng);
        if (u < p.firstWins) firstWins++;
        else if (u < p.firstWins + p.draw) draws++;
      }
      pairings.push({ first, second, firstWins, draws, secondWins: games - firstWins - draws });
    }),
  );
  return pairings;
}

/** The log-likelihood from the formula, in (θ with θ₀ free, log ν, η). */
function naiveLogLikelihood(pairings: readonly PairingCounts[], theta: readonly number[], logNu: number, eta: number): number {
  let sum = 0;
  for (const { first, second, firstWins, draws, secondWins } of pairings) {
    const p = modelProbabilities(theta[first] as number, theta[second] as number, Math.exp(logNu), eta);
    sum += firstWins * Math.log(p.firstWins) + draws * Math.log(p.draw) + secondWins * Math.log(p.secondWins);
  }
  return sum;
}

/** Parameters as one vector: θ₁…θₘ₋₁ (θ₀ = 0), log ν, η. */
const unpack = (vector: readonly number[]) => ({
  theta: [0, ...vector.slice(0, UNITS - 1)],
  logNu: vector[UNITS - 1] as number,
  eta: vector[UNITS] as number,
});

function invert(matrix: number[][]): number[][] {
  const n = matrix.length;
  const augmented = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let column = 0; column < n; column++) {
    const pivotRow = augmented[column] as number[];
    const pivot = pivotRow[column] as number;
    for (let j = 0; j < 2 * n; j++) pivotRow[j] = (pivotRow[j] as number) / pivot;
    augmented.forEach((row, i) => {
      if (i === column) return;
      const factor = row[column] as number;
      for (let j = 0; j < 2 * n; j++) row[j] = (row[j] as number) - factor * (pivotRow[j] as number);
    });
  }
  return augmented.map((row) => row.slice(n));
}

function expectCoverage(covered: number, trials: number, what: string): void {
  const tolerance = CHECK_Z * Math.sqrt(trials * 0.95 * 0.05);
  expect(Math.abs(covered - 0.95 * trials), `${what}: ${covered} of ${trials} covered`).toBeLessThanOrEqual(tolerance);
}

describe('Davidson probabilities', () => {
  it('match hand-worked cases and sum to 1', () => {
    // π = 2 against π = 1, ν = 1: D = 2 + 1 + √2.
    const even = davidsonProbabilities(Math.log(2), 0, 1);
    const d = 3 + Math.SQRT2;
    expect(even.firstWins).toBeCloseTo(2 / d, 14);
    expect(even.draw).toBeCloseTo(Math.SQRT2 / d, 14);
    expect(even.secondWins).toBeCloseTo(1 / d, 14);
    // A seat advantage of ln 1.5 makes the first π 3: D = 3 + 1 + √3.
    const seated = davidsonProbabilities(Math.log(2), 0, 1, Math.log(1.5));
    expect(seated.firstWins).toBeCloseTo(3 / (4 + Math.sqrt(3)), 14);
    expect(seated.draw).toBeCloseTo(Math.sqrt(3) / (4 + Math.sqrt(3)), 14);
    for (const [a, b, nu, eta] of [
      [0, 0, 0, 0],
      [3, -2, 0.4, 0.3],
      [-40, 40, 2, 0],
      [700, -700, 1, 0],
    ] as const) {
      const p = davidsonProbabilities(a, b, nu, eta);
      expect(p.firstWins + p.draw + p.secondWins).toBeCloseTo(1, 14);
      expect([p.firstWins, p.draw, p.secondWins].every(Number.isFinite)).toBe(true);
    }
    expect(davidsonProbabilities(0, 0, 0)).toEqual({ firstWins: 0.5, draw: 0, secondWins: 0.5 });
  });
});

describe('fitting Davidson strengths', () => {
  it('recovers known strengths, draws and seat advantage within 4 standard errors', () => {
    const fit = fitDavidson(UNITS, roundRobin(seedGenerator(SEED), 2000));
    expect(fit.converged).toBe(true);
    fit.strength.forEach((theta, unit) => {
      expect(Math.abs(theta - (TRUE_STRENGTH[unit] as number)), `unit ${unit}`).toBeLessThan(CHECK_Z * (fit.standardError[unit] as number));
    });
    const logNuSe = Math.log(fit.drawInterval.high / fit.drawInterval.low) / (2 * Z_95);
    expect(Math.abs(Math.log(fit.drawParameter / TRUE_DRAW))).toBeLessThan(CHECK_Z * logNuSe);
    expect(Math.abs(fit.seatAdvantage - TRUE_SEAT)).toBeLessThan(CHECK_Z * fit.seatAdvantageStandardError);
    expect(fit.strength.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 12);
  });

  it('finds the truth exactly from expected counts, for 400 units in both seatings', () => {
    // The model is an exponential family: its likelihood equations set expected counts equal to the
    // observed ones, so counts equal to their expectations give back the truth itself.
    const theta = centred(Array.from({ length: 400 }, (_, unit) => 1.5 * Math.sin(unit)));
    const pairings: PairingCounts[] = [];
    theta.forEach((a, first) =>
      theta.forEach((b, second) => {
        if (first === second) return;
        const p = modelProbabilities(a, b, TRUE_DRAW, TRUE_SEAT);
        pairings.push({ first, second, firstWins: 20 * p.firstWins, draws: 20 * p.draw, secondWins: 20 * p.secondWins });
      }),
    );
    const fit = fitDavidson(theta.length, pairings);
    expect(fit.converged).toBe(true);
    expect(Math.max(...fit.strength.map((value, unit) => Math.abs(value - (theta[unit] as number))))).toBeLessThan(1e-8);
    expect(fit.drawParameter).toBeCloseTo(TRUE_DRAW, 8);
    expect(fit.seatAdvantage).toBeCloseTo(TRUE_SEAT, 8);
  });

  it('puts its maximum where an independently written likelihood has its maximum, with its curvature', () => {
    const pairings = roundRobin(seedGenerator(SEED), 300);
    const fit = fitDavidson(UNITS, pairings);
    const at = [
      ...fit.strength.slice(1).map((theta) => theta - (fit.strength[0] as number)),
      Math.log(fit.drawParameter),
      fit.seatAdvantage,
    ];
    const logLikelihood = (vector: readonly number[]) => {
      const { theta, logNu, eta } = unpack(vector);
      return naiveLogLikelihood(pairings, theta, logNu, eta);
    };
    expect(fit.logLikelihood).toBeCloseTo(logLikelihood(at), 8);
    // The gradient by central differences is zero at the maximum (a 0.01 error in any θ would make it ~10).
    const h = 1e-5;
    const shifted = (vector: readonly number[], i: number, by: number) => vector.map((value, j) => (j === i ? value + by : value));
    const gradient = at.map((_, i) => (logLikelihood(shifted(at, i, h)) - logLikelihood(shifted(at, i, -h))) / (2 * h));
    for (const component of gradient) expect(Math.abs(component)).toBeLessThan(1e-3);
    // The covariance is the inverse of the curvature there (by finite differences), centred.
    const step = 1e-4;
    const hessian = at.map((_, i) =>
      at.map((_, j) => {
        const f = (a: number, b: number) => logLikelihood(shifted(shifted(at, i, a), j, b));
        return -(f(step, step) - f(step, -step) - f(-step, step) + f(-step, -step)) / (4 * step * step);
      }),
    );
    const inverse = invert(hessian);
    const thetaCovariance = Array.from({ length: UNITS }, (_, i) =>
      Array.from({ length: UNITS }, (_, j) => (i === 0 || j === 0 ? 0 : (inverse[i - 1]?.[j - 1] as number))),
    );
    const centring = Array.from({ length: UNITS }, (_, i) => Array.from({ length: UNITS }, (_, j) => (i === j ? 1 : 0) - 1 / UNITS));
    const multiply = (a: number[][], b: number[][]) =>
      a.map((row) => b[0]!.map((_, j) => row.reduce((sum, value, k) => sum + value * (b[k]?.[j] as number), 0)));
    const centredCovariance = multiply(multiply(centring, thetaCovariance), centring);
    centredCovariance.forEach((row, i) => row.forEach((value, j) => expect(fit.covariance[i]?.[j]).toBeCloseTo(value, 5)));
    expect(fit.seatAdvantageStandardError).toBeCloseTo(Math.sqrt(inverse[UNITS]?.[UNITS] as number), 5);
  });

  it('agrees with a naive optimiser on a small case', () => {
    const pairings: PairingCounts[] = [
      { first: 0, second: 1, firstWins: 12, draws: 5, secondWins: 8 },
      { first: 1, second: 0, firstWins: 10, draws: 4, secondWins: 9 },
      { first: 1, second: 2, firstWins: 7, draws: 6, secondWins: 15 },
      { first: 2, second: 0, firstWins: 18, draws: 3, secondWins: 6 },
      { first: 0, second: 2, firstWins: 4, draws: 2, secondWins: 11 },
    ];
    const fit = fitDavidson(3, pairings);
    // Coordinate ascent with golden-section line searches over (θ₁, θ₂, log ν, η), θ₀ = 0.
    const f = ([t1, t2, logNu, eta]: readonly number[]) =>
      naiveLogLikelihood(pairings, [0, t1 as number, t2 as number], logNu as number, eta as number);
    const x = [0, 0, 0, 0];
    const ratio = (Math.sqrt(5) - 1) / 2;
    for (let sweep = 0; sweep < 300; sweep++) {
      for (let i = 0; i < x.length; i++) {
        const along = (value: number) => f(x.map((old, j) => (j === i ? value : old)));
        let [low, high] = [(x[i] as number) - 2, (x[i] as number) + 2];
        for (let step = 0; step < 80; step++) {
          const [a, b] = [high - ratio * (high - low), low + ratio * (high - low)];
          if (along(a) < along(b)) low = a;
          else high = b;
        }
        x[i] = (low + high) / 2;
      }
    }
    const naive = centred([0, x[0] as number, x[1] as number]);
    fit.strength.forEach((theta, unit) => expect(theta).toBeCloseTo(naive[unit] as number, 6));
    expect(Math.log(fit.drawParameter)).toBeCloseTo(x[2] as number, 6);
    expect(fit.seatAdvantage).toBeCloseTo(x[3] as number, 6);
  });

  it('covers the true strengths, ν and η with its 95% intervals about 95% of the time', () => {
    const rng = seedGenerator(SEED);
    const replications = 200;
    let [thetaCovered, drawCovered, seatCovered] = [0, 0, 0];
    for (let replication = 0; replication < replications; replication++) {
      const fit = fitDavidson(UNITS, roundRobin(rng, 150));
      fit.strength.forEach((theta, unit) => {
        if (Math.abs(theta - (TRUE_STRENGTH[unit] as number)) <= Z_95 * (fit.standardError[unit] as number)) thetaCovered++;
      });
      if (fit.drawInterval.low <= TRUE_DRAW && TRUE_DRAW <= fit.drawInterval.high) drawCovered++;
      if (Math.abs(fit.seatAdvantage - TRUE_SEAT) <= Z_95 * fit.seatAdvantageStandardError) seatCovered++;
    }
    expectCoverage(thetaCovered, replications * UNITS, 'strengths');
    expectCoverage(drawCovered, replications, 'draw parameter');
    expectCoverage(seatCovered, replications, 'seat advantage');
  });

  it('gives expected scores that are fair in a mirror and complementary across a pairing', () => {
    const fit = fitDavidson(UNITS, roundRobin(seedGenerator(SEED), 100));
    expect(davidsonExpectedScore(fit, 3, 3)).toBeCloseTo(0.5, 14);
    expect(davidsonExpectedScore(fit, 2, 7) + davidsonExpectedScore(fit, 7, 2)).toBeCloseTo(1, 14);
    expect(davidsonExpectedScore(fit, 8, 0)).toBeGreaterThan(0.5);
    expect(() => davidsonExpectedScore(fit, 0, UNITS)).toThrow(RangeError);
  });
});

describe('fitting Davidson strengths on awkward data', () => {
  it('without draws: ν = 0, with the upper bound where seeing no draw becomes a 5% chance', () => {
    const pairings: PairingCounts[] = [
      { first: 0, second: 1, firstWins: 30, draws: 0, secondWins: 20 },
      { first: 1, second: 2, firstWins: 25, draws: 0, secondWins: 25 },
      { first: 2, second: 0, firstWins: 15, draws: 0, secondWins: 35 },
    ];
    const fit = fitDavidson(3, pairings);
    expect(fit.drawParameter).toBe(0);
    expect(fit.drawInterval.low).toBe(0);
    expect(fit.seatAdvantage).toBe(0);
    expect(fit.seatAdvantageStandardError).toBe(0);
    const noDrawChance = pairings.reduce((product, { first, second, firstWins, secondWins }) => {
      const p = modelProbabilities(fit.strength[first] as number, fit.strength[second] as number, fit.drawInterval.high, 0);
      return product * (1 - p.draw) ** (firstWins + secondWins);
    }, 1);
    expect(noDrawChance).toBeCloseTo(0.05, 9);
  });

  it('adds its small prior when a unit won every game, and only then', () => {
    const winner: PairingCounts[] = [
      { first: 0, second: 1, firstWins: 20, draws: 0, secondWins: 0 },
      { first: 0, second: 2, firstWins: 20, draws: 0, secondWins: 0 },
      { first: 1, second: 2, firstWins: 10, draws: 5, secondWins: 12 },
    ];
    const fit = fitDavidson(3, winner);
    expect(fit.regularized).toBe(true);
    expect(fit.converged).toBe(true);
    expect(fit.strength.every(Number.isFinite)).toBe(true);
    expect(fit.strength[0]).toBeGreaterThan((fit.strength[1] as number) + 2);
    // One draw between the winner and another unit makes every strength finite: no prior...
    const drawn = [...winner, { first: 2, second: 0, firstWins: 0, draws: 1, secondWins: 0 }];
    expect(fitDavidson(3, drawn, { seatAdvantage: false }).regularized).toBe(false);
    // ...unless the seat advantage is fitted too: the winner won every game it sat first in, so η
    // would be infinite. Newton runs off, and the fit is done again with the prior.
    const seated = fitDavidson(3, drawn);
    expect([seated.regularized, seated.converged, Number.isFinite(seated.seatAdvantage)]).toEqual([true, true, true]);
    // Nothing but draws: ν would be infinite; with the prior every unit is even.
    const allDraws = fitDavidson(
      3,
      winner.map((pairing) => ({ ...pairing, firstWins: 0, draws: 10, secondWins: 0 })),
    );
    expect(allDraws.regularized).toBe(true);
    allDraws.strength.forEach((theta) => expect(theta).toBeCloseTo(0, 9));
  });

  it('refuses pairings that put units on no common scale, and bad counts, saying why', () => {
    const apart: PairingCounts[] = [
      { first: 0, second: 1, firstWins: 5, draws: 1, secondWins: 4 },
      { first: 2, second: 3, firstWins: 5, draws: 1, secondWins: 4 },
    ];
    expect(() => fitDavidson(4, apart)).toThrow(/units 2, 3 never played unit 0's group/);
    expect(() => fitDavidson(3, [{ first: 0, second: 0, firstWins: 1, draws: 0, secondWins: 1 }])).toThrow(/against itself/);
    expect(() => fitDavidson(2, [{ first: 0, second: 2, firstWins: 1, draws: 0, secondWins: 1 }])).toThrow(
      /pairings\[0\]\.second must be a unit index in 0\.\.1/,
    );
    expect(() => fitDavidson(2, [{ first: 0, second: 1, firstWins: -1, draws: 0, secondWins: 1 }])).toThrow(
      /pairings\[0\]\.firstWins must be a finite count/,
    );
    expect(() => fitDavidson(1, [])).toThrow(/at least 2 units/);
    // A seat advantage asked for where every pair played in one seating only, around no cycle: not identifiable.
    expect(() => fitDavidson(2, [{ first: 0, second: 1, firstWins: 5, draws: 1, secondWins: 4 }], { seatAdvantage: true })).toThrow(
      /first-seat advantage cannot be told apart/,
    );
  });
});
