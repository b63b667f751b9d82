import { defineRuleSystem } from '../../engine/rule-system.js';
import { HOMEBREW_ENGINE_VERSION } from './kernel.js';
import { type HomebrewRefs, loadHomebrew, readUnits } from './load.js';
import { rulesSchema, type Scenario, scenarioSchema, unitsFileSchema } from './schema.js';
import { formatHomebrewTrace, type HomebrewTraceEvent } from './trace.js';

export { pointsBreakdown, pointsPerModel } from './points.js';
export type { HomebrewRefs } from './load.js';
export type { HomebrewTraceEvent } from './trace.js';
export * from './schema.js';

/**
 * A homebrew rule system as a crucible plugin (the tutorial: README.md beside this file). A scenario
 * names it by path — `ruleset: ../index.ts` — and crucible loads this module's default export.
 * The kernel lives in kernel.ts, which workers import on their own: this file and schema.ts (zod)
 * stay on the main thread.
 */
const homebrew = defineRuleSystem<Scenario, HomebrewRefs, HomebrewTraceEvent>({
  id: 'homebrew',
  version: HOMEBREW_ENGINE_VERSION,
  title: 'Homebrew skirmish: hit, wound, save and damage rolls (a plugin example)',
  scenarioSchema,
  rulesSchema,
  dataSchemas: [{ name: 'homebrew-units.schema.json', title: 'crucible homebrew units', schema: unitsFileSchema }],
  // How a units file is checked on its own: `crucible validate units.yaml --plugin …` (see the tutorial's "validate").
  dataFile: { names: /^units\.(ya?ml|json)$/i, check: async (file, files) => (await readUnits(files, file)).problems },
  load: loadHomebrew,
  kernelModule: import.meta.resolve('./kernel.js'),
  formatTrace: formatHomebrewTrace,
  mode: (scenario) => scenario.mode,
  sides: (scenario) => [scenario.sides[0].name, scenario.sides[1].name],
});
export default homebrew;
