import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { scenarioProblems } from '../helpers/scenario-problems.js';
import { REPOSITORY } from '../helpers/repository.js';

/** Every bad Battle Forge scenario ends as `<file>: <field path>: <what is wrong>`, and the bundled ones load. */

type Json = Record<string, unknown>;
const repository = REPOSITORY;
const DATA = path.join(repository, 'data/battleforge');

const validScenario = (): Json => ({
  ruleset: 'battleforge',
  name: 'Men-at-arms vs Orc Warriors',
  data: DATA,
  sides: [
    { name: 'Humans', units: [{ id: 'men', unit: 'human_kingdoms/men_at_arms', models: 10 }] },
    { name: 'Orcs', plan: 'charge-and-fight', units: [{ id: 'orcs', unit: 'orcs_and_goblins/orc_warriors', models: 10 }] },
  ],
});

function withUnit(s: number, u: number, changes: Json, base: Json = validScenario()): Json {
  const unit = (base.sides as { units: Json[] }[])[s]?.units[u];
  if (unit === undefined) throw new Error('no such unit in the fixture');
  Object.assign(unit, changes);
  return base;
}

const { expectProblem, directory } = scenarioProblems('crucible-battleforge-validate-');

describe('battleforge scenarios that load', () => {
  it('the fixture and every bundled scenario', async () => {
    const file = path.join(directory(), 'valid.yaml');
    await writeFile(file, stringify(validScenario()));
    const loaded = await loadScenarioFile(file);
    expect(loaded.system.id).toBe('battleforge');
    for (const name of ['men-at-arms-vs-orc-warriors', 'bowmen-hold-vs-orc-charge', 'battlemage-vs-orc-warriors']) {
      const bundled = await loadScenarioFile(path.join(DATA, 'scenarios', `${name}.yaml`));
      expect(bundled.inputs.length).toBeGreaterThan(2); // scenario, index, factions
    }
  });
});

describe('battleforge scenario problems', () => {
  it('schema: an unknown field, a misspelt plan, a bad reference', async () => {
    await expectProblem(withUnit(0, 0, { modles: 10 }), 'sides[0].units[0].modles', 'unknown field "modles"');
    await expectProblem(withUnit(0, 0, { plan: 'shoot-twice' }), 'sides[0].units[0].plan', 'must be one of');
    await expectProblem(withUnit(0, 0, { unit: 'men_at_arms' }), 'sides[0].units[0].unit', 'must be "<faction>/<unit id>"');
  });

  it('references: an unknown faction, an unknown unit, an unknown model name, a power', async () => {
    await expectProblem(
      withUnit(0, 0, { unit: 'human_kingdom/men_at_arms' }),
      'sides[0].units[0].unit',
      'unknown faction "human_kingdom" (did you mean "human_kingdoms"?',
    );
    await expectProblem(
      withUnit(0, 0, { unit: 'human_kingdoms/men_at_arm' }),
      'sides[0].units[0].unit',
      'no unit "human_kingdoms/men_at_arm" in the human_kingdoms faction',
    );
    await expectProblem(
      withUnit(0, 0, { models: { 'Man-at-arm': 10 } }),
      'sides[0].units[0].models.Man-at-arm',
      'has no model "Man-at-arm" (did you mean "Man-at-arms"?',
    );
    await expectProblem(withUnit(0, 0, { powers: ['fireball'] }), 'sides[0].units[0].powers', 'has no power rule');
    await expectProblem(
      withUnit(0, 0, { unit: 'human_kingdoms/battle_mage', models: 1, powers: ['firebal'] }),
      'sides[0].units[0].powers[0]',
      'no power "firebal" for human_kingdoms (did you mean "fireball"?',
    );
    await expectProblem(
      withUnit(0, 0, { unit: 'human_kingdoms/battle_mage', models: 1, powers: ['haste'] }),
      'sides[0].units[0].powers[0]',
      'does neither damage nor Shock',
    );
  });

  it('rules a scenario must respect: plans the unit can carry out, positions, ids, side names', async () => {
    await expectProblem(
      withUnit(
        0,
        0,
        {},
        {
          ...validScenario(),
          sides: [
            { name: 'Humans', plan: 'shoot-and-hold', units: [{ id: 'men', unit: 'human_kingdoms/men_at_arms' }] },
            (validScenario().sides as Json[])[1],
          ],
        },
      ),
      'sides[0].plan',
      'has no ranged weapon',
    );
    await expectProblem(withUnit(0, 0, { position: 30 }), 'sides[0].units[0].position', 'the sides are 24" apart');
    await expectProblem(withUnit(1, 0, { id: 'men' }), 'sides[1].units[0].id', 'duplicate unit id "men"');
    const same = validScenario();
    ((same.sides as Json[])[1] as Json).name = 'Humans';
    await expectProblem(same, 'sides[1].name', 'both sides are named "Humans"');
  });

  it('rule knobs: out of range, misspelt, or an automatic pass not below the automatic failure', async () => {
    await expectProblem({ ...validScenario(), rules: { autoFailFace: 11 } }, 'rules.autoFailFace', '10');
    await expectProblem({ ...validScenario(), rules: { shockPerHit: 2 } }, 'rules.shockPerHit', 'unknown field "shockPerHit"');
    await expectProblem(
      { ...validScenario(), rules: { autoPassFace: 6, autoFailFace: 6 } },
      'rules.autoFailFace',
      'is not above rules.autoPassFace (6)',
    );
  });

  it('the data: a missing directory is named', async () => {
    await expectProblem({ ...validScenario(), data: path.join(directory(), 'nowhere') }, 'data', 'Battle Forge data not found');
  });
});

describe('the scenario schema alone bounds what a unit fields', () => {
  it('refuses a billion models (a queue worker checks a stored spec against the schema, without the data files the loader reads)', async () => {
    const { scenarioSchema } = await import('../../engine/battleforge/schema.js');
    for (const models of [1e9, { Warrior: 1e9 }]) {
      const parsed = scenarioSchema.safeParse(withUnit(0, 0, { models }));
      expect(parsed.success, JSON.stringify(models)).toBe(false);
    }
    expect(scenarioSchema.safeParse(withUnit(0, 0, { models: 10_000 })).success).toBe(true);
  });
});
