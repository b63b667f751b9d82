import type { MetricSpec } from '../engine/kernel.js';
import type { MonteCarloMethod } from './methods.js';
import type { ResumePoint, RunSnapshot } from './sharded-run.js';

/** What must match for a checkpoint to be resumed: the same inputs give the same shards. */
export interface RunIdentity {
  readonly scenarioName: string;
  /** `SerializedKernelSpec.digest`: the scenario and units as parsed. */
  readonly scenarioDigest: string;
  readonly engineVersion: string;
  readonly seed: number;
  readonly plan: RunPlanIdentity;
  /** Outcomes drawn from tables (`mc`) or every die rolled (`mc-dice`): other random numbers. */
  readonly method: MonteCarloMethod;
  /** A plugin rule system's id, version and code hash (input/rule-systems.ts): other code, other rules. */
  readonly plugin?: PluginIdentity;
}

export interface PluginIdentity {
  readonly id: string;
  readonly version: string;
  readonly codeHash: string;
}

export type RunPlanIdentity = { readonly trials: number } | { readonly precision: number; readonly maxTrials: number };

/**
 * Where a run's checkpoint is kept (`crucible run --checkpoint <file>`: sim/checkpoint.ts
 * `checkpointFile`). runScenario reads it before the first shard and rewrites it as shards complete;
 * it is a port so that the run pipeline itself reads and writes no files (the workbench runs it too).
 */
export interface CheckpointStore {
  /** The shards this run already completed, or undefined when there are none (a checkpoint of another run is an error). */
  load(identity: RunIdentity, metrics: readonly MetricSpec[]): Promise<ResumePoint | undefined>;
  save(identity: RunIdentity, snapshot: RunSnapshot): Promise<void>;
}
