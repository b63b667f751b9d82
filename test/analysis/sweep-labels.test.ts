import { describe, expect, it } from 'vitest';
import { fieldLabel, metricTitle, outcomeTitle, words } from '../../input/field-labels.js';
import { trustPlugins } from '../../input/plugin-trust.js';
import { type LoadedScenario, loadScenarioFile } from '../../input/scenario-file.js';

/**
 * Field paths and metrics in words, for every rule system through its descriptor alone. The
 * expected labels are read off the scenario files by hand: the sides' names, the groups' and units'
 * ids, the profiles' display names in the bundled data, and the schemas' field descriptions.
 */

const loaded = new Map<string, Promise<LoadedScenario>>();
/** Each file loaded once (a Battle Forge scenario reads its whole faction data). */
const label = async (file: string, path: string): Promise<string> => {
  // The example plugin trusted, as --plugin would (input/plugin-trust.ts).
  if (!loaded.has(file)) loaded.set(file, loadScenarioFile(file, { plugins: trustPlugins(['examples/homebrew/index.ts']) }));
  return fieldLabel(await (loaded.get(file) as Promise<LoadedScenario>), path).label;
};

describe('fieldLabel', () => {
  it('heroic: sides by name, groups by id and profile, rule knobs and stats by their title', async () => {
    const file = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
    expect(await label(file, 'sides[1].groups[0].models')).toBe('Sylvan Knights › knights (Sylvan Knight): models');
    // The side is named after the profile already: not said twice.
    expect(await label(file, 'sides[0].groups[0].unit')).toBe('Regenerating Ogre › ogre: unit');
    expect(await label(file, 'rules.shieldSave')).toBe('Shield save');
    expect(await label(file, 'options.allocation')).toBe('Allocation');
    expect(await label(file, 'units.ogre-regenerating.def')).toBe('Regenerating Ogre: DEF');
    expect(await label(file, 'units.ogre-regenerating.regenerates')).toBe('Regenerating Ogre: MIGHT (R)');
    const models = fieldLabel(await loadScenarioFile(file), 'sides[1].groups[0].models');
    expect(models).toEqual({
      path: 'sides[1].groups[0].models',
      label: 'Sylvan Knights › knights (Sylvan Knight): models',
      title: 'models',
      owner: 'Sylvan Knights › knights (Sylvan Knight)',
      description: 'number of models',
    });
  });

  it('warmaster, battleforge, epic and a plugin alike', async () => {
    const warmaster = 'data/warmaster/scenarios/knights-charge-supported-orcs.yaml';
    expect(await label(warmaster, 'sides[1].units[1].supports')).toBe('Orcs › orc-support (Orc Warriors): supports');
    expect(await label(warmaster, 'sides[0].policy')).toBe('Empire: policy');
    expect(await label(warmaster, 'units.orcs/orc-warriors.attacks')).toBe('Orc Warriors: attacks');
    expect(await label(warmaster, 'maxTurns')).toBe('Max turns');
    const battleforge = 'data/battleforge/scenarios/battlemage-vs-orc-warriors.yaml';
    expect(await label(battleforge, 'sides[0].reactions.toShooting')).toBe('Human Kingdoms › reactions: to shooting');
    expect(await label(battleforge, 'distance')).toBe('Distance');
    const epic = 'data/epic/scenarios/broken-guard-company-rallies.yaml';
    expect(await label(epic, 'players[0].formations[0].enemyWithin30')).toBe('Imperial Guard › company: enemy within 30');
    expect(await label(epic, 'rules.brokenModifier')).toBe('Broken modifier');
    const plugin = 'examples/homebrew/scenarios/knights-vs-brutes.yaml';
    expect(await label(plugin, 'sides[0].models')).toBe('Knights: models');
    expect(await label(plugin, 'rules.criticalFace')).toBe('Critical face');
  });

  it('words: keys in words; metric and outcome titles from descriptions', () => {
    expect(['shieldSave', 'enemyWithin30', 'to_charge', 'hitOnOpen'].map(words)).toEqual([
      'shield save',
      'enemy within 30',
      'to charge',
      'hit on open',
    ]);
    const winner = {
      name: 'winner',
      kind: 'category' as const,
      description: 'side whose enemies were all vanquished (none: round limit reached, or both sides wiped out)',
    };
    expect(metricTitle(winner)).toBe('Side whose enemies were all vanquished');
    expect(outcomeTitle(winner, 'Ogre')).toBe('Side whose enemies were all vanquished: Ogre');
    const retreat = {
      name: 'retreat',
      kind: 'count' as const,
      description: 'cm the loser of round 1 retreated (0: draw, or the loser was destroyed)',
    };
    expect(outcomeTitle(retreat)).toBe('cm the loser of round 1 retreated (0: draw, or the loser was destroyed)');
    expect(metricTitle({ name: 'x.y', kind: 'flag', description: '' })).toBe('x.y');
  });
});
