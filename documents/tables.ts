import path from 'pathe';
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { InputError } from '../input/errors.js';
import type { Interval } from '../statistics/intervals.js';

/**
 * Tables of multi-run results (matchups, sweeps, balance, comparisons) as arquero tables, and their
 * export as CSV, JSON or Markdown (to a file: table-files.ts). Probabilities are printed the way a
 * rulebook would: `62% ±1` (the estimate, and the 95% interval's wider side in percentage points,
 * rounded up).
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
export function matrixTable(rowLabel: string, rows: readonly string[], columns: readonly string[], cell: (row: string, column: string) => string | undefined): ColumnTable {
  return aq.from(
    rows.map((row) => {
      const record: Record<string, string> = { [rowLabel]: row };
      for (const column of columns) record[column] = cell(row, column) ?? '';
      return record;
    }),
  );
}

export const TABLE_FORMATS = ['csv', 'json', 'md'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

export function formatTable(table: ColumnTable, format: TableFormat): string {
  if (format === 'csv') return `${table.toCSV()}\n`;
  if (format === 'json') return `${JSON.stringify(table.objects(), null, 2)}\n`;
  return `${table.toMarkdown()}\n`;
}

/** The format an output file's extension asks for (.csv, .json, .md). */
export function formatOfFile(file: string): TableFormat {
  const extension = path.extname(file).toLowerCase().slice(1);
  const format = extension === 'markdown' ? 'md' : extension;
  if (!(TABLE_FORMATS as readonly string[]).includes(format)) {
    throw InputError.at(file, '--out', `cannot tell the table format from ${JSON.stringify(path.extname(file) || '(no extension)')}: use .csv, .json or .md`);
  }
  return format as TableFormat;
}

/**
 * A table for the terminal: columns padded to their widest cell, two spaces apart, under a header
 * and a rule of dashes; a column whose cells are all numbers is right-aligned. What `crucible run`
 * prints is read the same way; Markdown (`--out x.md`) is for pasting.
 */
export function textTable(table: ColumnTable): string {
  const columns = table.columnNames();
  const rows = (table.objects() as Record<string, unknown>[]).map((row) => columns.map((column) => String(row[column] ?? '')));
  const numeric = columns.map((column) => (table.objects() as Record<string, unknown>[]).every((row) => typeof row[column] === 'number' || row[column] === ''));
  const widths = columns.map((column, c) => Math.max(column.length, ...rows.map((row) => (row[c] as string).length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (numeric[c] === true ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number)))
      .join('  ')
      .trimEnd();
  return [line(columns), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** A paragraph broken into lines of at most `width` characters, at spaces (a longer word stands alone). */
export function wrapText(text: string, width = 100, indent = ''): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (current !== '' && current.length + 1 + word.length > width - indent.length) {
      lines.push(indent + current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(indent + current);
  return lines.join('\n');
}
