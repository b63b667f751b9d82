import { defineExamples } from '../../engine/rule-system-examples.js';
import * as homebrew from './schema.js';

/**
 * What the shared suites and scripts/docs-tables.ts read of a rule system besides its descriptor
 * (engine/rule-system-examples.ts): scenarios to run the kernel contract and the loading fuzz on,
 * and the field tables of README.md. A plugin needs none of it to run; a built-in has one, and
 * this folder copied to engine/homebrew/ with one line in engine/registry.ts passes those suites as
 * it is (test/project/install-rule-system.test.ts).
 */
export default defineExamples({
  folder: new URL('./', import.meta.url).href,
  scenarios: 'scenarios',
  contract: {
    // One attack: 21 paths. Chain: a fight of up to 5 rounds (120,052 paths).
    action: { file: 'scenarios/volley.yaml' },
    chain: { file: 'scenarios/knights-vs-brutes.yaml' },
    traces: true,
  },
  sample: { scenario: 'scenarios/knights-vs-brutes.yaml', dataFiles: ['units.yaml'] },
  fuzz: {
    keys: [
      'unit',
      'models',
      'mode',
      'rounds',
      'units',
      'unitsFile',
      'attacks',
      'hit',
      'wound',
      'save',
      'ap',
      'damage',
      'wounds',
      'rerollHits',
    ],
    patches: [
      ['sides', 0, 'models'],
      ['sides', 1, 'models'],
      ['units', 'knight', 'attacks'],
      ['units', 'brute', 'wounds'],
      ['units', 'brute', 'damage'],
      ['units', 'new-unit', 'attacks'],
      ['rounds'],
      ['rules', 'extraHits'],
      ['rules', 'criticalFace'],
    ],
    cases: 60,
    regressions: [],
  },
  docs: {
    source: 'schema.ts',
    tables: [
      { key: 'scenario', schema: homebrew.scenarioSchema },
      { key: 'side', schema: homebrew.sideSchema },
      { key: 'rules', schema: homebrew.rulesSchema, noun: 'rules', plural: 'rules' },
      { key: 'units file', schema: homebrew.unitsFileSchema },
      { key: 'unit', schema: homebrew.unitSchema },
    ],
  },
});
