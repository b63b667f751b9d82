import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { wholeBalanceDocument } from '../../documents/balance-document.js';
import { priceList } from '../../documents/balance-tables.js';
import { printedRows } from '../../documents/table-model.js';
import { countCosts } from '../../analysis/count-costs.js';
import { wholeUnitCosts } from '../../analysis/whole-unit-costs.js';
import { matchups } from '../../analysis/matchups.js';
import { loadRoster } from '../../input/roster.js';
import { rolledWounds } from '../heroic/oracle.js';
import { CHECK_Z } from '../helpers/power.js';
import { writeAttackRoster } from '../helpers/attack-roster.js';
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
  rosterFile = await writeAttackRoster(
    directory,
    'Recruits against a Dummy',
    [
      { id: 'recruit', name: 'Recruit', def: 3, might: 1, atk: 1 },
      { id: 'dummy', name: 'Dummy', def: 4, might: 12, atk: 0 },
    ],
    [
      { id: 'recruit', count: 10, cost: 10 },
      { id: 'dummy', count: 1, cost: BUDGET },
    ],
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
});

/** A roster of `unit` and its twin (the same unit under another id), from a bundled roster's template. */
async function twinRoster(relative: string, unit: string, name: string): Promise<string> {
  const source = path.join(REPOSITORY, relative);
  const roster = parse(await readFile(source, 'utf8')) as { template: Record<string, unknown>; entries: { id: string; unit?: string }[] };
  for (const key of ['unitsFile', 'data'])
    if (typeof roster.template[key] === 'string') roster.template[key] = path.resolve(path.dirname(source), roster.template[key] as string);
  const entry = roster.entries.find((item) => item.id === unit);
  if (entry === undefined) throw new Error(`no ${unit} in ${relative}`);
  const file = path.join(directory, name);
  await writeFile(file, stringify({ ...roster, entries: [entry, { ...entry, id: 'twin', unit: entry.unit ?? entry.id, name: 'Twin' }] }));
  return file;
}

describe('self-balance: a unit against its own twin is priced at its own cost', () => {
  it.each([
    { ruleset: 'heroic', roster: 'data/heroic/rosters/core.yaml', unit: 'orc-barbarian', cost: 12, budget: 60, precision: 0.02 },
    // Battle Forge games are the slowest trials here: a coarser precision keeps the file quick.
    {
      ruleset: 'battleforge',
      roster: 'data/battleforge/rosters/core-infantry.yaml',
      unit: 'human_kingdoms/militia',
      cost: 6,
      budget: 60,
      precision: 0.04,
    },
  ])(
    '$ruleset: $unit at $cost points',
    async ({ roster, unit, cost, budget, precision }) => {
      const file = await twinRoster(roster, unit, `${unit.replaceAll('/', '_')}-twin.yaml`);
      const loaded = await loadRoster(file);
      // Alone against its twin as published: even exactly where both field the same models.
      const alone = await countCosts(loaded, { budget, unit, precision, seed: 20261122 });
      const [priced] = alone.units;
      expect(priced?.status).toBe('priced');
      expect(priced?.deserved).toBeCloseTo(cost, 9);
      // Known without noise: at equal counts the twins' games are mirrors, exactly ½ whatever the dice, so the interval is the point itself.
      expect(priced?.interval?.low).toBeCloseTo(cost, 9);
      expect(priced?.interval?.high).toBeCloseTo(cost, 9);
      expect(priced?.verdict).toBe('fair');
      expect(priced?.check?.pass).toBe(true);
      // A price list of the two: both keep their cost (their scores against each other are ½ at equal counts whatever the dice).
      const list = await countCosts(loaded, { budget, precision, seed: 20261122, check: false });
      for (const entry of list.units) expect(entry.deserved).toBeCloseTo(cost, 9);
    },
    30_000,
  );
});

/** A roster from four-armies.yaml's template and situations, with these entries (and any extra army entries in its template). */
async function warmasterRoster(
  name: string,
  entries: readonly Record<string, unknown>[],
  units?: Record<string, unknown>,
): Promise<string> {
  const source = path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml');
  const roster = parse(await readFile(source, 'utf8')) as {
    template: Record<string, unknown>;
    entries: { id: string; name: string; cost: number }[];
  };
  roster.template.armies = path.resolve(path.dirname(source), roster.template.armies as string);
  if (units !== undefined) roster.template.units = units;
  const file = path.join(directory, name);
  await writeFile(file, stringify({ ...roster, entries }));
  return file;
}

