import type { DrawMethod } from '../engine/kernel.js';
import { runInWorker } from './in-worker.js';
import type { BenchScenario, Implementation, ThroughputResult } from './worker.js';

/** What bench/run.ts and bench/tables.ts share: one throughput row in a fresh worker, and its summary. */

export interface ThroughputSettings {
  readonly warmupSeconds: number;
  readonly repetitions: number;
  readonly repetitionSeconds: number;
}

export interface RateSummary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  /** (max − min) / median. */
  readonly spread: number;
  readonly samples: readonly number[];
}

export interface Measurement {
  readonly scenario: BenchScenario;
  readonly implementation: Implementation;
  /** How the engine kernel drew: per die (`dice`) or from tables; naive and dice-only rows say `dice`, `table` rows `tables`. */
  readonly method: DrawMethod;
  readonly chunkTrials: number;
  readonly trialsPerSecond: RateSummary;
}

export async function measureThroughput(
  scenario: BenchScenario,
  implementation: Implementation,
  settings: ThroughputSettings,
  method: DrawMethod = 'dice',
): Promise<{ measurement: Measurement; engineVersion: string | null }> {
  const result = (await runInWorker({
    kind: 'throughput',
    implementation,
    scenario,
    method,
    warmupSeconds: settings.warmupSeconds,
    repetitions: settings.repetitions,
    repetitionSeconds: settings.repetitionSeconds,
  })) as ThroughputResult;
  const measurement: Measurement = {
    scenario,
    implementation,
    method: implementation === 'table' ? 'tables' : method,
    chunkTrials: result.chunkTrials,
    trialsPerSecond: summarise(result.trialsPerSecond),
  };
  return { measurement, engineVersion: result.engineVersion };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function summarise(samples: readonly number[]): RateSummary {
  const med = median(samples);
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  return samples.length === 0
    ? { median: 0, min: 0, max: 0, spread: 0, samples }
    : { median: med, min, max, spread: med > 0 ? (max - min) / med : 0, samples };
}

export function formatRate(perSecond: number): string {
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(0);
}

export const verdict = (pass: boolean): string => (pass ? 'PASS' : 'MISS');

/** Rows of cells as columns: the first left-aligned, the rest right-aligned. */
export function formatTable(rows: readonly (readonly string[])[]): string[] {
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return rows.map((row) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('   '),
  );
}
