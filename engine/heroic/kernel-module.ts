import type { DrawMethod } from '../kernel.js';
import type { KernelModule } from '../rule-system.js';
import { compileScenario } from './compile.js';
import { HeroicKernel } from './kernel.js';
import type { HeroicRefs } from './load.js';
import type { Scenario } from './schema.js';

/** The heroic kernel, as worker threads build it (this module loads no zod: see rule-system.ts). */
export function compile(scenario: Scenario, refs: HeroicRefs, method: DrawMethod): HeroicKernel {
  return new HeroicKernel(compileScenario(scenario, refs.units, method));
}

export const heroicKernelModule: KernelModule<Scenario, HeroicRefs> = { compile };
