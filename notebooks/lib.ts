import { availableParallelism } from 'node:os';
import path from 'node:path';
import {
  BUNDLED_DATA,
  type ExactScenarioResult,
  fieldLabel,
  type LoadedScenario,
  type ScenarioResult,
  ShardPool,
  type SweepPoint,
} from '../index.js';
import type { Provenance, SweepLinePoint } from '../reports.js';

/**
 * What every notebook shares: where files are, one worker pool, and the notes a report page
 * carries. The notebooks use crucible's public API only (../index.js and ../reports.js are the
 * package's entry points crucible-lab and crucible-lab/reports), so each runs as well from an
 * installed package (notebooks/README.md).
 */

/** Where the pages go: out/ in the current directory (the repository's, under npm start: outside its source folders). */
export const reportsDirectory = path.resolve('out');
/** A bundled data file, `bundled('heroic/scenarios/x.yaml')`, wherever crucible is installed. */
export const bundled = (file: string): string => path.join(BUNDLED_DATA, file);
/** A bundled file as pages name it: relative to crucible's folder (data/heroic/…), the same in a clone and an installation. */
export const shownPath = (file: string): string => path.relative(path.dirname(BUNDLED_DATA), file);

/** Run `work` on one worker pool (one per core), closed afterwards. */
export async function withPool<T>(work: (pool: ShardPool) => Promise<T>): Promise<T> {
  const pool = new ShardPool(availableParallelism());
  try {
    return await work(pool);
  } finally {
    await pool.close(false);
  }
}

/** A result's provenance line: scenario, file (shownPath), rule system, engine, and its seed and trials (or the paths an exact one enumerated). */
export function provenanceOf(result: ScenarioResult | ExactScenarioResult): Provenance {
  const run = { scenario: result.scenario, file: shownPath(result.file), ruleset: result.ruleset, engineVersion: result.engineVersion };
  return 'paths' in result
    ? { ...run, exact: { paths: result.paths, errorBound: result.errorBound } }
    : { ...run, seed: result.seed, trials: result.trials };
}

/** A sweep point's Monte Carlo result (the notebooks ask for trials, so no point is answered exactly). */
export function sampled(point: SweepPoint): ScenarioResult {
  if (point.method === 'exact')
    throw new Error(`the point ${JSON.stringify(point.values)} was answered exactly; the notebook expects Monte Carlo`);
  return point.result;
}

/** The readings in force: the scenario's options, as one methods note (empty when it sets none). */
export function optionsOf(loaded: LoadedScenario): string[] {
  const options = (loaded.scenario as { options?: Record<string, unknown> }).options ?? {};
  const pairs = Object.entries(options).map(([name, value]) => `${name} = ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  return pairs.length === 0
    ? []
    : [
        `Readings in force (${loaded.system.id} options, engine/${loaded.system.id}/README.md; rulings in docs/rulings.md): ${pairs.join('; ')}.`,
      ];
}

/**
 * One measure of a sweep as chart points: a count metric's mean ('mean') or the chance of one of
 * its labels ('yes' for a flag), against the first swept value (and the second as the series).
 */
export function sweepLine(points: readonly SweepPoint[], metric: string, value: 'mean' | string): SweepLinePoint[] {
  return points.map((point) => {
    const summary = point.result.summary.find((candidate) => candidate.name === metric);
    if (summary === undefined) throw new RangeError(`the sweep has no metric ${JSON.stringify(metric)}`);
    const entry =
      value === 'mean' ? undefined : summary.distribution.find((candidate) => (candidate.label ?? String(candidate.value)) === value);
    if (value !== 'mean' && entry === undefined) throw new RangeError(`${metric} has no value ${JSON.stringify(value)}`);
    const [x, series] = point.values;
    return {
      x: typeof x === 'number' ? x : String(x),
      ...(point.values.length > 1 ? { series: String(series) } : {}),
      estimate: entry === undefined ? summary.mean : entry.probability,
      low: entry === undefined ? summary.meanInterval.low : entry.interval.low,
      high: entry === undefined ? summary.meanInterval.high : entry.interval.high,
      ...(point.method === 'exact' ? {} : { trials: point.result.trials }),
    };
  });
}

/** A swept field in words (input/field-labels.ts): "Blackrazor Soldiers › blackrazors (Blackrazor Soldier): models". */
export function fieldWords(loaded: LoadedScenario, path: string): string {
  return fieldLabel(loaded, path).label;
}

/**
 * A sweep's provenance: its runs as one line (each point is the same scenario file with a field
 * set, so its name does not change with the swept value — the line says what was swept instead).
 */
export function sweepProvenance(points: readonly SweepPoint[], swept: string): Provenance[] {
  return points.map((point) => ({ ...provenanceOf(point.result), variant: swept }));
}
