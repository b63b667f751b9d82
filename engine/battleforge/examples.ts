import { defineExamples } from '../rule-system-examples.js';
import * as battleforge from './schema.js';

/** The Battle Forge rule system's samples for the shared suites and its README's field tables (engine/rule-system-examples.ts). */
export default defineExamples({
  folder: new URL('../../data/battleforge/', import.meta.url).href,
  scenarios: 'scenarios',
  contract: {
    // Ten Bowmen's one volley at long range (`mode: attack`): 1,474 paths. Chain: powers, Overwatch, six rounds.
    action: { file: 'scenarios/bowmen-hold-vs-orc-charge.yaml', set: [['mode', 'attack']] },
    chain: { file: 'scenarios/battlemage-vs-orc-warriors.yaml' },
    traces: true,
  },
  sample: {
    scenario: 'scenarios/battlemage-vs-orc-warriors.yaml',
    dataFiles: ['index.yaml', 'factions/human_kingdoms.yaml', 'factions/orcs_and_goblins.yaml'],
  },
  fuzz: {
    keys: ['models', 'shock', 'rallyAt', 'bid', 'powers', 'position', 'rounds', 'mode', 'units', 'cover', 'count', 'attacks'],
    patches: [
      ['sides', 1, 'units', 0, 'models'],
      ['sides', 0, 'units', 1, 'models'],
      ['units', 'orcs_and_goblins/orc_warriors', 'models', 'Orc Warrior', 'wounds'],
      ['units', 'orcs_and_goblins/orc_warriors', 'models', 'Orc Warrior', 'count'],
      ['units', 'human_kingdoms/battle_mage', 'powerSlots'],
      ['sides', 0, 'units', 0, 'shock'],
      ['sides', 0, 'bid'],
      ['sides', 1, 'rallyAt'],
      ['rules', 'woundsPerHit'],
      ['rules', 'actionsPerActivation'],
      ['distance'],
      ['rounds'],
    ],
    cases: 80,
    regressions: [
      // Accepted (10,000 dice, at MAX_DICE_PER_ACTION), but table draws build a binomial table in O(n²) for each new pool size.
      {
        title: 'Bowmen and Orc Warriors of 10,000 models',
        set: [
          [['sides', 0, 'units', 1, 'models'], 10_000],
          [['sides', 1, 'units', 0, 'models'], 10_000],
        ],
      },
      // Accepted (no bound), and Shock is removed by one Courage test per point: a trial takes seconds per 1e8.
      { title: 'a Battlemage starting with 100,000,000 Shock', set: [[['sides', 0, 'units', 0, 'shock'], 1e8]] },
    ],
  },
  choices: { always: ['sides[].units[].unit'], maybe: ['sides[].units[].powers[]'] },
  docs: {
    source: 'schema.ts',
    reference: '`<faction>/<unit id>`',
    tables: [
      { key: 'scenario', schema: battleforge.scenarioSchema },
      { key: 'side', schema: battleforge.sideSchema },
      { key: 'reactions', schema: battleforge.reactionsSchema, noun: 'reactions', plural: 'reactions' },
      { key: 'unit', schema: battleforge.scenarioUnitSchema },
      { key: 'options', schema: battleforge.optionsSchema, noun: 'options', plural: 'options' },
      { key: 'rules', schema: battleforge.rulesSchema, noun: 'rules', plural: 'rules' },
    ],
  },
});
