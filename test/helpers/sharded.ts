import { ShardPool } from '../../sim/shard-pool.js';
import { compileHeroic } from '../../engine/heroic/index.js';
import type { Kernel } from '../../engine/kernel.js';
import { kernelSpecOf, type SerializedKernelSpec, serializeKernelSpec } from '../../sim/kernel-spec.js';
import { loadHeroicScenarioFile } from './heroic-scenario.js';

/** The bundled Knights-vs-Ogre engagement, as the sharded runner takes it. */
export const ENGAGEMENT_FILE = new URL('../../data/heroic/scenarios/knights-vs-regenerating-ogre.yaml', import.meta.url).pathname;

export interface ShardedFixture {
  readonly kernel: Kernel;
  readonly spec: SerializedKernelSpec;
}

export async function engagementFixture(): Promise<ShardedFixture> {
  const loaded = await loadHeroicScenarioFile(ENGAGEMENT_FILE);
  return { kernel: compileHeroic(loaded.scenario, loaded.units, 'tables'), spec: serializeKernelSpec(kernelSpecOf(loaded, 'tables')) };
}

/** The bytes of a tally's cells: "byte-identical" compared literally. */
export const cellBytes = (cells: Float64Array): Buffer => Buffer.from(cells.buffer, cells.byteOffset, cells.byteLength);

/** One pool per size, shared by a test file: a pool survives its workers' faults, and starting one costs ~0.3 s a worker. */
export function poolCache(): { pool: (workers: number) => ShardPool; closeAll: () => Promise<void> } {
  const pools = new Map<number, ShardPool>();
  return {
    pool: (workers) => {
      const existing = pools.get(workers) ?? new ShardPool(workers);
      pools.set(workers, existing);
      return existing;
    },
    closeAll: async () => {
      await Promise.all([...pools.values()].map((created) => created.close(true)));
    },
  };
}
