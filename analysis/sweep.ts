import type { ColumnTable } from 'arquero';
import { loadScenarioChanged } from '../sim/scenario-file.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { runScenario, type ScenarioResult } from './run.js';
import { tableOf } from './tables.js';

/**
 * A sweep (`crucible sweep`): the scenario run once for every value of one field, or every pair of
 * values of two (`--set sides[0].groups[0].models=3,4,5`), each run checked like the file itself.
 * All runs share one executor (one worker pool).
 */
export interface SweepAxis {
  /** A field path, as errors print them: `sides[0].groups[0].models`. */
  readonly path: string;
  readonly values: readonly unknown[];
}

export interface SweepPoint {
  readonly values: readonly unknown[];
  readonly result: ScenarioResult;
}

export interface SweepOptions {
  readonly seed?: number;
  readonly trials?: number;
  readonly precision?: number;
  readonly executor?: ShardExecutor;
  readonly onPoint?: (done: number, total: number) => void;
}

/** Every combination of the axes' values, the first axis varying slowest. */
export function combinations(axes: readonly SweepAxis[]): unknown[][] {
  return axes.reduce<unknown[][]>((done, axis) => done.flatMap((prefix) => axis.values.map((value) => [...prefix, value])), [[]]);
}

export async function sweep(file: string, axes: readonly SweepAxis[], options: SweepOptions = {}): Promise<SweepPoint[]> {
  const points: SweepPoint[] = [];
  const all = combinations(axes);
  for (const values of all) {
    const loaded = await loadScenarioChanged(file, { fields: axes.map((axis, i) => [axis.path, values[i]] as const) });
    const result = await runScenario(loaded, {
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.trials === undefined ? {} : { trials: options.trials }),
      ...(options.precision === undefined ? {} : { precision: options.precision }),
      ...(options.executor === undefined ? {} : { executor: options.executor }),
    });
    points.push({ values, result });
    options.onPoint?.(points.length, all.length);
  }
  return points;
}

/**
 * The sweep as a tidy table: one row per point, metric and value — the axes' values, the metric,
 * `mean` or the label/value, the estimate and its 95% interval — keeping `metrics` (default all).
 */
export function sweepTable(axes: readonly SweepAxis[], points: readonly SweepPoint[], metrics?: readonly string[]): ColumnTable {
  const rows: Record<string, unknown>[] = [];
  for (const point of points) {
    const head = Object.fromEntries(axes.map((axis, i) => [axis.path, point.values[i]]));
    for (const summary of point.result.summary) {
      if (metrics !== undefined && !metrics.includes(summary.name)) continue;
      if (summary.kind === 'count') {
        rows.push({ ...head, metric: summary.name, value: 'mean', estimate: summary.mean, low: summary.meanInterval.low, high: summary.meanInterval.high, trials: summary.trials });
      } else {
        for (const entry of summary.distribution) {
          if (summary.kind === 'flag' && entry.value === 0) continue;
          rows.push({ ...head, metric: summary.name, value: entry.label ?? String(entry.value), estimate: entry.probability, low: entry.interval.low, high: entry.interval.high, trials: summary.trials });
        }
      }
    }
  }
  return tableOf(rows);
}
