import path from 'node:path';
import { type Command, Option } from 'commander';
import { type DataTable, type OutputDocument, printDocument, tableCsv, tableJson } from '../../documents/table-model.js';
import { writeTextFile } from '../../documents/table-files.js';
import { formatOfFile, TABLE_FORMATS, type TableFormat } from '../../documents/table-formats.js';
import { InputError } from '../../input/errors.js';
import { type Io, STDOUT } from './io.js';

/**
 * `--out FILE` of the analysis commands (matchups, sweep, compare, balance) and of run, one meaning
 * for all: what the command prints, written in the format FILE's extension names — `.csv` and
 * `.json` the command's table (its data columns, numbers as numbers), `.md` and `.html` the whole
 * printout (title, provenance, every table, legend) for a person to paste or print. A command with
 * a second table (balance) writes it beside FILE, named `<FILE without extension>.<name>.<extension>`.
 * `--out -` writes to standard output instead of the printout (CSV, or the format `--out-format` names).
 */

export interface OutOptions {
  readonly out?: string;
  /** The format to write whatever FILE's extension: what `--out -` writes (default CSV). */
  readonly outFormat?: TableFormat;
  /** CSV: a UTF-8 byte order mark first, which Excel needs to read accents and ½ right. */
  readonly bom?: boolean;
  /** `--json` prints a document to standard output: `--out -` cannot share it. */
  readonly json?: boolean;
}

export function outOptions(command: Command): Command {
  return command
    .option(
      '-o, --out <file>',
      'also write the table to a file: .csv or .json (the table, numbers as numbers), .md or .html (the printout, to paste or print); - for standard output, as CSV, instead of the printout',
    )
    .addOption(
      new Option('--out-format <format>', 'the format --out writes, whatever its extension (what --out - writes: default csv)').choices([
        ...TABLE_FORMATS,
      ]),
    )
    .option('--bom', 'with --out .csv: start the file with a UTF-8 byte order mark (what Excel needs to read accents as UTF-8)');
}

/** The format --out writes, checked before any run (a typo fails at once, not after an hour). */
export function checkOut(options: OutOptions): TableFormat | undefined {
  if (options.out === undefined) {
    if (options.outFormat !== undefined)
      throw InputError.at('crucible', '--out-format', 'names the format --out writes: give --out FILE too (--out - for standard output)');
    return undefined;
  }
  if (options.out === STDOUT && options.json === true)
    throw InputError.at(STDOUT, '--out', '--json prints its document to standard output: write the table to a file, or leave out --json');
  return options.outFormat ?? (options.out === STDOUT ? 'csv' : formatOfFile(options.out));
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

/**
 * Writes `document` to --out (nothing without it), and each side table beside it in the same format
 * (for .csv and .json). True when it went to standard output (`--out -`): the command then prints
 * nothing else there.
 */
export async function writeOut(
  options: OutOptions,
  document: OutputDocument,
  io: Pick<Io, 'stdout' | 'stderr'>,
  sides: readonly { name: string; table: DataTable }[] = [],
): Promise<boolean> {
  const format = checkOut(options);
  if (options.out === undefined || format === undefined) return false;
  const text = await outputText(document, format, options);
  const tables = format === 'csv' || format === 'json' ? sides : [];
  if (options.out === STDOUT) {
    io.stdout(text);
    for (const side of tables)
      io.stderr(`note: --out - writes the main table only: --out FILE also writes the ${side.name} table beside FILE\n`);
    return true;
  }
  await writeTextFile(options.out, text);
  for (const side of tables)
    await writeTextFile(besideOut(options.out, side.name), await outputText(document, format, options, side.table));
  return false;
}
