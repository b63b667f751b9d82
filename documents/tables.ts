import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import type { Interval } from '../statistics/intervals.js';
import type { TableFormat } from './table-formats.js';

export { formatOfFile, TABLE_FORMATS, type TableFormat } from './table-formats.js';

/**
 * Arquero tables (the public API's `tableOf`, `writeTable`), the format an output file's extension
 * asks for, and (documents/table-files.ts) writing a file whole; probabilities the way a rulebook prints them: `62% ±1` (the
 * estimate, and the 95% interval's wider side in percentage points, rounded up). The commands' own
 * tables are documents/table-model.ts.
 */

/** "62% ±1": percent, rounded; ± the interval's wider half-width in points, rounded up (at least 0.1 below 1). */
export function rulebookPercent(probability: number, interval: Interval): string {
  const half = Math.max(probability - interval.low, interval.high - probability) * 100;
  // No margin at all: the number is exact (a mirror pairing's ½).
  if (half === 0) return `${Math.round(probability * 100)}%`;
  // Below a point, one decimal (rounded up); a margin that rounds up to a whole point prints as one (±1, not ±1.0).
  const tenths = Math.ceil(half * 10) / 10;
  const margin = tenths < 1 ? `±${tenths.toFixed(1)}` : `±${Math.ceil(half)}`;
  return `${Math.round(probability * 100)}% ${margin}`;
}

/** A table from plain rows (arquero infers the columns from the first row's keys). */
export function tableOf(rows: readonly Record<string, unknown>[]): ColumnTable {
  return aq.from(rows as object[]);
}

/**
 * A square matrix for printing: one row per `rows` value, one column per `columns` value, each
 * cell `cell(row, column)` (empty where missing).
 */
export function matrixTable(
  rowLabel: string,
  rows: readonly string[],
  columns: readonly string[],
  cell: (row: string, column: string) => string | undefined,
): ColumnTable {
  return aq.from(
    rows.map((row) => {
      const record: Record<string, string> = { [rowLabel]: row };
      for (const column of columns) record[column] = cell(row, column) ?? '';
      return record;
    }),
  );
}

/** An arquero table as CSV (one line a row, no blank line after the last), JSON (its rows), Markdown or HTML. */
export function formatTable(table: ColumnTable, format: TableFormat): string {
  if (format === 'csv') return table.toCSV();
  if (format === 'json') return `${JSON.stringify(table.objects(), null, 2)}\n`;
  if (format === 'html') return `${table.toHTML()}\n`;
  return table.toMarkdown();
}
