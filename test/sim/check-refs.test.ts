import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { MAX_DICE_PER_ACTION } from '../../engine/validation.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { REPOSITORY } from '../helpers/repository.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * A queue worker checks the refs of a stored spec (units, profiles, armies) as the loader checks
 * them (RuleSystem.checkRefs): anyone who can write to Redis can write a spec, and a profile of a
 * billion dice would take a worker's memory (issue 31). Every bundled scenario's own refs pass;
 * refs changed past the CLI's bounds are refused, naming the field.
 */

type Json = Record<string, unknown>;
const bundledScenarioFiles = (): string[] =>
  RULE_SYSTEMS.flatMap((system) =>
    readdirSync(path.join(REPOSITORY, 'data', system.id, 'scenarios'))
      .filter((name) => name.endsWith('.yaml'))
      .map((name) => path.join(REPOSITORY, 'data', system.id, 'scenarios', name)),
  );
const clone = (value: unknown): Json => JSON.parse(JSON.stringify(value)) as Json;

describe("checkRefs: the loader's checks on refs a worker did not load", () => {
  it('every built-in rule system has one', () => {
    expect(RULE_SYSTEMS.filter((system) => system.checkRefs === undefined).map((system) => system.id)).toEqual([]);
  });

  it('passes the refs the loader made, for every bundled scenario', async () => {
    const refused: string[] = [];
    for (const file of bundledScenarioFiles()) {
      const loaded = await loadScenarioFile(file);
      const issues = loaded.system.checkRefs?.(loaded.scenario, clone(loaded.refs)) ?? [];
      if (issues.length > 0) refused.push(`${file}: ${issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
    }
    expect(refused).toEqual([]);
  });

  it('refuses refs past the bounds a run keeps, or not in their format', async () => {
    const heroic = await loadScenarioFile('data/heroic/scenarios/sylvan-knights-formation.yaml');
    const knights = clone(heroic.refs);
    // A formation of three pools its ATK dice: 5,000 a knight is 15,000 dice in one action.
    (((knights.units as Json[])[0] as Json).weapons as Json[]).forEach((weapon) => (weapon.atk = 5_000));
    expect(heroic.system.checkRefs?.(heroic.scenario, knights)[0]?.message).toMatch(/more than crucible's limit of 10,000/);

    const battleforge = await loadScenarioFile('data/battleforge/scenarios/men-at-arms-vs-orc-warriors.yaml');
    const profiles = clone(battleforge.refs);
    for (const profile of Object.values(profiles.profiles as Record<string, Json>))
      for (const model of profile.models as Json[]) for (const weapon of model.weapons as Json[]) weapon.attacks = 100;
    const scaled = clone(battleforge.scenario);
    for (const side of scaled.sides as { units: Json[] }[]) for (const unit of side.units) unit.models = MAX_DICE_PER_ACTION;
    expect(battleforge.system.checkRefs?.(scaled as never, profiles)[0]?.message).toMatch(/more than crucible's limit of 10,000/);

    const warmaster = await loadScenarioFile('data/warmaster/scenarios/cavalry-charge-infantry-open.yaml');
    expect(warmaster.system.checkRefs?.(warmaster.scenario, { units: { 'empire/knights': { name: 'not a unit' } } })[0]?.path[0]).toBe(
      'refs',
    );

    const epic = await loadScenarioFile('data/epic/scenarios/guard-company-under-fire.yaml');
    expect(epic.system.checkRefs?.(epic.scenario, { armies: {} })).not.toEqual([]);
    expect(epic.system.checkRefs?.(epic.scenario, 'a string')[0]?.path).toEqual(['refs']);
  });
});
