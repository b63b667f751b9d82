import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { ScenarioResult } from '../analysis/run.js';
import type { LoadedScenario } from '../sim/scenario-file.js';
import { ShardPool } from '../sim/shard-pool.js';
import type { Provenance } from '../reports/page.js';

/** What every notebook shares: where files are, one worker pool, and the notes a report page carries. */
export const repository = path.join(import.meta.dirname, '..');
export const reportsDirectory = path.join(repository, 'reports');
export const fromRepository = (file: string): string => path.join(repository, file);

/** Run `work` on one worker pool (one per core), closed afterwards. */
export async function withPool<T>(work: (pool: ShardPool) => Promise<T>): Promise<T> {
  const pool = new ShardPool(availableParallelism());
  try {
    return await work(pool);
  } finally {
    await pool.close(false);
  }
}

/** A result's provenance line: scenario, file (relative to the repository), ruleset, engine, seed, trials. */
export function provenanceOf(result: ScenarioResult): Provenance {
  return {
    scenario: result.scenario,
    file: path.relative(repository, result.file),
    ruleset: result.ruleset,
    engineVersion: result.engineVersion,
    seed: result.seed,
    trials: result.trials,
  };
}

/** The readings in force: the scenario's options as `name = value`, for the methods note. */
export function optionsOf(loaded: LoadedScenario): string[] {
  const options = (loaded.scenario as { options?: Record<string, unknown> }).options ?? {};
  return Object.entries(options).map(([name, value]) => `${loaded.ruleset} option ${name} = ${JSON.stringify(value)} (default reading unless the scenario sets it; see engine/${loaded.ruleset}/README.md)`);
}

/** Percent with one decimal. */
export const percent = (value: number): string => `${(value * 100).toFixed(1)}%`;