describe('whole units: a round robin at published points', () => {
  it('on the bundled four-armies roster, a strictly worse copy of a unit is called over-costed', async () => {
    const source = parse(await readFile(path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml'), 'utf8')) as {
      entries: Record<string, unknown>[];
    };
    // Knights with Attacks 2 instead of 3, at the same 110 points: weaker against every opponent.
    const units = {
      'empire/worse-knights': {
        name: 'Worse Knights',
        kind: 'troop',
        type: 'cavalry',
        attacks: 2,
        hits: 3,
        armour: 4,
        unitSize: 3,
        points: 110,
        min: null,
        max: null,
        specialRules: [],
      },
    };
    const file = await warmasterRoster(
      'warmaster-worse.yaml',
      [...source.entries, { id: 'empire/worse-knights', name: 'Worse Knights', cost: 110 }],
      units,
    );
    const costs = await wholeUnitCosts(await loadRoster(file), { precision: 0.04, seed: 20261122 });
    const unit = (id: string) => costs.units.find((entry) => entry.id === id);
    expect(unit('empire/worse-knights')?.verdict).toBe('over-costed');
    expect(unit('empire/worse-knights')?.interval?.high).toBeLessThan(unit('empire/knights')?.interval?.low ?? 0);
    expect(costs.converged).toBe(true);
    for (const entry of costs.units) {
      expect(entry.interval?.low).toBeLessThanOrEqual(entry.deserved ?? Number.NaN);
      expect(entry.interval?.high ?? Infinity).toBeGreaterThanOrEqual(entry.deserved ?? Number.NaN);
    }
    // The model check reads the same pairings: its error is a few points, above the noise (strengths do not capture every matchup).
    expect(costs.heldOut.pairings).toBe((costs.units.length * (costs.units.length - 1)) / 2);
    expect(costs.heldOut.rmsError).toBeGreaterThan(costs.heldOut.rmsNoise);
    expect(costs.heldOut.rmsError).toBeLessThan(0.1);
  });

  it('refuses a list its cost line cannot be fitted to before playing a game: fewer than 6 entries, or fewer than 3 costs', async () => {
    const source = parse(await readFile(path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml'), 'utf8')) as {
      entries: { id: string; cost: number }[];
    };
    // Six entries at two costs (the published costs rounded to 50 or 100).
    const twoCosts = source.entries.slice(0, 6).map((entry) => ({ ...entry, cost: entry.cost < 75 ? 50 : 100 }));
    let runs = 0;
    const refused = wholeUnitCosts(await loadRoster(await warmasterRoster('warmaster-two-costs.yaml', twoCosts)), {
      precision: 0.05,
      onRun: () => runs++,
    });
    await expect(refused).rejects.toThrow(/needs at least 6 entries at 3 or more different points .*found 6 at 2/);
    const five = wholeUnitCosts(await loadRoster(await warmasterRoster('warmaster-five.yaml', source.entries.slice(0, 5))), {
      precision: 0.05,
      onRun: () => runs++,
    });
    await expect(five).rejects.toThrow(/found 5 at/);
    expect(runs).toBe(0);
  });

  it('a twin is priced as its original, and the order of the entries changes nothing', async () => {
    const source = parse(await readFile(path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml'), 'utf8')) as {
      entries: { id: string }[];
    };
    const keep = ['empire/halberdiers', 'empire/knights', 'orcs/orc-warriors', 'orcs/goblins', 'orcs/trolls', 'high-elves/reavers'];
    const entries: Record<string, unknown>[] = [
      ...source.entries.filter((entry) => keep.includes(entry.id)),
      { id: 'twin', unit: 'orcs/orc-warriors', name: 'Twin', cost: 60 },
    ];
    const costs = await wholeUnitCosts(await loadRoster(await warmasterRoster('warmaster-twin.yaml', entries)), {
      precision: 0.05,
      seed: 20261122,
    });
    const unit = (id: string) => costs.units.find((entry) => entry.id === id);
    // A twin plays the same games (its runs are the same games, seeded alike): the same strength and price.
    expect(unit('twin')?.strength).toBeCloseTo(unit('orcs/orc-warriors')?.strength ?? Number.NaN, 6);
    expect(unit('twin')?.deserved).toBe(unit('orcs/orc-warriors')?.deserved);
    expect(unit('twin')?.interval).toEqual(unit('orcs/orc-warriors')?.interval);
    // Every pairing is its own game on its own seed, named by what is played: reversing the entries changes no number.
    const reversed = await wholeUnitCosts(await loadRoster(await warmasterRoster('warmaster-reversed.yaml', [...entries].reverse())), {
      precision: 0.05,
      seed: 20261122,
    });
    for (const entry of costs.units) {
      const other = reversed.units.find((candidate) => candidate.id === entry.id);
      expect(other?.strength).toBeCloseTo(entry.strength, 9);
      // So small a list may leave its cost line undetermined: then neither order gives a price.
      if (entry.deserved === undefined) expect(other?.deserved).toBeUndefined();
      else expect(other?.deserved).toBeCloseTo(entry.deserved, 6);
    }
    // The printed list says why each unit without a price has none, whichever unit it ranks first.
    const rows = printedRows(priceList(wholeBalanceDocument({ roster: 'twin', file: 'twin.yaml' }, costs)));
    for (const entry of costs.units) {
      const row = rows.find((candidate) => candidate.Unit === entry.name);
      if (entry.deserved !== undefined || costs.units.every((other) => other.deserved === undefined)) expect(row?.Note ?? '').toBe('');
      else expect(row?.Note).toMatch(/^no price: /);
    }
  });
});
