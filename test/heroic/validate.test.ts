import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type Scenario, scenarioSchema, type Unit, unitsFileSchema } from '../../engine/heroic/schema.js';
import { closestNames, validateHeroic, validateUnits } from '../../engine/heroic/validate.js';
import { formatPath, InputError } from '../../input/errors.js';
import { findScenarioFiles } from '../../input/scenario-file.js';
import { loadHeroicScenarioFile, loadUnitsFile } from '../helpers/heroic-scenario.js';

/** Every bad input a user can write must end as an InputError naming the file, the field and the fault. */

type Json = Record<string, unknown>;

const UNITS = {
  units: [
    {
      id: 'sylvan-knight',
      name: 'Sylvan Knight',
      madeUp: true,
      def: 4,
      shield: true,
      might: 2,
      will: 4,
      dex: 5,
      weapons: [{ name: 'Lance', type: 'melee', atk: 3 }],
    },
    {
      id: 'ogre',
      name: 'Ogre',
      madeUp: true,
      def: 3,
      might: 8,
      will: 3,
      regenerates: true,
      weapons: [{ name: 'Club', type: 'melee', atk: 4 }],
    },
    {
      id: 'hero',
      name: 'Hero',
      madeUp: true,
      heroic: true,
      def: 4,
      might: 5,
      will: 5,
      weapons: [{ name: 'Sword', type: 'melee', atk: 4 }],
    },
    {
      id: 'mage',
      name: 'Mage',
      madeUp: true,
      def: 3,
      might: 3,
      will: 5,
      weapons: [
        { name: 'Staff', type: 'melee', atk: 2 },
        { name: 'Fireball', type: 'aoe', atk: 2, damage: ['Fire'], enemiesOnly: true },
        { name: 'Storm', type: 'aoe', atk: 2 },
        { name: 'Bolt', type: 'ranged', atk: 2 },
      ],
    },
  ],
};

const validScenario = (): Json => ({
  ruleset: 'heroic',
  name: 'Knights vs Ogre',
  mode: 'engagement',
  sides: [
    { name: 'Knights', groups: [{ id: 'knights', unit: 'sylvan-knight', models: 3, formation: true }] },
    { name: 'Ogre', groups: [{ id: 'ogre', unit: 'ogre', models: 1 }] },
  ],
});

let root: string;
let fileCounter = 0;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-validate-'));
  await mkdir(path.join(root, 'scenarios'));
  await writeFile(path.join(root, 'units.yaml'), stringify(UNITS));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Write a scenario (object → YAML, or raw text) beside the shared units file; returns its path. */
async function writeScenario(content: Json | string, extension = '.yaml'): Promise<string> {
  const file = path.join(root, 'scenarios', `scenario-${++fileCounter}${extension}`);
  const text = typeof content === 'string' ? content : extension === '.json' ? JSON.stringify(content, null, 2) : stringify(content);
  await writeFile(file, text);
  return file;
}

/** Mutate a fresh valid scenario's group (side s, group g). */
function withGroup(side: number, group: number, changes: Json, base: Json = validScenario()): Json {
  const sides = base.sides as { groups: Json[] }[];
  const target = sides[side]?.groups[group];
  if (target === undefined) throw new Error('no such group in the fixture');
  Object.assign(target, changes);
  return base;
}

async function problemsOf(file: string): Promise<string[]> {
  try {
    await loadHeroicScenarioFile(file);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).message.split('\n');
  }
  throw new Error(`${file} loaded without problems`);
}

/** Assert one problem line reads `<file>: <path>: …<fragment>…`. */
async function expectProblem(file: string, fieldPath: string, fragment: string, problemFile = file): Promise<string[]> {
  const lines = await problemsOf(file);
  const prefix = `${problemFile}: ${fieldPath}: `;
  const match = lines.find((line) => line.startsWith(prefix) && line.includes(fragment));
  expect(match, `no line starting ${JSON.stringify(prefix)} containing ${JSON.stringify(fragment)} in:\n${lines.join('\n')}`).toBeDefined();
  return lines;
}

