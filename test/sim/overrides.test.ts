import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mergeOverride } from '../../engine/overrides.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { REPOSITORY } from '../helpers/repository.js';

/** A scenario's `units:` changes (engine/overrides.ts), merged and checked by each rule system's loader. */

describe('mergeOverride', () => {
  it('replaces the fields named, merges nested objects, changes lists of named entries by name and adds new names', () => {
    const base = {
      id: 'ogre',
      def: 3,
      tags: ['big'],
      weapons: [
        { name: 'Club', atk: 4 },
        { name: 'Rock', atk: 1 },
      ],
    };
    expect(mergeOverride(base, { def: 5, weapons: { Rock: { atk: 2 }, Bite: { atk: 1 } } })).toEqual({
      id: 'ogre',
      def: 5,
      tags: ['big'],
      weapons: [
        { name: 'Club', atk: 4 },
        { name: 'Rock', atk: 2 },
        { name: 'Bite', atk: 1 },
      ],
    });
    // A list given as a list replaces the whole list; no base: the override is the entry.
    expect(mergeOverride(base, { weapons: [{ name: 'Fist', atk: 1 }] })).toMatchObject({ weapons: [{ name: 'Fist', atk: 1 }] });
    expect(mergeOverride(undefined, { def: 4 })).toEqual({ def: 4 });
  });

  it('ignores keys that would reach a prototype', () => {
    const merged = mergeOverride({ a: 1 }, JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"x": 1}, "b": 2}')) as Record<
      string,
      unknown
    >;
    expect(merged).toEqual({ a: 1, b: 2 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

const scenario = (ruleset: string, name: string): string => path.join(REPOSITORY, 'data', ruleset, 'scenarios', `${name}.yaml`);

describe('units: changes through --set paths, per rule system', () => {
  it("Warmaster: an army entry's stat by <army>/<unit>; a bad value names the scenario field", async () => {
    const file = scenario('warmaster', 'knights-charge-supported-orcs-first-round');
    const loaded = await loadScenarioChanged(file, { fields: [['units.orcs/orc-warriors.attacks', 5]] });
    expect((loaded.refs as { units: Record<string, { attacks: number }> }).units['orcs/orc-warriors']?.attacks).toBe(5);
    await expect(loadScenarioChanged(file, { fields: [['units.orcs/orc-warriors.attacks', 'many']] })).rejects.toThrow(
      /knights-charge-supported-orcs-first-round\.yaml: units\["orcs\/orc-warriors"\]\.attacks: /,
    );
  });

  it("Battle Forge: a model's save and a weapon's attacks by name, in the combat profile the kernel reads", async () => {
    const file = scenario('battleforge', 'men-at-arms-vs-orc-warriors');
    const loaded = await loadScenarioChanged(file, {
      fields: [
        ['units.human_kingdoms/men_at_arms.models.Man-at-arms.save', 7],
        ['units.human_kingdoms/men_at_arms.models.Man-at-arms.weapons.Long Spear.attacks', 2],
      ],
    });
    const model = (
      loaded.refs as { profiles: Record<string, { models: { save: number; weapons: { name: string; attacks: number }[] }[] }> }
    ).profiles['human_kingdoms/men_at_arms']?.models[0];
    expect([model?.save, model?.weapons[0]?.attacks]).toEqual([7, 2]);
  });
});
