import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchups } from '../../analysis/matchups.js';
import { combineOutcomes, mixOutcomes, type Outcome, outcomeFromCounts } from '../../statistics/outcome.js';
import { loadRoster } from '../../input/roster.js';
import { seedGenerator } from '../../engine/dice/index.js';
import { rolledWounds } from '../heroic/oracle.js';
import { writeAttackRoster } from '../helpers/attack-roster.js';
import { CHECK_Z } from '../helpers/power.js';

/**
 * The intervals a matchup matrix prints, checked by simulation against truth computed
 * independently (issue 29): the combined seat score and a mix of situations from sampled
 * win/draw/loss counts of known probabilities; and a real matchups cell — each seating a run of
 * the heroic engine whose exact probabilities come from the convolution oracle
 * (test/heroic/oracle.ts) — at fixed trials and stopped adaptively.
 *
 * The roster: a Recruit (1 model, 6 ATK dice, DEF 3, MIGHT 3) and a Brute (1 model, 5 ATK dice,
 * DEF 4, MIGHT 2), `mode: attack`: only the first side attacks, once; it wins when its Wounds
 * reach the target's MIGHT, and the game is a draw otherwise. So the Recruit seated first wins
 * with p₁ = P(6 dice at DEF 4 ≥ 2 Wounds) and scores (1 + p₁)/2; seated second it loses with
 * p₂ = P(5 dice at DEF 3 ≥ 3 Wounds) and scores (1 − p₂)/2; the cell is their mean. Both seatings
 * are random, so a run that shared its dice with the other seating would correlate them.
 *
 * Each check counts, over many seeds, how often the 95% interval contains the truth, and accepts
 * counts within CHECK_Z binomial standard errors of 95%; each says the smallest miss it catches.
 */

const SEED = 20261122;
let directory: string;
let rosterFile: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-matchup-calibration-'));
  rosterFile = await writeAttackRoster(
    directory,
    'Recruit against Brute',
    [
      { id: 'recruit', name: 'Recruit', def: 3, might: 3, atk: 6 },
      { id: 'brute', name: 'Brute', def: 4, might: 2, atk: 5 },
    ],
    [
      { id: 'recruit', count: 1, cost: 10 },
      { id: 'brute', count: 1, cost: 10 },
    ],
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const atLeast = (dice: number, def: number, wounds: number): number => {
  const distribution = rolledWounds(dice, def);
  let p = 0;
  for (let w = wounds; w < distribution.length; w++) p += distribution[w] ?? 0;
  return p;
};
const P_FIRST = atLeast(6, 4, 2);
const P_SECOND = atLeast(5, 3, 3);
const TRUE_CELL = ((1 + P_FIRST) / 2 + (1 - P_SECOND) / 2) / 2;

/** CHECK_Z binomial standard errors of `runs` checks at 95%. */
function expectCoverage(covered: number, runs: number, what: string): void {
  expect(Math.abs(covered - 0.95 * runs), `${what}: ${covered} of ${runs}`).toBeLessThanOrEqual(CHECK_Z * Math.sqrt(runs * 0.95 * 0.05));
}

const inside = (value: number, outcome: Outcome) => outcome.score.interval.low <= value && value <= outcome.score.interval.high;

/** Win/draw/loss counts of `trials` games at these probabilities. */
function sampled(random: ReturnType<typeof seedGenerator>, trials: number, win: number, draw: number): Outcome {
  let [wins, draws] = [0, 0];
  for (let t = 0; t < trials; t++) {
    const u = uniformFloat64(random);
    if (u < win) wins++;
    else if (u < win + draw) draws++;
  }
  return outcomeFromCounts(wins, draws, trials - wins - draws);
}

describe('the combined seat score and a mix of situations', () => {
  it('cover the true score 95% of the time (sampled counts of known probabilities)', () => {
    // 2,000 draws each: a coverage of 93% or 97% (two points off) fails with probability above 0.9.
    const random = seedGenerator(SEED);
    const runs = 2000;
    let seats = 0;
    let mixed = 0;
    for (let run = 0; run < runs; run++) {
      // Two seatings of 150 games: W/D/L .55/.20/.25 and .30/.10/.60.
      const first = sampled(random, 150, 0.55, 0.2);
      const second = sampled(random, 150, 0.3, 0.1);
      if (inside((0.55 + 0.1 + 0.3 + 0.05) / 2, combineOutcomes([first, second]))) seats++;
      // Three situations of 120, 120 and 60 games, shares .5, .3, .2, one of them nearly one-sided.
      const parts = [sampled(random, 120, 0.4, 0.3), sampled(random, 120, 0.7, 0), sampled(random, 60, 0.97, 0.02)];
      const truth = 0.5 * 0.55 + 0.3 * 0.7 + 0.2 * 0.98;
      if (inside(truth, mixOutcomes(parts, [0.5, 0.3, 0.2]))) mixed++;
    }
    expectCoverage(seats, runs, 'seatings combined');
    expectCoverage(mixed, runs, 'situations mixed');
  });
});

describe('a matchups cell', () => {
  it('covers the exact score 95% of the time, its two seatings run on their own dice', async () => {
    // 600 seeds: a coverage of 90% (or 99%, an interval that ignores a negative correlation) fails with probability above 0.9.
    const roster = await loadRoster(rosterFile);
    const runs = 600;
    let covered = 0;
    let mirrorsExact = 0;
    for (let run = 0; run < runs; run++) {
      const result = await matchups(roster, { trials: 100, seed: SEED + run });
      const cell = result.cells.find((entry) => entry.row === 'recruit' && entry.column === 'brute');
      if (cell !== undefined && inside(TRUE_CELL, cell.combined)) covered++;
      const mirror = result.cells.find((entry) => entry.row === 'brute' && entry.column === 'brute');
      if (mirror?.combined.score.interval.low === 0.5 && mirror.combined.score.interval.high === 0.5) mirrorsExact++;
    }
    expectCoverage(covered, runs, `cell (exact ${TRUE_CELL.toFixed(4)})`);
    // A unit against itself over both seatings is one game seen from both sides: ½, with no margin.
    expect(mirrorsExact).toBe(runs);
  });

  it('covers the exact score 95% of the time when each seating stops at its own precision (--adaptive)', async () => {
    // Stopping on the data can bias an interval; 600 seeds catch a coverage of 90% with probability above 0.9.
    const roster = await loadRoster(rosterFile);
    const runs = 600;
    let covered = 0;
    let trials = 0;
    for (let run = 0; run < runs; run++) {
      const result = await matchups(roster, { precision: 0.06, adaptive: true, seed: SEED + run });
      const cell = result.cells.find((entry) => entry.row === 'recruit' && entry.column === 'brute');
      if (cell !== undefined && inside(TRUE_CELL, cell.combined)) covered++;
      trials += cell?.combined.trials ?? 0;
    }
    expectCoverage(covered, runs, 'adaptive cell');
    // It did stop early: fewer trials than the worst case's 2 × 267 per cell.
    expect(trials / runs).toBeLessThan(2 * 267);
  });
});
