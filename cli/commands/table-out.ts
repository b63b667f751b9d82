import path from 'node:path';
import type { Command } from 'commander';
import { type DataTable, type OutputDocument, printDocument, tableCsv, tableJson } from '../../documents/table-model.js';
import { writeTextFile } from '../../documents/table-files.js';
import { formatOfFile, type TableFormat } from '../../documents/tables.js';

/**
 * `--out FILE` of the analysis commands (matchups, sweep, compare, balance), one meaning for all:
 * what the command prints, written in the format FILE's extension names — `.csv` and `.json` the
 * command's table (its data columns, numbers as numbers), `.md` and `.html` the whole printout
 * (title, provenance, every table, legend) for a person to paste or print. A command with a second
 * table (balance) writes it beside FILE, named `<FILE without extension>.<name>.<extension>`.
 */

export interface OutOptions {
  readonly out?: string;
  /** CSV: a UTF-8 byte order mark first, which Excel needs to read accents and ½ right. */
  readonly bom?: boolean;
}

export function outOptions(command: Command): Command {
  return command
    .option(
      '-o, --out <file>',
      'also write the table to a file: .csv or .json (the table, numbers as numbers), .md or .html (the printout, to paste or print)',
    )
    .option('--bom', 'with --out .csv: start the file with a UTF-8 byte order mark (what Excel needs to read accents as UTF-8)');
}

/** The format --out names, checked before any run (a typo fails at once, not after an hour). */
export function checkOut(options: OutOptions): TableFormat | undefined {
  return options.out === undefined ? undefined : formatOfFile(options.out);
}

/** A side file's name: `prices.csv` and `curves` → `prices.curves.csv`. */
export function besideOut(file: string, name: string): string {
  const extension = path.extname(file);
  return `${file.slice(0, file.length - extension.length)}.${name}${extension}`;
}

/** The text of `document` in `format` (`table`: what .csv and .json write, default the document's data table). */
export async function outputText(
  document: OutputDocument,
  format: TableFormat,
  options: Pick<OutOptions, 'bom'> = {},
  table: DataTable = document.data,
): Promise<string> {
  switch (format) {
    case 'csv':
      return tableCsv(table, { bom: options.bom === true });
    case 'json':
      return tableJson(table);
    case 'md':
      return printDocument(document, 'md');
    case 'html': {
      // Loaded only when asked: the page's stylesheet lives with the report pages.
      const { documentHtml } = await import('../../reports/table-page.js');
      return documentHtml(document);
    }
  }
}

/** Writes `document` to --out (nothing without it), and each side table beside it in the same format (for .csv and .json). */
export async function writeOut(
  options: OutOptions,
  document: OutputDocument,
  sides: readonly { name: string; table: DataTable }[] = [],
): Promise<void> {
  if (options.out === undefined) return;
  const format = formatOfFile(options.out);
  await writeTextFile(options.out, await outputText(document, format, options));
  if (format !== 'csv' && format !== 'json') return;
  for (const side of sides) await writeTextFile(besideOut(options.out, side.name), await outputText(document, format, options, side.table));
}
