import { defineExamples } from '../rule-system-examples.js';
import * as epic from './schema.js';

/** The Epic rule system's samples for the shared suites and its README's field tables (engine/rule-system-examples.ts). */
export default defineExamples({
  folder: new URL('../../data/epic/', import.meta.url).href,
  scenarios: 'scenarios',
  contract: {
    // One turn; both players Space Marines, so equal Strategy Ratings make the End phase open with a
    // roll-off — the one place where dice (D6 pairs re-rolled on ties) and tables (a fair coin) draw differently: 7,776 paths.
    action: {
      file: 'scenarios/marines-vs-orks-under-fire.yaml',
      set: [
        ['turns', 1],
        ['players[1].army', 'space-marines'],
      ],
    },
    chain: { file: 'scenarios/marines-vs-orks-under-fire.yaml' },
    traces: true,
  },
  sample: { scenario: 'scenarios/marines-vs-orks-under-fire.yaml', dataFiles: ['armies.yaml'] },
  fuzz: {
    keys: ['markers', 'initiative', 'units', 'turns', 'offTable', 'broken', 'markersPerTurn', 'strategyRating', 'withdrawalCost'],
    patches: [
      ['players', 0, 'formations', 0, 'units'],
      ['players', 0, 'formations', 0, 'markers'],
      ['players', 1, 'formations', 0, 'markersPerTurn'],
      ['players', 1, 'formations', 0, 'markersPerTurn', 0, 'value'],
      ['players', 0, 'formations', 0, 'unitsLostPerTurn', 0, 'value'],
      ['players', 0, 'formations', 0, 'withdrawalCost'],
      ['players', 1, 'formations', 0, 'initiative'],
      ['rules', 'dieSides'],
      ['rules', 'markersPerUnitOnRally'],
      ['turns'],
    ],
    cases: 150,
    // Counts have no upper bound: 2³¹ wraps the kernel's Int32 state (a RangeError in the tally); 1e8 markers a turn make a 3 GB tally.
    regressions: [{ title: 'a withdrawal costing 2³¹ units', set: [[['players', 0, 'formations', 0, 'withdrawalCost'], 2 ** 31]] }],
  },
  choices: { always: ['players[].army'], maybe: [] },
  docs: {
    source: 'schema.ts',
    tables: [
      { key: 'scenario', schema: epic.scenarioSchema },
      { key: 'player', schema: epic.playerSchema },
      { key: 'formation', schema: epic.formationSchema },
      { key: 'options', schema: epic.optionsSchema, noun: 'options', plural: 'options' },
      { key: 'rules', schema: epic.rulesSchema, noun: 'rules', plural: 'rules' },
      { key: 'armies file', schema: epic.armiesFileSchema },
      { key: 'army', schema: epic.armySchema, noun: 'army', plural: 'armies' },
    ],
  },
});