describe('loadHeroicScenarioFile: valid files', () => {
  it('loads the example scenario and applies defaults', async () => {
    const file = await writeScenario(validScenario());
    const loaded = await loadHeroicScenarioFile(file);
    expect(loaded.file).toBe(file);
    expect(loaded.unitsFile).toBe(path.join(root, 'units.yaml'));
    expect(loaded.scenario.rounds).toBe(10);
    expect(loaded.scenario.sides[0]?.groups[0]?.woundsTaken).toBe(0);
    // Only the profiles the scenario fields: what workers receive and results hash as the units used.
    expect(loaded.units.map((unit) => unit.id)).toEqual(['sylvan-knight', 'ogre']);
  });

  it('reads JSON scenarios too', async () => {
    const file = await writeScenario(validScenario(), '.json');
    expect((await loadHeroicScenarioFile(file)).scenario.name).toBe('Knights vs Ogre');
  });

  it('follows the unitsFile field relative to the scenario file (and the older `units: <file>` form)', async () => {
    await writeFile(path.join(root, 'scenarios', 'local-units.json'), JSON.stringify(UNITS));
    for (const field of ['unitsFile', 'units']) {
      const file = await writeScenario({ ...validScenario(), [field]: 'local-units.json' });
      expect((await loadHeroicScenarioFile(file)).unitsFile).toBe(path.join(root, 'scenarios', 'local-units.json'));
    }
  });

  it("lays a scenario's units: changes over the units file (weapons by name), and adds new units", async () => {
    const sides = [
      { name: 'Knights', groups: [{ id: 'knights', unit: 'sylvan-knight', models: 3, formation: true }] },
      { name: 'Ogre', groups: [{ id: 'ogre', unit: 'ogre', models: 1 }] },
    ];
    const changed = await loadHeroicScenarioFile(
      await writeScenario({ ...validScenario(), sides, units: { ogre: { def: 6, weapons: { Club: { atk: 9 } } } } }),
    );
    const ogre = changed.units.find((unit) => unit.id === 'ogre');
    expect([ogre?.def, ogre?.might, ogre?.weapons.map((weapon) => [weapon.name, weapon.atk])]).toEqual([6, 8, [['Club', 9]]]);
    const twin = { name: 'Twin', def: 4, might: 2, will: 4, weapons: [{ name: 'Lance', type: 'melee', atk: 3 }] };
    const added = await loadHeroicScenarioFile(
      await writeScenario({
        ...validScenario(),
        units: { twin },
        sides: [sides[0], { name: 'Twins', groups: [{ id: 'twins', unit: 'twin', models: 2 }] }],
      }),
    );
    expect(added.units.map((unit) => unit.id)).toEqual(['sylvan-knight', 'twin']);
    await expect(loadHeroicScenarioFile(await writeScenario({ ...validScenario(), units: { ogre: { def: 'high' } } }))).rejects.toThrow(
      /units\.ogre\.def: /,
    );
    await expect(loadHeroicScenarioFile(await writeScenario({ ...validScenario(), units: { newcomer: { def: 4 } } }))).rejects.toThrow(
      /units\.newcomer\.name: /,
    );
  });
});

