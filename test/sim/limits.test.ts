import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DICE_PER_ACTION, MAX_GROUPS_PER_SIDE } from '../../engine/validation.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';
import { cpuMilliseconds } from '../helpers/cpu-time.js';

/**
 * Sizes a scenario sets are bounded and checked before any work (issue 17 M2, M3): the probe's
 * cases — ATK 1,000,000, a large AoE, Warmaster shots at chargers of 100,000 dice, 20,000 groups —
 * each end in exit 2 naming the file, the field and the limit, from `validate` and from `run`,
 * within a couple of seconds (before the fix they took minutes, or crashed). Files are JSON so the
 * big one parses fast (YAML parsing is its own limit, issue 17 L6).
 */

let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-limits-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

const heroicUnits = (atk: number, type: 'melee' | 'aoe' = 'melee') => ({
  units: [{ id: 'man', name: 'Man', def: 4, might: 1, will: 3, weapons: [{ name: 'blade', type, atk }] }],
});

const group = (id: string, models = 1, extra: Record<string, unknown> = {}) => ({ id, unit: 'man', models, ...extra });

function heroicScenario(sideA: unknown[], sideB: unknown[], extra: Record<string, unknown> = {}) {
  return {
    ruleset: 'heroic',
    name: 'limits',
    unitsFile: 'units.json',
    ...extra,
    sides: [
      { name: 'A', groups: sideA },
      { name: 'B', groups: sideB },
    ],
  };
}

async function write(name: string, data: unknown): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, JSON.stringify(data));
  return file;
}

/** `validate` and a short `run` both refuse `file` at once, with `expected` in the message. */
async function expectRefused(file: string, expected: string): Promise<void> {
  for (const args of [
    ['validate', file],
    ['run', file, '-n', '10', '-w', '0'],
  ]) {
    const started = cpuMilliseconds();
    const result = await runCli(args);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(`${file}: ${expected}`);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(cpuMilliseconds() - started).toBeLessThan(2000);
  }
}

const diceLimit = `more than crucible's limit of ${MAX_DICE_PER_ACTION.toLocaleString('en-US')} (MAX_DICE_PER_ACTION`;

describe('heroic', () => {
  it('a weapon with ATK 1,000,000 is refused in the units file', async () => {
    const units = await write('units.json', heroicUnits(1_000_000));
    await write('atk.json', heroicScenario([group('a')], [group('b')]));
    // The units file is where the field is: it names that file.
    for (const args of [
      ['validate', path.join(directory, 'atk.json')],
      ['run', path.join(directory, 'atk.json'), '-n', '10', '-w', '0'],
    ]) {
      const result = await runCli(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`${units}: units[0].weapons[0].atk: ATK is 1,000,000, ${diceLimit}`);
    }
  });

  it("an ATK raised by the scenario's own units: changes, and a large AoE, are refused", async () => {
    await write('units.json', heroicUnits(2));
    const overridden = await write(
      'override.json',
      heroicScenario([group('a')], [group('b')], { units: { man: { weapons: [{ name: 'blade', type: 'aoe', atk: 1_000_000 }] } } }),
    );
    await expectRefused(
      overridden,
      `sides[0].groups[0].unit: group "a"'s weapon "blade" rolls ATK 1000000: the dice of one Attack Action is 1,000,000, ${diceLimit}`,
    );
  });

  it('a formation pooling more dice than the limit is refused, naming the group; at the limit it validates', async () => {
    await write('units.json', heroicUnits(11));
    const pooled = await write('pooled.json', heroicScenario([group('horde', 1000, { formation: true })], [group('b')]));
    await expectRefused(
      pooled,
      `sides[0].groups[0].models: group "horde"'s formation pools 1000 figures × ATK 11 of weapon "blade": the dice of one Attack Action is 11,000, ${diceLimit}`,
    );
    await write('units.json', heroicUnits(MAX_DICE_PER_ACTION / 1000));
    const atLimit = await write('at-limit.json', heroicScenario([group('horde', 1000, { formation: true })], [group('b')]));
    expect((await runCli(['validate', atLimit])).status).toBe(0);
  });

  it('20,000 groups are refused before anything is compiled', async () => {
    await write('units.json', heroicUnits(1));
    const many = (prefix: string) => Array.from({ length: 20_000 }, (_, i) => group(`${prefix}${i}`));
    const file = await write('groups.json', heroicScenario(many('a'), many('b')));
    await expectRefused(
      file,
      `sides[0].groups: the number of groups of side "A" is 20,000, more than crucible's limit of ${MAX_GROUPS_PER_SIDE} (MAX_GROUPS_PER_SIDE`,
    );
  });
});

describe('warmaster', () => {
  it('shootsAtChargers with 100,000 attacks is refused', async () => {
    const file = await write('shots.json', {
      ruleset: 'warmaster',
      name: 'limits',
      armies: path.join(REPOSITORY, 'data/warmaster/armies'),
      sides: [
        { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
        {
          name: 'Dwarfs',
          units: [{ id: 'handgunners', unit: 'dwarfs/handgunners', shootsAtChargers: { attacks: 100_000 }, contact: { front: 3 } }],
        },
      ],
    });
    await expectRefused(
      file,
      `sides[1].units[0].shootsAtChargers.attacks: unit "handgunners" shoots at chargers with attacks: the dice of one shooting is 100,000, ${diceLimit}`,
    );
  });

  it("close-combat Attacks past a profile's bound are refused, and so is a pool raised past the dice limit by stands, a character and rule knobs", async () => {
    const file = await write('attacks.json', {
      ruleset: 'warmaster',
      name: 'limits',
      armies: path.join(REPOSITORY, 'data/warmaster/armies'),
      units: { 'orcs/orc-warriors': { attacks: 1_000_000 } },
      sides: [
        { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
        { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } }] },
      ],
    });
    await expectRefused(file, 'units["orcs/orc-warriors"].attacks: must be a number ≤ 100, got 1000000');
    // Within every profile bound (Attacks 100, 100 stands, a +100 character), yet 100 × (100 + 100 + 10 from the default knobs, the charge D6 at its most) dice.
    const pooled = await write('pooled.json', {
      ruleset: 'warmaster',
      name: 'limits',
      armies: path.join(REPOSITORY, 'data/warmaster/armies'),
      units: { 'orcs/orc-warriors': { attacks: 100, unitSize: 100 }, 'orcs/orc-hero': { attackBonus: 100 } },
      sides: [
        { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
        { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', characters: ['orcs/orc-hero'], contact: { front: 3 } }] },
      ],
    });
    await expectRefused(
      pooled,
      `sides[1].units[0]: unit "orcs" fights with up to 210 Attacks (with bonuses) × 100 stands: the dice of one attack is 21,000, ${diceLimit}`,
    );
  });
});
