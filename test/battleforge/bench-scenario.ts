import { compileBattleforge, type Scenario, scenarioSchema, type UnitProfile } from '../../engine/battleforge/index.js';
import type { Kernel } from '../../engine/kernel.js';

/**
 * The Battle Forge bench scenario as engine input, and the same object for test/battleforge/naive.ts.
 * The two profiles are written inline, not read from data/, so the bench measures exactly what it
 * says whatever the data files become. Their characteristics mirror data/battleforge/factions
 * (human_kingdoms.yaml `men_at_arms`, orcs_and_goblins.yaml `orc_warriors`, module index weapons):
 * - Men-at-arms: Mov 6, Acc 5, Str 5, Sav 5, Init 5, Co 5, a Long Spear (melee, 1 attack, AP 1) as
 *   in the data, plus a Bow (12"/24", 1 attack, AP 1: the module's Bow) — MADE UP: the faction entry
 *   has no bow option; the bench wants a unit that shoots and then charges.
 * - Orc Warriors: Mov 6, Acc 5, Str 6, Sav 5, Init 5, Co 5, Heavy Hand Weapon ×2 (melee, 1 attack,
 *   AP 2: the entry's "two heavy hand weapons" option; the "choppa ×2" of the issue).
 */

const MEN_AT_ARMS = 'human_kingdoms/men_at_arms';
const ORC_WARRIORS = 'orcs_and_goblins/orc_warriors';

export const battleforgeBenchProfiles: ReadonlyMap<string, UnitProfile> = new Map<string, UnitProfile>([
  [
    MEN_AT_ARMS,
    {
      reference: MEN_AT_ARMS,
      name: 'Men-at-arms',
      models: [
        {
          name: 'Man-at-arms',
          count: 10,
          hasCharacteristics: true,
          movement: 6,
          accuracy: 5,
          strength: 5,
          save: 5,
          initiative: 5,
          courage: 5,
          wounds: 1,
          weapons: [
            { name: 'Bow', attacks: 1, copies: 1, ap: 1, melee: false, short: 12, long: 24 },
            { name: 'Long Spear', attacks: 1, copies: 1, ap: 1, melee: true, short: 0, long: 0 },
          ],
        },
      ],
    },
  ],
  [
    ORC_WARRIORS,
    {
      reference: ORC_WARRIORS,
      name: 'Orc Warriors',
      models: [
        {
          name: 'Orc Warrior',
          count: 10,
          hasCharacteristics: true,
          movement: 6,
          accuracy: 5,
          strength: 6,
          save: 5,
          initiative: 5,
          courage: 5,
          wounds: 1,
          weapons: [{ name: 'Heavy Hand Weapon', attacks: 1, copies: 2, ap: 2, melee: true, short: 0, long: 0 }],
        },
      ],
    },
  ],
]);

/** 10 Men-at-arms (shoot, then charge) and 10 Orc warriors (charge and fight), 18" apart, six rounds. */
export const battleforgeBenchScenario: Scenario = scenarioSchema.parse({
  ruleset: 'battleforge',
  name: 'bench: 10 men-at-arms vs 10 orc warriors, six rounds, shoot then charge',
  rounds: 6,
  distance: 18,
  sides: [
    { name: 'Humans', plan: 'shoot-then-charge', units: [{ id: 'men', unit: MEN_AT_ARMS, models: 10 }] },
    { name: 'Orcs', plan: 'charge-and-fight', units: [{ id: 'orcs', unit: ORC_WARRIORS, models: 10 }] },
  ],
});

/** Per die (method `dice`), as every engine row of the bench rolls (bench/README.md). */
export function compileBattleforgeBench(): Kernel {
  return compileBattleforge(battleforgeBenchScenario, battleforgeBenchProfiles, new Map(), 'dice');
}