describe('loadHeroicScenarioFile: file-level problems', () => {
  it('a missing scenario file', async () => {
    const file = path.join(root, 'scenarios', 'does-not-exist.yaml');
    await expectProblem(file, '(root)', 'file not found');
  });

  it('a missing units file is the scenario\'s "unitsFile" field', async () => {
    const file = await writeScenario({ ...validScenario(), unitsFile: '../nowhere.yaml' });
    await expectProblem(file, 'unitsFile', 'units file not found');
  });

  it('malformed YAML gives line and column', async () => {
    const file = await writeScenario('ruleset: heroic\nname: x\nsides:\n  - name: A\n    groups: [{ id: a, unit: ogre, models: 1 }\n');
    const lines = await problemsOf(file);
    expect(lines[0]).toMatch(new RegExp(`^${escapeRegExp(file)}: line \\d+, column \\d+: invalid YAML: `));
  });

  it('a key with brackets left unquoted inside { } gets the hint to quote it', async () => {
    const scenario = 'ruleset: heroic\nname: x\nsides: []\nvariants:\n  - name: v\n    set: { sides[0].groups[0].models: 2 }\n';
    const lines = await problemsOf(await writeScenario(scenario));
    expect(lines[0]).toMatch(
      /: line 6, column \d+: invalid YAML: .* \(inside \{ \}, a key with brackets must be quoted: "sides\[0\]\.groups\[0\]\.models": …\)$/,
    );
    // Quoted, or in block form, the same key reads as the path it is.
    for (const fixed of [
      scenario.replace('sides[0].groups[0].models', '"sides[0].groups[0].models"'),
      scenario.replace('{ sides[0].groups[0].models: 2 }', '\n      sides[0].groups[0].models: 2'),
    ]) {
      expect((await problemsOf(await writeScenario(fixed))).join('\n')).not.toContain('invalid YAML');
    }
  });

  it('malformed JSON gives line and column', async () => {
    const file = await writeScenario('{\n  "ruleset": "heroic",\n  "name": }\n', '.json');
    await expectProblem(file, 'line 3, column 11', 'invalid JSON');
  });

  it('an empty file, a list instead of a mapping, an unknown extension', async () => {
    await expectProblem(await writeScenario('# nothing here\n'), '(root)', 'the file is empty');
    await expectProblem(await writeScenario('- ruleset: heroic\n'), '(root)', 'must be a mapping');
    await expectProblem(await writeScenario('ruleset: heroic\n', '.txt'), '(root)', 'unsupported file type ".txt"');
  });
});

describe('loadHeroicScenarioFile: field problems (zod)', () => {
  it('a typo in a field name suggests the right one', async () => {
    const scenario = validScenario();
    const group = (scenario.sides as { groups: Json[] }[])[0]?.groups[0] as Json;
    group.modles = group.models;
    delete group.models;
    const lines = await expectProblem(
      await writeScenario(scenario),
      'sides[0].groups[0].modles',
      'unknown field "modles" (did you mean "models"?)',
    );
    expect(lines).toContainEqual(
      expect.stringContaining('sides[0].groups[0].models: missing required field "models" (an integer from 1 to 1000: number of models)'),
    );
  });

  it('a negative model count', async () => {
    await expectProblem(
      await writeScenario(withGroup(1, 0, { models: -2 })),
      'sides[1].groups[0].models',
      'must be an integer ≥ 1, got -2',
    );
  });

  it('a wrong or missing ruleset', async () => {
    await expectProblem(
      await writeScenario({ ...validScenario(), ruleset: 'warhammer' }),
      'ruleset',
      'unknown ruleset "warhammer": no such module or package from',
    );
    await expectProblem(
      await writeScenario({ ...validScenario(), ruleset: 'warhammer' }),
      'ruleset',
      '(the built-ins "heroic", "warmaster", "battleforge", "epic", or a plugin module\'s path',
    );
    const { ruleset: _, ...withoutRuleset } = validScenario();
    await expectProblem(await writeScenario(withoutRuleset), 'ruleset', 'missing: say which rules the scenario uses');
  });

  it('a wrong enum value suggests the closest', async () => {
    await expectProblem(await writeScenario({ ...validScenario(), mode: 'engagment' }), 'mode', 'did you mean "engagement"?');
  });

  it('a wrong type', async () => {
    await expectProblem(
      await writeScenario(withGroup(0, 0, { formation: 'yes' })),
      'sides[0].groups[0].formation',
      'must be true or false, got "yes"',
    );
    await expectProblem(await writeScenario({ ...validScenario(), sides: 'two' }), 'sides', 'must be a list, got "two"');
  });

  it('a badly written id', async () => {
    await expectProblem(
      await writeScenario(withGroup(0, 0, { id: 'Knights 1' })),
      'sides[0].groups[0].id',
      'lower-case letters, digits and dashes',
    );
  });

  it('negative dice in the units file name the units file', async () => {
    const directory = path.join(root, 'negative-dice');
    await mkdir(path.join(directory, 'scenarios'), { recursive: true });
    const units = structuredClone(UNITS);
    (units.units[1]?.weapons[0] as Json).atk = -1;
    await writeFile(path.join(directory, 'units.yaml'), stringify(units));
    const file = path.join(directory, 'scenarios', 'fight.yaml');
    await writeFile(file, stringify(validScenario()));
    await expectProblem(file, 'units[1].weapons[0].atk', 'must be an integer ≥ 0, got -1', path.join(directory, 'units.yaml'));
  });

  it('lists every problem, one per line', async () => {
    const scenario = withGroup(0, 0, { models: 0, charging: 'no' }, { ...validScenario(), rounds: 0, extra: 1 });
    const lines = await problemsOf(await writeScenario(scenario));
    expect(lines).toHaveLength(4);
  });
});

