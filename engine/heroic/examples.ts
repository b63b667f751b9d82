import { defineExamples } from '../rule-system-examples.js';
import * as heroic from './schema.js';

/** The heroic rule system's samples for the shared suites and its README's field tables (engine/rule-system-examples.ts). */
export default defineExamples({
  folder: new URL('../../data/heroic/', import.meta.url).href,
  scenarios: 'scenarios',
  contract: {
    // A goblin's WILL test (a die drawn even with tables) before charging a formation: 12 paths.
    action: { file: 'scenarios/goblin-charges-formation.yaml' },
    chain: { file: 'scenarios/knights-vs-regenerating-ogre.yaml' },
    traces: true,
  },
  sample: { scenario: 'scenarios/knights-vs-regenerating-ogre.yaml', dataFiles: ['units.yaml'] },
  fuzz: {
    keys: [
      'models',
      'formation',
      'cards',
      'frontRank',
      'target',
      'split',
      'area',
      'heal',
      'woundsTaken',
      'charging',
      'weapon',
      'exhausted',
      'mode',
      'rounds',
      'units',
      'might',
      'atk',
    ],
    patches: [
      ['sides', 0, 'groups', 0, 'models'],
      ['sides', 1, 'groups', 0, 'models'],
      ['sides', 1, 'groups', 0, 'woundsTaken'],
      ['sides', 0, 'groups', 0, 'heal', 'wounds'],
      ['units', 'ogre-regenerating', 'might'],
      ['units', 'sylvan-knight', 'def'],
      ['units', 'new-unit', 'might'],
      ['rounds'],
      ['rules', 'regenerationHeal'],
      ['rules', 'criticalBonus'],
      ['rules', 'shieldWounds'],
      ['rules', 'formationMinimum'],
    ],
    cases: 100,
    regressions: [],
  },
  choices: { always: ['sides[].groups[].unit'], maybe: [] },
  docs: {
    source: 'schema.ts',
    tables: [
      { key: 'units file', schema: heroic.unitsFileSchema },
      { key: 'unit', schema: heroic.unitSchema },
      { key: 'weapon set', schema: heroic.weaponSetSchema },
      { key: 'scenario', schema: heroic.scenarioSchema },
      { key: 'side', schema: heroic.sideSchema },
      { key: 'group', schema: heroic.groupSchema },
      { key: 'split', schema: heroic.splitSchema, noun: 'split entry', plural: 'split entries' },
      { key: 'area', schema: heroic.areaSchema, noun: 'area entry', plural: 'area entries' },
      { key: 'heal', schema: heroic.healSchema, noun: 'heal entry', plural: 'heal entries' },
      { key: 'options', schema: heroic.optionsSchema, noun: 'options', plural: 'options' },
      { key: 'rules', schema: heroic.rulesSchema, noun: 'rules', plural: 'rules' },
    ],
  },
});
