import { compileHeroic } from '../../engine/heroic/index.js';
import { type Scenario, scenarioSchema, type Unit, unitSchema } from '../../engine/heroic/schema.js';
import type { DrawMethod, Kernel } from '../../engine/kernel.js';
import type { BenchScenarioName } from './naive.js';

/**
 * The bench scenarios as engine input: the same two fights test/heroic/naive.ts hard-codes,
 * written inline (not read from data/) so the bench measures exactly what it says whatever the data
 * files become.
 */

export const benchUnits: readonly Unit[] = [
  unitSchema.parse({
    id: 'sylvan-knight',
    name: 'Sylvan Knight',
    def: 4,
    shield: true,
    might: 2,
    will: 3,
    weapons: [{ name: 'Lance', type: 'melee', atk: 3 }],
  }),
  unitSchema.parse({
    id: 'shielded-target',
    name: 'Shielded Target',
    madeUp: true,
    def: 4,
    shield: true,
    // MIGHT 20: 12 dice rarely roll more, so the metric is (almost) the uncapped pool.
    might: 20,
    will: 3,
    weapons: [{ name: 'Sword', type: 'melee', atk: 1 }],
  }),
  unitSchema.parse({
    id: 'ogre',
    name: 'Ogre',
    def: 3,
    might: 8,
    will: 3,
    regenerates: true,
    weapons: [{ name: 'Club', type: 'melee', atk: 4 }],
  }),
];

/** 4 Knights in formation pool 12 dice into one Attack Action at a DEF 4 (S) model. */
export const pooledAttackScenario: Scenario = scenarioSchema.parse({
  ruleset: 'heroic',
  name: 'bench: pooled 12-die attack',
  mode: 'attack',
  rounds: 1,
  sides: [
    { name: 'Knights', groups: [{ id: 'knights', unit: 'sylvan-knight', models: 4, formation: true }] },
    { name: 'Target', groups: [{ id: 'target', unit: 'shielded-target', models: 1 }] },
  ],
});

/** 3 Knights in formation vs a regenerating Ogre, Knights first, up to 20 rounds. */
export const engagementScenario: Scenario = scenarioSchema.parse({
  ruleset: 'heroic',
  name: 'bench: knights vs regenerating ogre',
  mode: 'engagement',
  rounds: 20,
  sides: [
    { name: 'Knights', groups: [{ id: 'knights', unit: 'sylvan-knight', models: 3, formation: true }] },
    { name: 'Ogre', groups: [{ id: 'ogre', unit: 'ogre', models: 1 }] },
  ],
});

export const benchScenarios: Record<BenchScenarioName, Scenario> = {
  pooled: pooledAttackScenario,
  engagement: engagementScenario,
};

/** `method` 'dice' (per die) unless asked: what every row but issue 9's table rows measures. */
export function compileBenchScenario(name: BenchScenarioName, method: DrawMethod = 'dice'): Kernel {
  return compileHeroic(benchScenarios[name], benchUnits, method);
}