describe('loadHeroicScenarioFile: cross-references and rules', () => {
  const cases: [title: string, scenario: () => Json, path: string, fragment: string][] = [
    ['unknown unit', () => withGroup(1, 0, { unit: 'ogr' }), 'sides[1].groups[0].unit', 'unknown unit "ogr" (did you mean "ogre"?'],
    [
      'unknown weapon',
      () => withGroup(1, 0, { weapon: 'Axe' }),
      'sides[1].groups[0].weapon',
      'has no weapon set "Axe"; its weapon sets: "Club"',
    ],
    [
      'formation of 2',
      () => withGroup(0, 0, { models: 2 }),
      'sides[0].groups[0].formation',
      'a formation needs at least 3 models (rulings §8)',
    ],
    [
      'hero in a formation',
      () => withGroup(0, 0, { unit: 'hero' }),
      'sides[0].groups[0].formation',
      'Heroes, Heroic Mounts and Heroic Beasts cannot enter Formations',
    ],
    ['cards without formation', () => withGroup(0, 0, { formation: false, cards: [3] }), 'sides[0].groups[0].cards', 'set formation: true'],
    ['cards not adding up', () => withGroup(0, 0, { models: 4, cards: [3, 2] }), 'sides[0].groups[0].cards', 'cards add up to 5 models'],
    ['frontRank over models', () => withGroup(0, 0, { frontRank: 4 }), 'sides[0].groups[0].frontRank', 'frontRank 4 is more than'],
    ['woundsTaken ≥ MIGHT', () => withGroup(1, 0, { woundsTaken: 8 }), 'sides[1].groups[0].woundsTaken', 'MIGHT 8'],
    [
      'unknown target',
      () => withGroup(1, 0, { target: 'knight' }),
      'sides[1].groups[0].target',
      'no group has id "knight" (did you mean "knights"?',
    ],
    [
      'own-side target',
      () => withGroup(0, 0, { target: 'knights2' }, addGroup(validScenario(), 0, { id: 'knights2', unit: 'sylvan-knight', models: 1 })),
      'sides[0].groups[0].target',
      "on this group's own side: a target must be an enemy group",
    ],
    ['duplicate group ids', () => withGroup(1, 0, { id: 'knights' }), 'sides[1].groups[0].id', 'duplicate group id "knights"'],
    ['split on a formation', () => withGroup(0, 0, { split: [{ target: 'ogre', dice: 1 }] }), 'sides[0].groups[0].split', 'cannot split'],
    [
      'split by a group of several models',
      () => withGroup(0, 0, { formation: false, split: [{ target: 'ogre', dice: 1 }] }),
      'sides[0].groups[0].split',
      'this group has 3 models',
    ],
    [
      'split with a non-melee weapon',
      () => withGroup(1, 0, { unit: 'mage', weapon: 'Bolt', split: [{ target: 'knights', dice: 1 }] }),
      'sides[1].groups[0].split',
      'only a melee attack can be split',
    ],
    [
      'split with too many dice',
      () => withGroup(1, 0, { split: [{ target: 'knights', dice: 5 }] }),
      'sides[1].groups[0].split',
      'split uses 5 dice but weapon "Club" has ATK 4',
    ],
    [
      'split at an own-side group',
      () => withGroup(1, 0, { split: [{ target: 'ogre', dice: 1 }] }),
      'sides[1].groups[0].split[0].target',
      'own side',
    ],
    [
      'area on a melee weapon',
      () => withGroup(1, 0, { area: [{ group: 'knights', models: 1 }] }),
      'sides[1].groups[0].area',
      'area is only for AoE weapons; weapon "Club" is melee',
    ],
    [
      'area larger than the group',
      () => withGroup(1, 0, { unit: 'mage', weapon: 'Storm', area: [{ group: 'knights', models: 4 }] }),
      'sides[1].groups[0].area[0].models',
      'that group has only 3',
    ],
    [
      'enemiesOnly area on an ally',
      () => withGroup(1, 0, { unit: 'mage', weapon: 'Fireball', area: [{ group: 'ogre', models: 1 }] }),
      'sides[1].groups[0].area[0].group',
      'is enemiesOnly',
    ],
    [
      'area on an unknown group',
      () => withGroup(1, 0, { unit: 'mage', weapon: 'Storm', area: [{ group: 'elves', models: 1 }] }),
      'sides[1].groups[0].area[0].group',
      'no group has id "elves"',
    ],
  ];

  it.each(cases)('%s', async (_title, scenario, fieldPath, fragment) => {
    await expectProblem(await writeScenario(scenario()), fieldPath, fragment);
  });

  it('an area may include allies when the weapon is not enemiesOnly', async () => {
    const scenario = withGroup(1, 0, {
      unit: 'mage',
      weapon: 'Storm',
      area: [
        { group: 'ogre', models: 1 },
        { group: 'knights', models: 3 },
      ],
    });
    await expect(loadHeroicScenarioFile(await writeScenario(scenario))).resolves.toBeDefined();
  });
});

