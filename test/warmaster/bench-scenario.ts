import type { DrawMethod, Kernel } from '../../engine/kernel.js';
import { compileWarmaster } from '../../engine/warmaster/index.js';
import { type Scenario, scenarioSchema } from '../../engine/warmaster/schema.js';
import { troopSchema, type WarmasterUnit } from '../../engine/warmaster/units.js';

/**
 * The Warmaster bench scenario as engine input, and the same object for test/warmaster/naive.ts.
 * The two army-list entries are written inline (as data/warmaster/armies has them today), not read
 * from data/, so the bench measures exactly what it says whatever the data files become.
 */

export const warmasterBenchUnits: ReadonlyMap<string, WarmasterUnit> = new Map<string, WarmasterUnit>([
  [
    'empire/knights',
    troopSchema.parse({
      id: 'knights',
      name: 'Knights',
      kind: 'troop',
      type: 'cavalry',
      attacks: 3,
      hits: 3,
      armour: 4,
      unitSize: 3,
      points: 110,
      min: null,
      max: null,
      specialRules: [],
    }),
  ],
  [
    'orcs/orc-warriors',
    troopSchema.parse({
      id: 'orc-warriors',
      name: 'Orc Warriors',
      kind: 'troop',
      type: 'infantry',
      attacks: 4,
      hits: 3,
      armour: 6,
      unitSize: 3,
      points: 60,
      min: 2,
      max: null,
      specialRules: [],
    }),
  ],
]);

/**
 * 3 stands of Empire Knights charge 3 stands of Orc Warriors in the open, every stand in front
 * contact on both sides, fought to its end (pursuit policy `pursue`, up to 6 turns).
 */
export const warmasterBenchScenario: Scenario = scenarioSchema.parse({
  ruleset: 'warmaster',
  name: 'bench: knights charge orc warriors',
  maxTurns: 6,
  sides: [
    {
      name: 'Empire',
      policy: 'pursue',
      units: [{ id: 'knights', unit: 'empire/knights', charging: true, contact: { front: 3 } }],
    },
    {
      name: 'Orcs',
      policy: 'pursue',
      units: [{ id: 'warriors', unit: 'orcs/orc-warriors', contact: { front: 3 } }],
    },
  ],
});

/** `method` 'dice' (per die) unless asked: issue 9's row measures 'tables' beside it. */
export function compileWarmasterBench(method: DrawMethod = 'dice'): Kernel {
  return compileWarmaster(warmasterBenchScenario, warmasterBenchUnits, method);
}
