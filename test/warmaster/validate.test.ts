import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { InputError } from '../../input/errors.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Every bad Warmaster scenario a user can write ends as an InputError whose lines read
 * `<file>: <field path>: <what is wrong>`, and the bundled scenarios load.
 */

type Json = Record<string, unknown>;
const repository = REPOSITORY;
const ARMIES = path.join(repository, 'data/warmaster/armies');

const validScenario = (): Json => ({
  ruleset: 'warmaster',
  name: 'Knights vs Orcs',
  armies: ARMIES,
  sides: [
    { name: 'Empire', units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }] },
    { name: 'Orcs', units: [{ id: 'orcs', unit: 'orcs/orc-warriors', contact: { front: 3 } }] },
  ],
});

/** A fresh valid scenario with unit `u` of side `s` changed (a key set to undefined is removed). */
function withUnit(s: number, u: number, changes: Json, base: Json = validScenario()): Json {
  const unit = (base.sides as { units: Json[] }[])[s]?.units[u];
  if (unit === undefined) throw new Error('no such unit in the fixture');
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete unit[key];
    else unit[key] = value;
  }
  return base;
}

let root: string;
let counter = 0;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-warmaster-validate-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function write(content: Json): Promise<string> {
  const file = path.join(root, `scenario-${++counter}.yaml`);
  await writeFile(file, stringify(content));
  return file;
}

async function problemsOf(content: Json): Promise<{ file: string; lines: string[] }> {
  const file = await write(content);
  try {
    await loadScenarioFile(file);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return { file, lines: (error as InputError).message.split('\n') };
  }
  throw new Error('the scenario loaded without problems');
}

async function expectProblem(content: Json, fieldPath: string, fragment: string, problemFile?: string): Promise<void> {
  const { file, lines } = await problemsOf(content);
  const prefix = `${problemFile ?? file}: ${fieldPath}: `;
  const match = lines.find((line) => line.startsWith(prefix) && line.includes(fragment));
  expect(match, `no line starting ${JSON.stringify(prefix)} containing ${JSON.stringify(fragment)} in:\n${lines.join('\n')}`).toBeDefined();
  for (const line of lines) expect(line).not.toMatch(/^\s+at /); // no stack trace
}

describe('warmaster scenarios that load', () => {
  it('the fixture and every bundled scenario', async () => {
    expect((await loadScenarioFile(await write(validScenario()))).system.id).toBe('warmaster');
    for (const name of [
      'cavalry-charge-infantry-open',
      'infantry-attack-defended-infantry',
      'knights-charge-supported-orcs',
      'monster-charge',
      'pursuit-into-second-unit',
      'supported-line',
    ]) {
      const loaded = await loadScenarioFile(path.join(repository, 'data/warmaster/scenarios', `${name}.yaml`));
      expect(loaded.inputs.length).toBeGreaterThan(1); // the scenario and its army files
    }
  });
});

