import { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel } from '../kernel.js';
import { defineRuleSystem } from '../rule-system.js';
import { heroicChoices } from './choices.js';
import { UNITS_FILE_NAMES } from './data-files.js';
import { compileScenario } from './compile.js';
import { HEROIC_ENGINE_VERSION, HeroicKernel } from './kernel.js';
import { checkHeroicRefs, type HeroicRefs, loadHeroic, readUnits } from './load.js';
import { rulesSchema, type Scenario, scenarioSchema, type Unit, unitsFileSchema, upgradeHeroicScenario } from './schema.js';
import { formatHeroicTrace, type HeroicTraceEvent } from './trace.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { HEROIC_ENGINE_VERSION } from './kernel.js';
export type { HeroicRefs } from './load.js';
export * from './schema.js';

/** The heroic rule system (Attack Action + Dynamic Formations), as engine/registry.ts lists it. */
export const heroic = defineRuleSystem<Scenario, HeroicRefs, HeroicTraceEvent>({
  id: 'heroic',
  version: HEROIC_ENGINE_VERSION,
  title: 'Attack Action and Dynamic Formations',
  scenarioSchema,
  rulesSchema,
  dataSchemas: [{ name: 'heroic-units.schema.json', title: 'crucible heroic units', schema: unitsFileSchema }],
  upgrade: upgradeHeroicScenario,
  dataFile: {
    kind: 'units file',
    names: UNITS_FILE_NAMES,
    schema: unitsFileSchema,
    check: async (file, files) => (await readUnits(files, file)).problems,
  },
  load: loadHeroic,
  checkRefs: checkHeroicRefs,
  kernelModule: import.meta.resolve('./kernel-module.js'),
  formatTrace: formatHeroicTrace,
  mode: (scenario) => scenario.mode,
  sides: (scenario) => [scenario.sides[0]?.name ?? '', scenario.sides[1]?.name ?? ''],
  choices: heroicChoices,
});
export default heroic;

/** Compile a validated heroic scenario into a kernel (validate.ts reports what makes one invalid). */
export function compileHeroic(scenario: Scenario, units: readonly Unit[], method: DrawMethod = DEFAULT_DRAW_METHOD): Kernel {
  return new HeroicKernel(compileScenario(scenario, units, method));
}
