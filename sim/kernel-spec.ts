import { createHash } from 'node:crypto';
import { compileScenario } from '../engine/heroic/compile.js';
import { HeroicKernel } from '../engine/heroic/kernel.js';
import type { Scenario, Unit } from '../engine/heroic/schema.js';
import type { Kernel } from '../engine/kernel.js';

/**
 * What a worker thread needs to build a kernel: the validated scenario and its units, as JSON. The
 * JSON crosses to workers as one string (a copy, no object graph to clone) with every shard, and
 * its SHA-256 `digest` names the scenario: workers cache the compiled kernel under it, and a
 * checkpoint records it to refuse being resumed with another scenario or units file. It hashes
 * the parsed content, not the file bytes, so editing a comment does not orphan a checkpoint,
 * while any change that can alter a result (a profile in the units file included) does.
 */
export interface KernelSpec {
  readonly ruleset: 'heroic';
  readonly scenario: Scenario;
  readonly units: readonly Unit[];
}

export interface SerializedKernelSpec {
  readonly json: string;
  /** SHA-256 of `json`, hex. */
  readonly digest: string;
}

export function serializeKernelSpec(spec: KernelSpec): SerializedKernelSpec {
  const json = JSON.stringify(spec);
  return { json, digest: createHash('sha256').update(json).digest('hex') };
}

/**
 * Rebuild the kernel from `serializeKernelSpec(…).json`: what `compileHeroic` does, imported from
 * its two modules rather than engine/heroic/index.ts, because the index also loads the zod
 * schemas, which cost a worker ~0.3 s to start. The JSON is not validated again: it was made in
 * this process from a scenario that already passed validation.
 */
export function compileKernelSpec(json: string): Kernel {
  const spec = JSON.parse(json) as KernelSpec;
  return new HeroicKernel(compileScenario(spec.scenario, spec.units));
}
