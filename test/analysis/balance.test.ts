import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { balance, crossing } from '../../analysis/balance.js';
import { matchups } from '../../analysis/matchups.js';
import { loadRoster } from '../../analysis/roster.js';
import { rolledWounds } from '../heroic/oracle.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The balance solver on a synthetic unit whose answer is exact: N Recruits (ATK 1 each, not in
 * formation) make one attack each at a Dummy (DEF 4, MIGHT 12, no Shield). Their Wounds add up, so
 * P(the Dummy is vanquished) = P(N dice roll ≥ 12 Wounds) — a convolution (test/heroic/oracle.ts). At 100
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
        unitsFile: 'units.yaml',
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
  it('a symmetric template mirrors: P(A wins, X vs Y) = P(B wins, Y vs X), within 4 SE', async () => {
    // Battle Forge: both sides charge and fight from 18", the first activation decided by a roll-off
    // each round (equal bids), so swapping the sides swaps nothing but their names.
    const roster = await loadRoster(path.join(REPOSITORY, 'data/battleforge/rosters/core-infantry.yaml'));
    const trials = 20_000;
    const x = 'human_kingdoms/bowmen';
    const y = 'orcs_and_goblins/orc_warriors';
    const cells = await matchups(roster, { only: [x, y], trials, seed: 20261122 });
    expect(cells).toHaveLength(4);
    const win = (a: string, b: string) => cells.find((cell) => cell.a === a && cell.b === b)?.winProbability ?? Number.NaN;
    // P(B wins, Y vs X) from the same runs: 1 − P(A wins) − P(no winner), read with the B label.
    const { loadScenarioData } = await import('../../sim/scenario-file.js');
    const { matchupScenario } = await import('../../analysis/roster.js');
    const { runScenario } = await import('../../analysis/run.js');
    const bWins = async (a: string, b: string) => {
      const [entryA, entryB] = [roster.roster.entries.find((entry) => entry.id === a), roster.roster.entries.find((entry) => entry.id === b)];
      if (entryA === undefined || entryB === undefined) throw new Error('no entry');
      const { file, data } = matchupScenario(roster, entryA, entryB);
      const loaded = await loadScenarioData(file, data);
      const result = await runScenario(loaded, { trials, seed: 20261123 });
      const sideB = loaded.system.sides?.(loaded.scenario)?.[1];
      return result.summary.find((metric) => metric.name === 'winner')?.distribution.find((entry) => entry.label === sideB)?.probability ?? Number.NaN;
    };
    const se = (p: number, q: number) => Math.sqrt((p * (1 - p)) / trials + (q * (1 - q)) / trials);
    const xy = win(x, y);
    const yxB = await bWins(y, x);
    expect(Math.abs(xy - yxB)).toBeLessThan(4 * se(xy, yxB));
    // The mirror match: each side wins as often as the other.
    const mirrorA = win(x, x);
    const mirrorB = await bWins(x, x);
    expect(Math.abs(mirrorA - mirrorB)).toBeLessThan(4 * se(mirrorA, mirrorB));
  }, 120_000);
});
