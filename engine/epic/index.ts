import type { DrawMethod, Kernel } from '../kernel.js';
import { compileScenario } from './compile.js';
import { EpicKernel } from './kernel.js';
import type { Army, Scenario } from './schema.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { EPIC_ENGINE_VERSION } from './kernel.js';
export * from './schema.js';

/** Compile a validated Epic scenario; `armies` holds the armies file's entries by id. */
export function compileEpic(scenario: Scenario, armies: ReadonlyMap<string, Army>, method: DrawMethod = 'dice'): Kernel {
  return new EpicKernel(compileScenario(scenario, armies, method));
}
