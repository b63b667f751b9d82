import { defineExamples } from '../rule-system-examples.js';
import * as warmaster from './schema.js';
import { combatFlagsSchema } from './units.js';

/** The Warmaster rule system's samples for the shared suites and its README's field tables (engine/rule-system-examples.ts). */
export default defineExamples({
  folder: new URL('../../data/warmaster/', import.meta.url).href,
  scenarios: 'scenarios',
  contract: {
    // One round of a supported charge, `maxRounds: 1`: 2,719 paths.
    action: { file: 'scenarios/knights-charge-supported-orcs-first-round.yaml' },
    chain: { file: 'scenarios/knights-charge-supported-orcs.yaml' },
    traces: true,
  },
  sample: { scenario: 'scenarios/knights-charge-supported-orcs.yaml', dataFiles: ['armies/empire.yaml', 'armies/orcs.yaml'] },
  fuzz: {
    keys: [
      'stands',
      'hits',
      'supports',
      'characters',
      'flags',
      'maxRounds',
      'maxTurns',
      'attacks',
      'reserve',
      'retreatBlocked',
      'shootsAtChargers',
      'unitSize',
    ],
    patches: [
      ['units', 'orcs/orc-warriors', 'attacks'],
      ['units', 'empire/knights', 'attacks'],
      ['units', 'empire/knights', 'unitSize'],
      ['units', 'orcs/orc-warriors', 'hits'],
      ['units', 'orcs/new-unit', 'attacks'],
      ['sides', 0, 'units', 0, 'stands'],
      ['sides', 1, 'units', 1, 'supports'],
      ['sides', 0, 'units', 0, 'contact', 'front'],
      ['sides', 1, 'units', 0, 'shootsAtChargers', 'attacks'],
      ['rules', 'fallBackDice'],
      ['rules', 'chargeBonusD6Dice'],
      ['rules', 'pursuitStepBonus'],
      ['maxRounds'],
      ['maxTurns'],
    ],
    cases: 120,
    // A unit's Hits have no upper bound: 2³¹ wraps the kernel's Int32 state (a RangeError in the tally); 1e9 exhausts memory.
    regressions: [{ title: 'Orc Warriors of 2³¹ Hits a stand', set: [[['units', 'orcs/orc-warriors', 'hits'], 2 ** 31]] }],
  },
  choices: { always: ['sides[].units[].unit', 'sides[].units[].characters[]'], maybe: [] },
  docs: {
    source: 'schema.ts',
    reference: '`<army>/<unit id>`',
    tables: [
      { key: 'scenario', schema: warmaster.scenarioSchema },
      { key: 'side', schema: warmaster.sideSchema },
      { key: 'unit', schema: warmaster.scenarioUnitSchema },
      { key: 'contact', schema: warmaster.contactSchema },
      { key: 'shooting at chargers', schema: warmaster.shootingSchema },
      { key: 'blocked retreat', schema: warmaster.blockedRetreatSchema },
      { key: 'combat flags', schema: combatFlagsSchema, noun: 'combat flags', plural: 'combat flags' },
      { key: 'options', schema: warmaster.optionsSchema, noun: 'options', plural: 'options' },
      { key: 'rules', schema: warmaster.rulesSchema, noun: 'rules', plural: 'rules' },
    ],
  },
});
