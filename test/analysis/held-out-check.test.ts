import { describe, expect, it } from 'vitest';
import { fitDavidson, type PairingCounts } from '../../statistics/davidson.js';
import { heldOutCheck } from '../../analysis/held-out-check.js';
import type { MatchupCell, MatchupEntry } from '../../analysis/matchups.js';
import { combineOutcomes, outcomeFromCounts, reversed } from '../../statistics/outcome.js';
import { binomialBand } from '../helpers/calibration.js';
import { mulberry32 } from '../helpers/mulberry32.js';

/**
 * The model check of a whole-unit price list (analysis/held-out-check.ts) in synthetic round
 * robins of known truth. A designer reads it as "the pairings held out of the fit miss their played
 * score by X points, where noise alone would give Y": X near Y, the strengths capture the matchups
 * and the prices stand on them; X well above Y, they do not; a unit's own miss above twice the
 * list's ("high"), that unit's strength sums its matchups poorly.
 *
 * Each world: ten units of known strengths, every ordered pairing played in both seatings at a
 * known draw tendency and first-seat advantage, outcomes sampled from the model's probabilities
 * (written here from Davidson's formula, not read from statistics/davidson.ts). Where the model
 * holds, X stays near Y and no unit is called high; where three units beat each other in a circle
 * (each takes its next one's wins on top of what strengths say, rock–paper–scissors), X rises well
 * above Y and those three units miss most.
 */

const UNITS = 10;
const STRENGTHS = Array.from({ length: UNITS }, (_, i) => -1.2 + (2.4 * i) / (UNITS - 1));
const DRAW = 0.4;
const SEAT = 0.15;
/** Trials per seating: about ±3.5 points on a combined score, as `-p 0.035` plays. */
const TRIALS = 400;
const WORLDS = 100;
/** The circle: unit 2 beats 5, 5 beats 8, 8 beats 2, each by this much more of its games than strengths say. */
const CIRCLE = [2, 5, 8] as const;
const CIRCLE_SHIFT = 0.15;
/** "X near Y": the miss at most this many times the noise (the refit's own noise adds a little). */
const NEAR = 1.5;

const ids = STRENGTHS.map((_, i) => `u${i}`);
const entries: MatchupEntry[] = ids.map((id) => ({ id, name: id, count: 1 }));

/** Davidson (1970) with a seat advantage: P(first wins), P(draw), P(second wins) from π = e^θ. */
function probabilities(first: number, second: number): [number, number, number] {
  const a = Math.exp((STRENGTHS[first] as number) + SEAT);
  const b = Math.exp(STRENGTHS[second] as number);
  const tie = DRAW * Math.sqrt(a * b);
  const total = a + b + tie;
  return [a / total, tie / total, b / total];
}

/** The circle's extra wins: first's win chance moved from its loss chance when it is the next one's master. */
function withCircle([win, draw, loss]: [number, number, number], first: number, second: number): [number, number, number] {
  const at = CIRCLE.indexOf(first as (typeof CIRCLE)[number]);
  const beats = at >= 0 && CIRCLE[(at + 1) % CIRCLE.length] === second;
  const beaten = at >= 0 && CIRCLE[(at + CIRCLE.length - 1) % CIRCLE.length] === second;
  const shift = beats ? Math.min(CIRCLE_SHIFT, loss) : beaten ? -Math.min(CIRCLE_SHIFT, win) : 0;
  return [win + shift, draw, loss - shift];
}

function sample(random: () => number, [win, draw]: [number, number, number]): [number, number, number] {
  let wins = 0;
  let draws = 0;
  for (let t = 0; t < TRIALS; t++) {
    const u = random();
    if (u < win) wins++;
    else if (u < win + draw) draws++;
  }
  return [wins, draws, TRIALS - wins - draws];
}