describe('validateHeroic and validateUnits (pure)', () => {
  const units: Unit[] = unitsFileSchema.parse(UNITS).units;

  it('return no issue for a valid scenario', () => {
    const scenario: Scenario = scenarioSchema.parse(validScenario());
    expect(validateHeroic(scenario, units)).toEqual([]);
    expect(validateUnits(units)).toEqual([]);
  });

  it('report paths as arrays', () => {
    const scenario: Scenario = scenarioSchema.parse(withGroup(0, 0, { unit: 'nobody' }));
    expect(validateHeroic(scenario, units)).toEqual([
      { path: ['sides', 0, 'groups', 0, 'unit'], message: expect.stringContaining('unknown unit "nobody"') },
    ]);
  });

  it('find duplicate unit ids and weapon names', () => {
    const duplicated = unitsFileSchema.parse({
      units: [
        ...UNITS.units,
        {
          ...UNITS.units[1],
          weapons: [
            { name: 'Club', type: 'melee', atk: 1 },
            { name: 'Club', type: 'melee', atk: 2 },
          ],
        },
      ],
    }).units;
    expect(validateUnits(duplicated).map((issue) => formatPath(issue.path))).toEqual(['units[4].id', 'units[4].weapons[1].name']);
  });

  it('suggests close names', () => {
    expect(closestNames('ogr', ['ogre', 'sylvan-knight'])).toEqual(['ogre']);
    expect(closestNames('zzz', ['ogre'])).toEqual([]);
  });
});

describe('loadUnitsFile and findScenarioFiles', () => {
  it('loadUnitsFile names the units file', async () => {
    const file = path.join(root, 'bad-units.yaml');
    await writeFile(file, stringify({ units: [{ ...UNITS.units[0], might: 0 }] }));
    await expect(loadUnitsFile(file)).rejects.toThrow(`${file}: units[0].might: must be an integer ≥ 1, got 0`);
  });

  it('expands directories sorted by name and rejects missing paths', async () => {
    const directory = path.join(root, 'listing');
    await mkdir(directory);
    for (const name of ['b.yaml', 'a.json', 'c.yml', 'notes.txt']) await writeFile(path.join(directory, name), '');
    expect(await findScenarioFiles([directory])).toEqual(['a.json', 'b.yaml', 'c.yml'].map((name) => path.join(directory, name)));
    const missing = path.join(root, 'missing');
    await expect(findScenarioFiles([missing])).rejects.toThrow(`${missing}: (root): no such file or directory`);
  });
});

function addGroup(scenario: Json, side: number, group: Json): Json {
  (scenario.sides as { groups: Json[] }[])[side]?.groups.push(group);
  return scenario;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
