import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { scenarioProblems } from '../helpers/scenario-problems.js';
import { REPOSITORY } from '../helpers/repository.js';

/** Every bad Epic rally scenario ends as `<file>: <field path>: <what is wrong>`, and the bundled ones load. */

type Json = Record<string, unknown>;
const repository = REPOSITORY;
const ARMIES = path.join(repository, 'data/epic/armies.yaml');

const validScenario = (): Json => ({
  ruleset: 'epic',
  name: 'A broken company',
  armies: ARMIES,
  players: [{ name: 'Guard', army: 'imperial-guard', formations: [{ id: 'company', units: 7, broken: true }] }],
});

function withFormation(changes: Json, base: Json = validScenario()): Json {
  const formation = (base.players as { formations: Json[] }[])[0]?.formations[0];
  if (formation === undefined) throw new Error('no formation in the fixture');
  Object.assign(formation, changes);
  return base;
}

const { expectProblem, directory } = scenarioProblems('crucible-epic-validate-');

describe('epic scenarios that load', () => {
  it('every bundled scenario', async () => {
    for (const name of ['broken-guard-company-rallies', 'guard-company-under-fire', 'marines-vs-orks-under-fire']) {
      const loaded = await loadScenarioFile(path.join(repository, 'data/epic/scenarios', `${name}.yaml`));
      expect(loaded.system.id).toBe('epic');
    }
  });
});

describe('epic scenario problems', () => {
  it('an unknown army, a misspelt field, a distribution that does not add up to 1', async () => {
    await expectProblem(
      { ...validScenario(), players: [{ name: 'Guard', army: 'imperial-gaurd', formations: [{ id: 'company', units: 7 }] }] },
      'players[0].army',
      'unknown army "imperial-gaurd" (did you mean "imperial-guard"?',
    );
    await expectProblem(
      withFormation({ enemyWithin: true }),
      'players[0].formations[0].enemyWithin',
      'unknown field "enemyWithin" (did you mean "enemyWithin30"?)',
    );
    await expectProblem(
      withFormation({
        markersPerTurn: [
          { value: 1, p: 0.5 },
          { value: 2, p: 0.4 },
        ],
      }),
      'players[0].formations[0].markersPerTurn',
      'the probabilities add up to 0.9',
    );
  });

  it('starting states the rules do not allow', async () => {
    await expectProblem(withFormation({ markers: 2 }), 'players[0].formations[0].markers', 'a Broken formation has no Blast markers');
    await expectProblem(withFormation({ broken: false, markers: 7 }), 'players[0].formations[0].markers', 'would already have broken it');
  });

  it('duplicate ids and player names, a missing armies file', async () => {
    const twice = validScenario();
    (twice.players as Json[]).push({ name: 'Guard', army: 'orks', formations: [{ id: 'company', units: 5 }] });
    await expectProblem(twice, 'players[1].name', 'both players are named "Guard"');
    await expectProblem(twice, 'players[1].formations[0].id', 'duplicate formation id "company"');
    await expectProblem({ ...validScenario(), armies: path.join(directory(), 'nowhere.yaml') }, 'armies', 'armies file not found');
  });
});
