import { DEFAULT_DRAW_METHOD, type DrawMethod, type Kernel } from '../engine/kernel.js';
import { loadedKernelModule, loadKernelModule, platform } from '../input/platform.js';
import type { LoadedScenario } from '../input/scenario-file.js';

/**
 * What a worker thread needs to build a kernel: the rule system's kernel module, the validated
 * scenario and what it refers to (units, army entries), as JSON. The JSON crosses to workers as one
 * string (a copy, no object graph to clone) with every shard, and its SHA-256 `digest` names the
 * run's inputs: workers cache the compiled kernel under it, and a checkpoint records it to refuse
 * being resumed with another scenario, other units, other rule knobs or other plugin code. It hashes
 * the parsed content, not the file bytes, so editing a comment does not orphan a checkpoint, while
 * any change that can alter a result does. The kernel module's location is left out of the digest:
 * moving the repository does not change a result.
 */
export interface KernelSpec {
  readonly ruleset: string;
  readonly version: string;
  /** A plugin's code hash (engine/rule-system.ts): other code, other digest. */
  readonly codeHash?: string;
  readonly scenario: unknown;
  readonly refs: unknown;
  /** Dice rolled one by one, or each action's outcome drawn from its exact table (the default). */
  readonly method: DrawMethod;
  /** URL of the module exporting `compile` (RuleSystem.kernelModule): Node imports it, the workbench finds its kernel by `ruleset`. */
  readonly kernelModule: string;
}

/** The spec of a loaded scenario, drawn with `method` (DEFAULT_DRAW_METHOD unless asked: `--method mc-dice`). */
export function kernelSpecOf(loaded: LoadedScenario, method: DrawMethod = DEFAULT_DRAW_METHOD): KernelSpec {
  return {
    ruleset: loaded.system.id,
    version: loaded.system.version,
    ...(loaded.plugin === undefined ? {} : { codeHash: loaded.plugin.codeHash }),
    scenario: loaded.scenario,
    refs: loaded.refs,
    method,
    kernelModule: loaded.system.kernelModule,
  };
}

export interface SerializedKernelSpec {
  readonly json: string;
  /** SHA-256 of `json` without the kernel module's location, hex. */
  readonly digest: string;
}

export function serializeKernelSpec(spec: KernelSpec): SerializedKernelSpec {
  const { kernelModule, ...content } = spec;
  return { json: JSON.stringify(spec), digest: platform().sha256(JSON.stringify(content)) };
}

/**
 * The kernel of a spec, on a thread that has loaded its rule system (loading a scenario does; a
 * worker calls `compileKernelSpec`). The spec is not validated again: it was made from a scenario
 * that already passed validation.
 */
export function compileSpec(spec: KernelSpec): Kernel {
  const module = loadedKernelModule(spec.ruleset, spec.kernelModule);
  if (module === undefined)
    throw new Error(`the kernel module of rule system ${spec.ruleset} is not loaded on this thread (loading its scenario loads it)`);
  return module.compile(spec.scenario, spec.refs, spec.method);
}

/** Rebuild the kernel from `serializeKernelSpec(…).json` (in a worker: imports only the kernel module). */
export async function compileKernelSpec(json: string): Promise<Kernel> {
  const spec = JSON.parse(json) as KernelSpec;
  const module = await loadKernelModule(spec.ruleset, spec.kernelModule);
  return module.compile(spec.scenario, spec.refs, spec.method);
}