describe('warmaster scenario problems', () => {
  it('schema: an unknown field, a misspelt policy, a missing sides', async () => {
    await expectProblem(
      withUnit(0, 0, { chargin: true }),
      'sides[0].units[0].chargin',
      'unknown field "chargin" (did you mean "charging"?)',
    );
    const misspelt = validScenario();
    (misspelt.sides as Json[])[0] = { ...((misspelt.sides as Json[])[0] as Json), policy: 'persue' };
    await expectProblem(misspelt, 'sides[0].policy', 'did you mean "pursue"?');
    const { sides: _, ...noSides } = validScenario();
    await expectProblem(noSides, 'sides', 'missing');
  });

  it('army-list references: an unknown army, an unknown unit, a character as a unit, a troop as a character', async () => {
    await expectProblem(
      withUnit(0, 0, { unit: 'empyre/knights' }),
      'sides[0].units[0].unit',
      'unknown army "empyre" (did you mean "empire"?',
    );
    await expectProblem(
      withUnit(0, 0, { unit: 'empire/knigths' }),
      'sides[0].units[0].unit',
      'no unit "empire/knigths" in the empire army list (did you mean "empire/knights"?',
    );
    await expectProblem(withUnit(0, 0, { unit: 'empire/general' }), 'sides[0].units[0].unit', 'is a general, not a troop');
    await expectProblem(
      withUnit(0, 0, { characters: ['empire/halberdiers'] }),
      'sides[0].units[0].characters[0]',
      'is a troop, not a character',
    );
    await expectProblem(
      withUnit(0, 0, { unit: 'goblins/pump-wagon', contact: { front: 1 } }),
      'sides[0].units[0].unit',
      'its Attacks are "D6"',
    );
  });

  it('unit state: too many stands, outstanding hits of a whole stand, duplicate ids, equal side names', async () => {
    await expectProblem(withUnit(0, 0, { stands: 4 }), 'sides[0].units[0].stands', 'a Knights unit has 3');
    await expectProblem(withUnit(1, 0, { hits: 3 }), 'sides[1].units[0].hits', 'would already have removed a stand (Hits 3)');
    await expectProblem(withUnit(1, 0, { id: 'knights' }), 'sides[1].units[0].id', 'duplicate unit id "knights"');
    const same = validScenario();
    ((same.sides as Json[])[1] as Json).name = 'Empire';
    await expectProblem(same, 'sides[1].name', 'both sides are named "Empire"');
  });

  it('positions: cavalry cannot be defended, chargers are in the open, only infantry, flyers and giants touch fortified enemy', async () => {
    await expectProblem(
      withUnit(0, 0, { position: 'defended', charging: false }),
      'sides[0].units[0].position',
      'only infantry and artillery can be defended',
    );
    await expectProblem(
      withUnit(1, 0, { position: 'defended', charging: true }),
      'sides[1].units[0].position',
      'chargers cannot be defended',
    );
    await expectProblem(
      withUnit(1, 0, { position: 'fortified', contact: { front: 3 } }, withUnit(0, 0, { contact: { target: 'orcs', front: 3 } })),
      'sides[0].units[0].contact.target',
      'only infantry, flyers and giants can touch it',
    );
  });

  it('contact: an unknown target, a friendly target, no stands, more stands than the unit has, a target in reserve', async () => {
    await expectProblem(
      withUnit(0, 0, { contact: { target: 'orks', front: 3 } }),
      'sides[0].units[0].contact.target',
      'no unit has id "orks" (did you mean "orcs"?',
    );
    await expectProblem(
      withUnit(0, 0, { contact: { target: 'knights', front: 3 } }),
      'sides[0].units[0].contact.target',
      "on this unit's own side",
    );
    await expectProblem(withUnit(0, 0, { contact: { front: 0 } }), 'sides[0].units[0].contact', 'touches with no stands');
    await expectProblem(
      withUnit(1, 0, { contact: { front: 3 }, supports: 1 }),
      'sides[1].units[0].contact',
      '3 stands touching and 1 supporting, but the unit has 3 stands',
    );
    const reserve = validScenario();
    ((reserve.sides as Json[])[1] as { units: Json[] }).units.push({ id: 'orcs-2', unit: 'orcs/orc-warriors', reserve: { chance: 0.5 } });
    await expectProblem(
      withUnit(0, 0, { contact: { target: 'orcs-2', front: 3 } }, reserve),
      'sides[0].units[0].contact.target',
      'is in reserve',
    );
  });

  it('a unit outside reserve that neither fights nor supports, and a side with nobody in contact', async () => {
    const idle = validScenario();
    ((idle.sides as Json[])[1] as { units: Json[] }).units.push({ id: 'idle', unit: 'orcs/goblins' });
    await expectProblem(idle, 'sides[1].units[1]', 'neither touches an enemy nor supports');
    await expectProblem(
      withUnit(1, 0, { contact: undefined, supports: 3 }),
      'sides[1].units',
      'no unit of "Orcs" outside reserve touches an enemy',
    );
  });

  it('supports: only infantry, only for a friendly infantry unit fighting to its front', async () => {
    await expectProblem(
      withUnit(0, 0, { contact: { front: 2 }, supports: 1 }),
      'sides[0].units[0].supports',
      'only infantry can support; this is cavalry',
    );
    const wrongSupported = validScenario();
    ((wrongSupported.sides as Json[])[1] as { units: Json[] }).units.push({
      id: 'support',
      unit: 'orcs/goblins',
      supports: 3,
      supporting: 'knights',
    });
    await expectProblem(wrongSupported, 'sides[1].units[1].supporting', 'must be a friendly infantry unit');
  });

  it('shooting at chargers: needs shooting Attacks, and a charging enemy', async () => {
    await expectProblem(withUnit(1, 0, { shootsAtChargers: true }), 'sides[1].units[0].shootsAtChargers', 'has no plain shooting Attacks');
    await expectProblem(
      withUnit(1, 0, { unit: 'empire/crossbowmen', shootsAtChargers: true }, withUnit(0, 0, { charging: false })),
      'sides[1].units[0].shootsAtChargers',
      'no enemy unit is charging',
    );
  });

  it('the army files: a missing directory, a broken army file names that file', async () => {
    await expectProblem({ ...validScenario(), armies: path.join(root, 'nowhere') }, 'armies', 'army files directory not found');
    const armies = path.join(root, 'armies');
    await mkdir(armies, { recursive: true });
    await copyFile(path.join(ARMIES, 'empire.yaml'), path.join(armies, 'empire.yaml'));
    await writeFile(path.join(armies, 'orcs.yaml'), 'army: orcs\nsource: test\nunits:\n  - id: orc-warriors\n    kind: troop\n');
    await expectProblem({ ...validScenario(), armies }, 'units[0].name', 'missing required field "name"', path.join(armies, 'orcs.yaml'));
  });
});
