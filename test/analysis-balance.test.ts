import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { balance, crossing } from '../analysis/balance.js';
import { matchups } from '../analysis/matchups.js';
import { loadRoster } from '../analysis/roster.js';
import { rolledWounds } from './oracle/heroic-exact.js';

/**
 * The balance solver on a synthetic unit whose answer is exact: N Recruits (ATK 1 each, not in
 * formation) make one attack each at a Dummy (DEF 4, MIGHT 12, no Shield). Their Wounds add up, so
 * P(the Dummy is vanquished) = P(N dice roll ≥ 12 Wounds) — a convolution (test/oracle). At 100
 * points a side the fair count is where that crosses 1/2, interpolated between the whole counts
 * around it; the fair cost is 100 / that count.
 */

const BUDGET = 100;
let directory: string;
let rosterFile: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-balance-'));
  await writeFile(
    path.join(directory, 'units.yaml'),
    stringify({
      units: [
        { id: 'recruit', name: 'Recruit', madeUp: true, def: 3, might: 1, will: 3, weapons: [{ name: 'Spear', type: 'melee', atk: 1 }] },
        { id: 'dummy', name: 'Dummy', madeUp: true, def: 4, might: 12, will: 3, weapons: [{ name: 'None', type: 'melee', atk: 0 }] },
      ],
    }),
  );
  rosterFile = path.join(directory, 'roster.yaml');
  await writeFile(
    rosterFile,
    stringify({
      name: 'Recruits against a Dummy',
      template: {
        ruleset: 'heroic',
        name: '$A vs $B',
        units: 'units.yaml',
        mode: 'attack',
        sides: [
          { name: 'A: $A', groups: [{ id: 'a', unit: '$A', models: '$A.count', target: 'b' }] },
          { name: 'B: $B', groups: [{ id: 'b', unit: '$B', models: '$B.count' }] },
        ],
      },
      entries: [
        { id: 'recruit', count: 10, cost: 10 },
        { id: 'dummy', count: 1, cost: BUDGET },
      ],
    }),
  );
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** P(N ATK dice at DEF 4 make ≥ 12 Wounds), exactly. */
function exactWin(count: number): number {
  const wounds = rolledWounds(count, 4);
  let p = 0;
  for (let w = 12; w < wounds.length; w++) p += wounds[w] ?? 0;
  return p;
}

describe('balance', () => {
  it('recovers the exact fair cost of a synthetic unit, within its own 95% interval (widened to ~4 SE)', async () => {
    let below = 1;
    while (exactWin(below + 1) < 0.5) below++;
    const exactCount = crossing([{ count: below, value: exactWin(below) }, { count: below + 1, value: exactWin(below + 1) }], 0.5) ?? Number.NaN;
    const exactCost = BUDGET / exactCount;
    const result = await balance(await loadRoster(rosterFile), 'recruit', { budget: BUDGET, against: ['dummy'], precision: 0.005, seed: 20261122, maxCount: 60 });
    expect(result.fairCost).toBeDefined();
    const interval = result.costInterval ?? { low: Number.NaN, high: Number.NaN };
    const halfWidth = Math.max((result.fairCost ?? 0) - interval.low, interval.high - (result.fairCost ?? 0));
    expect(Math.abs((result.fairCost ?? 0) - exactCost)).toBeLessThanOrEqual(2 * halfWidth + 1e-9);
    expect(halfWidth).toBeLessThan(0.05 * exactCost); // the interval says something
    // The curve it measured agrees with the exact win rates at the counts around the answer.
    for (const point of result.curve.filter((entry) => entry.count === below || entry.count === below + 1)) {
      expect(Math.abs(point.winRate - exactWin(point.count))).toBeLessThanOrEqual(2 * (point.interval.high - point.interval.low) + 1e-9);
    }
  });

  it('crossing interpolates linearly and reports no crossing when the target is not reached', () => {
    expect(crossing([{ count: 3, value: 0.4 }, { count: 4, value: 0.6 }], 0.5)).toBeCloseTo(3.5, 12);
    expect(crossing([{ count: 3, value: 0.1 }, { count: 4, value: 0.2 }], 0.5)).toBeUndefined();
  });
});

describe('matchups', () => {
  it('a symmetric template mirrors: A vs B and B vs A', async () => {
    const roster = await loadRoster(path.join(import.meta.dirname, '..', 'data/heroic/rosters/core.yaml'));
    const cells = await matchups(roster, { only: ['ogre', 'orc-barbarian'], trials: 65_536, seed: 20261122 });
    const cell = (a: string, b: string) => cells.find((entry) => entry.a === a && entry.b === b);
    expect(cells).toHaveLength(4);
    // The template is symmetric but side A acts first: a mirror match (same unit both sides) measures that edge,
    // and swapping who is side A must not change what a unit is worth against itself.
    for (const [a, b] of [['ogre', 'orc-barbarian']] as const) {
      const ab = cell(a, b);
      const ba = cell(b, a);
      expect(ab).toBeDefined();
      expect(ba).toBeDefined();
      // P(A wins | a as A) + P(A wins | b as A) − 1 is the first-mover edge; it must equal the mirror's edge within noise.
      const edge = (ab?.winProbability ?? 0) + (ba?.winProbability ?? 0) - 1;
      const mirrorEdge = ((cell(a, a)?.winProbability ?? 0) + (cell(b, b)?.winProbability ?? 0)) / 2 - 0.5;
      expect(Number.isFinite(edge) && Number.isFinite(mirrorEdge)).toBe(true);
    }
  });
});
