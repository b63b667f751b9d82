import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { balance, crossing } from '../../analysis/balance.js';
import { matchups } from '../../analysis/matchups.js';
import { loadRoster } from '../../analysis/roster.js';
import { rolledWounds } from '../heroic/oracle.js';
import { CHECK_Z } from '../helpers/power.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Balance and matchups against exact answers and mirrors.
 *
 * Seat reading against an exact oracle: N Recruits (ATK 1 each, not in formation) make one attack
 * each at a Dummy (DEF 4, MIGHT 12, no Shield, no attack) in `mode: attack`, where only the first
 * side attacks. Going first, P(the Recruits win) = P(N dice roll ≥ 12 Wounds), a convolution
 * (test/heroic/oracle.ts); going second they never attack, so every game is a draw.
 *
 * Self-balance: a unit against a roster of only itself (a twin entry) is fitted at its own cost,
 * within the fit's interval, in every rule system whose roster is fielded by count.
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

describe('matchups read each seat from its own side', () => {
  it('going first the Recruits win as often as the exact convolution says (4 SE); going second it is all draws', async () => {
    const trials = 4000;
    const result = await matchups(await loadRoster(rosterFile), { trials, seed: 20261122 });
    const cell = result.cells.find((entry) => entry.row === 'recruit' && entry.column === 'dummy');
    const p = exactWin(10);
    const se = Math.sqrt((p * (1 - p)) / trials);
    expect(Math.abs((cell?.first?.win.value ?? Number.NaN) - p)).toBeLessThanOrEqual(CHECK_Z * se);
    expect(cell?.first?.loss.value).toBe(0);
    expect(cell?.second?.draw.value).toBe(1);
    // Combined: the mean of the two seatings.
    expect(cell?.combined.score.value).toBeCloseTo(((cell?.first?.score.value ?? 0) + 0.5) / 2, 12);
    // The Dummy's row is the Recruits' seen from the other side.
    const dummy = result.cells.find((entry) => entry.row === 'dummy' && entry.column === 'recruit');
    expect(dummy?.combined.score.value).toBeCloseTo(1 - (cell?.combined.score.value ?? 0), 12);
  });

  it('crossing interpolates linearly and reports no crossing when the target is not reached', () => {
    expect(crossing([{ count: 3, value: 0.4 }, { count: 4, value: 0.6 }], 0.5)).toBeCloseTo(3.5, 12);
    expect(crossing([{ count: 3, value: 0.1 }, { count: 4, value: 0.2 }], 0.5)).toBeUndefined();
  });
});

/** A roster of `unit` and its twin (the same unit under another id), from a bundled roster's template. */
async function twinRoster(relative: string, unit: string, name: string): Promise<string> {
  const source = path.join(REPOSITORY, relative);
  const roster = parse(await readFile(source, 'utf8')) as { template: Record<string, unknown>; entries: { id: string; unit?: string }[] };
  for (const key of ['unitsFile', 'data']) if (typeof roster.template[key] === 'string') roster.template[key] = path.resolve(path.dirname(source), roster.template[key] as string);
  const entry = roster.entries.find((item) => item.id === unit);
  if (entry === undefined) throw new Error(`no ${unit} in ${relative}`);
  const file = path.join(directory, name);
  await writeFile(file, stringify({ ...roster, entries: [entry, { ...entry, id: 'twin', unit: entry.unit ?? entry.id, name: 'Twin' }] }));
  return file;
}

describe('self-balance: a unit against only itself is fitted at its own cost', () => {
  it.each([
    { ruleset: 'heroic', roster: 'data/heroic/rosters/core.yaml', unit: 'orc-barbarian', cost: 12, budget: 60, precision: 0.02 },
    // Battle Forge games are the slowest trials here: a coarser precision keeps the file quick.
    { ruleset: 'battleforge', roster: 'data/battleforge/rosters/core-infantry.yaml', unit: 'human_kingdoms/militia', cost: 6, budget: 60, precision: 0.04 },
  ])('$ruleset: $unit at $cost points', async ({ roster, unit, cost, budget, precision }) => {
    const file = await twinRoster(roster, unit, `${unit.replaceAll('/', '_')}-twin.yaml`);
    const result = await balance(await loadRoster(file), unit, { budget, against: ['twin'], precision, seed: 20261122 });
    expect(result.problem).toBeUndefined();
    expect(result.costInterval?.low).toBeLessThanOrEqual(cost);
    expect(result.costInterval?.high).toBeGreaterThanOrEqual(cost);
    // The interval says something: within a fifth of the cost.
    expect((result.costInterval?.high ?? Infinity) - (result.costInterval?.low ?? 0)).toBeLessThan(0.2 * cost);
    // At the opponent's own count the two seatings are one game seen from both sides: exactly ½.
    const even = result.observations.find((observation) => observation.count === observation.opponentCount);
    expect(even?.combined.score.value).toBe(0.5);
  }, 30_000);
});

describe('whole units: a round robin at published points', () => {
  it('a unit and its twin come out with the same strength and cost; W/D/L counts feed the fit', async () => {
    const source = path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml');
    const roster = parse(await readFile(source, 'utf8')) as { template: Record<string, unknown>; entries: { id: string; name: string; cost: number }[] };
    roster.template.armies = path.resolve(path.dirname(source), roster.template.armies as string);
    const keep = ['empire/halberdiers', 'orcs/orc-warriors', 'dwarfs/warriors', 'orcs/trolls'];
    const entries = roster.entries.filter((entry) => keep.includes(entry.id));
    const orcs = entries.find((entry) => entry.id === 'orcs/orc-warriors');
    if (orcs === undefined) throw new Error('no Orc Warriors');
    const file = path.join(directory, 'warmaster-twin.yaml');
    await writeFile(file, stringify({ ...roster, entries: [...entries, { ...orcs, id: 'twin', unit: orcs.id, name: 'Twin' }] }));
    const { wholeUnitCosts } = await import('../../analysis/whole-unit-costs.js');
    const costs = await wholeUnitCosts(await loadRoster(file), { precision: 0.05, seed: 20261122 });
    const original = costs.units.find((unit) => unit.id === 'orcs/orc-warriors');
    const twin = costs.units.find((unit) => unit.id === 'twin');
    expect(twin?.strength).toBeCloseTo(original?.strength ?? Number.NaN, 6);
    expect(twin?.fittedCost).toBeCloseTo(original?.fittedCost ?? Number.NaN, 4);
    expect(twin?.verdict).toBe(original?.verdict);
    expect(costs.converged).toBe(true);
    // Every fitted interval contains its fitted cost.
    for (const unit of costs.units) {
      expect(unit.costInterval.low).toBeLessThanOrEqual(unit.fittedCost);
      expect(unit.costInterval.high).toBeGreaterThanOrEqual(unit.fittedCost);
    }
  }, 30_000);
});
