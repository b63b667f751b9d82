import { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel } from '../kernel.js';
import { defineRuleSystem, schemaCheck } from '../rule-system.js';
import { epicChoices } from './choices.js';
import { ARMIES_FILE_NAMES } from './data-files.js';
import { compileScenario } from './compile.js';
import { EPIC_ENGINE_VERSION, EpicKernel } from './kernel.js';
import { checkEpicRefs, type EpicRefs, loadEpic } from './load.js';
import { type EpicTraceEvent, formatEpicTrace } from './trace.js';
import { type Army, armiesFileSchema, rulesSchema, type Scenario, scenarioSchema } from './schema.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { EPIC_ENGINE_VERSION } from './kernel.js';
export type { EpicRefs } from './load.js';
export * from './schema.js';

/**
 * Epic Armageddon's End-phase rallies and Blast markers, as engine/registry.ts lists them. Its
 * scenarios have players rather than two sides to win (no `sides`): matchups and balance do not apply.
 */
export const epic = defineRuleSystem<Scenario, EpicRefs, EpicTraceEvent>({
  id: 'epic',
  version: EPIC_ENGINE_VERSION,
  title: 'Epic Armageddon rallies and Blast markers',
  scenarioSchema,
  rulesSchema,
  dataSchemas: [{ name: 'epic-armies.schema.json', title: 'crucible epic armies', schema: armiesFileSchema }],
  dataFile: { kind: 'armies file', names: ARMIES_FILE_NAMES, schema: armiesFileSchema, check: schemaCheck(armiesFileSchema) },
  load: loadEpic,
  checkRefs: checkEpicRefs,
  kernelModule: import.meta.resolve('./kernel-module.js'),
  formatTrace: formatEpicTrace,
  choices: epicChoices,
});
export default epic;

/** Compile a validated Epic scenario; `armies` holds the armies file's entries by id. */
export function compileEpic(scenario: Scenario, armies: ReadonlyMap<string, Army>, method: DrawMethod = DEFAULT_DRAW_METHOD): Kernel {
  return new EpicKernel(compileScenario(scenario, armies, method));
}
