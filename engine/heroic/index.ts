import type { DrawMethod, Kernel } from '../kernel.js';
import { compileScenario } from './compile.js';
import { HeroicKernel } from './kernel.js';
import type { Scenario, Unit } from './schema.js';

export { type CompiledScenario, compileScenario } from './compile.js';
export { HEROIC_ENGINE_VERSION } from './kernel.js';
export * from './schema.js';

/** Compile a validated heroic scenario into a kernel (validate.ts reports what makes one invalid). */
export function compileHeroic(scenario: Scenario, units: readonly Unit[], method: DrawMethod = 'dice'): Kernel {
  return new HeroicKernel(compileScenario(scenario, units, method));
}