/** A round robin as analysis/matchups.ts reports it: each ordered pairing, its row unit seated first and second. */
function roundRobin(seed: number, circle: boolean): MatchupCell[] {
  const random = mulberry32(seed);
  const seatedFirst = new Map<string, ReturnType<typeof outcomeFromCounts>>();
  for (let i = 0; i < UNITS; i++) {
    for (let j = 0; j < UNITS; j++) {
      if (i === j) continue;
      const truth = probabilities(i, j);
      seatedFirst.set(`${i},${j}`, outcomeFromCounts(...sample(random, circle ? withCircle(truth, i, j) : truth)));
    }
  }
  const cells: MatchupCell[] = [];
  for (let i = 0; i < UNITS; i++) {
    for (let j = 0; j < UNITS; j++) {
      if (i === j) continue;
      const first = seatedFirst.get(`${i},${j}`);
      const second = seatedFirst.get(`${j},${i}`);
      if (first === undefined || second === undefined) throw new Error('a pairing was not played');
      cells.push({
        row: ids[i] as string,
        column: ids[j] as string,
        first,
        second: reversed(second),
        combined: combineOutcomes([first, reversed(second)]),
      });
    }
  }
  return cells;
}

/** Strengths fitted to the cells kept, each ordered run once (its row seated first). */
function fitWithout(kept: readonly MatchupCell[]) {
  const pairings: PairingCounts[] = kept.flatMap((cell) => {
    if (cell.first === undefined) return [];
    const count = (p: number) => Math.round(p * (cell.first?.trials ?? 0));
    return [
      {
        first: ids.indexOf(cell.row),
        second: ids.indexOf(cell.column),
        firstWins: count(cell.first.win.value),
        draws: count(cell.first.draw.value),
        secondWins: count(cell.first.loss.value),
      },
    ];
  });
  return fitDavidson(UNITS, pairings, { seatAdvantage: true });
}

function worlds(circle: boolean, firstSeed: number) {
  return Array.from({ length: WORLDS }, (_, w) => {
    const { check, byUnit } = heldOutCheck({ entries, cells: roundRobin(firstSeed + w, circle) }, fitWithout);
    return { ratio: check.rmsError / check.rmsNoise, check, byUnit };
  });
}

describe('the held-out model check, in round robins of known strengths', () => {
  it('where strengths capture every matchup: the misses are the noise (X near Y in 95% of worlds), no unit called high', () => {
    const results = worlds(false, 20261128);
    const near = results.filter((world) => world.ratio <= NEAR).length;
    expect(near, `X within ${NEAR}× Y in ${near} of ${WORLDS} worlds`).toBeGreaterThanOrEqual(binomialBand(WORLDS, 0.95).low);
    // Not below the noise either, on average: the check does not flatter the model.
    const meanRatio = results.reduce((sum, world) => sum + world.ratio, 0) / WORLDS;
    expect(meanRatio).toBeGreaterThan(0.9);
    expect(meanRatio).toBeLessThan(1.25);
    const high = results.reduce(
      (count, world) => count + [...world.byUnit.values()].filter((miss) => miss > 2 * world.check.rmsError).length,
      0,
    );
    expect(high, `units called high in ${high} of ${WORLDS * UNITS}`).toBeLessThanOrEqual(binomialBand(WORLDS * UNITS, 0.01).high);
    expect(results.every((world) => world.check.pairings === (UNITS * (UNITS - 1)) / 2 && world.check.folds === 10)).toBe(true);
  });

  it('where three units beat each other in a circle: X rises well above Y, and those three miss most', () => {
    const results = worlds(true, 20261129);
    const caught = results.filter((world) => world.ratio > NEAR).length;
    expect(caught, `X above ${NEAR}× Y in ${caught} of ${WORLDS} worlds`).toBeGreaterThanOrEqual(binomialBand(WORLDS, 0.95).low);
    const circleIds = CIRCLE.map((i) => ids[i] as string);
    const found = results.filter((world) => {
      const ranked = [...world.byUnit.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, CIRCLE.length)
        .map(([id]) => id);
      return circleIds.every((id) => ranked.includes(id));
    }).length;
    expect(found, `the circle's three units the three worst in ${found} of ${WORLDS} worlds`).toBeGreaterThanOrEqual(
      binomialBand(WORLDS, 0.9).low,
    );
    // The worst pairings shown are the circle's own.
    const worstInCircle = results.filter((world) =>
      world.check.worst.every((pair) => circleIds.includes(pair.row) && circleIds.includes(pair.column)),
    ).length;
    expect(worstInCircle).toBeGreaterThanOrEqual(binomialBand(WORLDS, 0.9).low);
  });
});
