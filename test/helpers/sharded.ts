import { compileHeroic } from '../../engine/heroic/index.js';
import type { Kernel } from '../../engine/kernel.js';
import { type SerializedKernelSpec, serializeKernelSpec } from '../../sim/kernel-spec.js';
import { loadScenarioFile } from '../../sim/scenario-file.js';

/** The bundled Knights-vs-Ogre engagement, as the sharded runner takes it. */
export const ENGAGEMENT_FILE = new URL('../../data/heroic/scenarios/knights-vs-regenerating-ogre.yaml', import.meta.url).pathname;

export interface ShardedFixture {
  readonly kernel: Kernel;
  readonly spec: SerializedKernelSpec;
}

export async function engagementFixture(): Promise<ShardedFixture> {
  const { scenario, units } = await loadScenarioFile(ENGAGEMENT_FILE);
  return { kernel: compileHeroic(scenario, units), spec: serializeKernelSpec({ ruleset: 'heroic', scenario, units }) };
}

/** The bytes of a tally's cells: "byte-identical" compared literally. */
export const cellBytes = (cells: Float64Array): Buffer => Buffer.from(cells.buffer, cells.byteOffset, cells.byteLength);
