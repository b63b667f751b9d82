/**
 * The one table model every analysis command prints and writes (matchups, sweep, compare, balance):
 * columns once, in one order, then rendered for people — the terminal, Markdown, HTML (reports/) —
 * or for programs — CSV, JSON. A cell holds the value a program reads (a number stays a number) and,
 * where print says it otherwise ("62% ±3", "any price"), the text a person reads. A column with an
 * interval carries its 95% low and high: in CSV and JSON they are columns of their own beside it
 * (`<name> low`, `<name> high`); in print, inside the cell's text or in a column of their own.
 */

export type Scalar = string | number | boolean | null;

/** A cell printed otherwise than its value reads: `{ value: 0.62, text: '62% ±3', low: 0.59, high: 0.65 }`. */
export interface Shown {
  readonly value: Scalar;
  readonly text: string;
  /** The 95% interval's ends (null where there is none: an exact value, an unbounded end). */
  readonly low?: number | null;
  readonly high?: number | null;
  /** The interval as printed, under the column's `boundsHeading`. */
  readonly boundsText?: string;
}

export type Cell = Scalar | Shown;

export interface Column {
  /** The header in CSV and JSON: plain ASCII words, what a spreadsheet or a csv reader shows as is. */
  readonly name: string;
  /** The header in print (terminal, Markdown, HTML) where it says more than the name; default the name. */
  readonly heading?: string;
  /** What the column holds (JSON's column list, and the docs). */
  readonly description?: string;
  /** CSV and JSON: the cells' interval as two more columns, `<name> low` and `<name> high`. */
  readonly bounds?: boolean;
  /** Print: the interval in a column of its own, under this heading, right of the value. */
  readonly boundsHeading?: string;
  /** Print: right-aligned, as numbers are (a column of plain numbers is, whatever this says). */
  readonly align?: 'right';
  /** Only in CSV and JSON ('data': ids, standard errors), or only in print ('print'). Default both. */
  readonly only?: 'data' | 'print';
}

/** Columns printed together under a title of their own, after the table's first `keys` columns (its row labels). */
export interface ColumnBlock {
  readonly title: string;
  readonly columns: readonly number[];
  readonly notes?: readonly string[];
}

export interface DataTable {
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly Cell[])[];
  /** The legend: what the cells mean, said under the table in print and kept in JSON. */
  readonly notes?: readonly string[];
  /** Print the table in blocks of columns (a sweep's metrics), each headed by the first `keys` columns. */
  readonly blocks?: { readonly keys: number; readonly list: readonly ColumnBlock[] };
}

const isShown = (cell: Cell): cell is Shown => cell !== null && typeof cell === 'object';
export const valueOf = (cell: Cell): Scalar => (isShown(cell) ? cell.value : cell);
export const textOf = (cell: Cell): string => (isShown(cell) ? cell.text : cell === null ? '' : String(cell));

/** A column of print: its heading, and how each row's cell reads. */
export interface PrintColumn {
  readonly heading: string;
  readonly cells: readonly string[];
  /** The cells as a page shows them: a plain number stays a number (the page groups its thousands), anything else its text. */
  readonly raw: readonly (string | number)[];
  /** Right-aligned: every cell a plain number (or empty). */
  readonly numeric: boolean;
}

/** The columns a person reads, in order (an interval in its own column where the column says so). */
export function printColumns(table: DataTable, indices?: readonly number[]): PrintColumn[] {
  const chosen = indices ?? table.columns.map((_, i) => i);
  return chosen.flatMap((index) => {
    const column = table.columns[index] as Column;
    if (column.only === 'data') return [];
    const cells = table.rows.map((row) => row[index] ?? null);
    // A column of plain numbers is right-aligned; one whose cells print otherwise ("62% ±3") reads as text.
    const numeric = column.align === 'right' || cells.every((cell) => typeof cell === 'number' || textOf(cell) === '');
    const own: PrintColumn = {
      heading: column.heading ?? column.name,
      cells: cells.map(textOf),
      raw: cells.map((cell) => (typeof cell === 'number' ? cell : textOf(cell))),
      numeric,
    };
    if (column.boundsHeading === undefined) return [own];
    const bounds = cells.map((cell) => (isShown(cell) ? (cell.boundsText ?? '') : ''));
    return [own, { heading: column.boundsHeading, cells: bounds, raw: bounds, numeric: column.align === 'right' }];
  });
}

/** The columns a program reads: headers, and each row's values (an interval's ends beside its value). */
export function dataColumns(table: DataTable): { names: string[]; rows: Scalar[][]; described: { name: string; description?: string }[] } {
  const names: string[] = [];
  const described: { name: string; description?: string }[] = [];
  const readers: ((row: readonly Cell[]) => Scalar)[] = [];
  table.columns.forEach((column, index) => {
    if (column.only === 'print') return;
    const cell = (row: readonly Cell[]): Cell => row[index] ?? null;
    names.push(column.name);
    described.push({ name: column.name, ...(column.description === undefined ? {} : { description: column.description }) });
    readers.push((row) => valueOf(cell(row)));
    if (column.bounds === true) {
      for (const end of ['low', 'high'] as const) {
        names.push(`${column.name} ${end}`);
        described.push({
          name: `${column.name} ${end}`,
          description: `the 95% interval's ${end} end of ${column.name} (empty where there is none)`,
        });
        readers.push((row) => {
          const shown = cell(row);
          return isShown(shown) ? (shown[end] ?? null) : null;
        });
      }
    }
  });
  return { names, described, rows: table.rows.map((row) => readers.map((read) => read(row))) };
}

/** Display width: code points (every character crucible prints is one column wide). */
const width = (text: string): number => [...text].length;
const pad = (text: string, size: number, right: boolean): string => {
  const fill = ' '.repeat(Math.max(0, size - width(text)));
  return right ? fill + text : text + fill;
};

/** A table for the terminal: columns padded to their widest cell, two spaces apart, under a rule of dashes; numbers right-aligned. */
export function textGrid(columns: readonly PrintColumn[]): string {
  const widths = columns.map((column) => Math.max(width(column.heading), ...column.cells.map(width)));
  const rows = columns[0]?.cells.length ?? 0;
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => pad(cell, widths[c] as number, columns[c]?.numeric === true))
      .join('  ')
      .trimEnd();
  const body = Array.from({ length: rows }, (_, r) => line(columns.map((column) => column.cells[r] ?? '')));
  return [line(columns.map((column) => column.heading)), widths.map((size) => '-'.repeat(size)).join('  '), ...body].join('\n');
}

/** A Markdown table: `|` in a cell escaped, numbers right-aligned. */
export function markdownGrid(columns: readonly PrintColumn[]): string {
  const escape = (text: string): string => text.replaceAll('|', '\\|').replace(/\r?\n/g, ' ');
  const line = (cells: readonly string[]): string => `| ${cells.map(escape).join(' | ')} |`;
  const rows = columns[0]?.cells.length ?? 0;
  return [
    line(columns.map((column) => column.heading)),
    `|${columns.map((column) => (column.numeric ? '---:' : ':---')).join('|')}|`,
    ...Array.from({ length: rows }, (_, r) => line(columns.map((column) => column.cells[r] ?? ''))),
  ].join('\n');
}

/** The pieces of a table as printed: one grid, or a titled grid per block of columns (row labels repeated in each). */
export function printedParts(table: DataTable): { title: string; columns: PrintColumn[]; notes: readonly string[] }[] {
  if (table.blocks === undefined) return [{ title: table.title, columns: printColumns(table), notes: table.notes ?? [] }];
  const keys = Array.from({ length: table.blocks.keys }, (_, i) => i);
  return table.blocks.list.map((block) => ({
    title: block.title,
    columns: printColumns(table, [...keys, ...block.columns]),
    notes: block.notes ?? [],
  }));
}

/** Plain text for a terminal, or Markdown for a file (`--out x.md`). */
export type Flavor = 'text' | 'md';

/** A paragraph broken into lines of at most `width` characters, at spaces (a longer word stands alone). */
export function wrapText(text: string, columns = 100, indent = ''): string {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (current !== '' && current.length + 1 + word.length > columns - indent.length) {
      lines.push(indent + current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  if (current !== '') lines.push(indent + current);
  return lines.join('\n');
}

/**
 * A table as printed: its title (unless `titled` is false: the caller has said it), the grid, and
 * its notes — each block of columns the same way, under its own title. Lines end with a blank line.
 */
export function printTable(table: DataTable, flavor: Flavor, { titled = true, wrap = flavor === 'text' } = {}): string[] {
  const lines: string[] = [];
  for (const part of printedParts(table)) {
    if ((titled || table.blocks !== undefined) && part.title !== '') lines.push(flavor === 'md' ? `**${part.title}**` : part.title, '');
    lines.push(flavor === 'md' ? markdownGrid(part.columns) : textGrid(part.columns), '');
    for (const note of part.notes) lines.push(wrap ? wrapText(note) : note, '');
  }
  if (table.blocks !== undefined) for (const note of table.notes ?? []) lines.push(wrap ? wrapText(note) : note, '');
  return lines;
}

/** Text that a spreadsheet would run as a formula (=, +, -, @ first) is kept as text with a leading apostrophe. */
const FORMULA_LEAD = /^[=+\-@\t\r]/;

function csvField(value: Scalar): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_LEAD.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The byte order mark Excel needs to read a CSV as UTF-8 (`--bom`); other programs need none. */
export const BOM = '\uFEFF';

/**
 * RFC 4180 CSV of the data columns: a header line, then one line per row, each line ending in a
 * newline and no blank line after the last; numbers as numbers (full precision), empty for none.
 */
export function tableCsv(table: DataTable, { bom = false } = {}): string {
  const { names, rows } = dataColumns(table);
  return `${bom ? BOM : ''}${[names, ...rows].map((row) => row.map(csvField).join(',')).join('\n')}\n`;
}

/** The table as JSON: its title, each column's name and meaning, the rows as arrays in column order, and its notes. */
export function tableJson(table: DataTable): string {
  const { described, rows } = dataColumns(table);
  const finite = rows.map((row) => row.map((value) => (typeof value === 'number' && !Number.isFinite(value) ? null : value)));
  return `${JSON.stringify({ title: table.title, columns: described, rows: finite, notes: table.notes ?? [] }, null, 2)}\n`;
}

/**
 * What a command prints: a title, lines under it (the verdict: said first), key/value lines (file,
 * seed, engine…), paragraphs before the tables, the tables, and paragraphs after them. `data` is
 * the table `--out x.csv` and `x.json` write.
 */
export interface OutputDocument {
  readonly title: string;
  readonly lead?: readonly string[];
  readonly entries?: readonly (readonly [key: string, value: string])[];
  readonly before?: readonly string[];
  readonly tables: readonly DataTable[];
  readonly after?: readonly string[];
  readonly data: DataTable;
  /** The terminal: paragraphs and notes wrapped at 100 columns (default), or each on one line. */
  readonly wrap?: boolean;
}

/** The document for a terminal (text) or a file (Markdown): lines ending in a newline. */
export function printDocument(document: OutputDocument, flavor: Flavor): string {
  const md = flavor === 'md';
  const wrap = !md && document.wrap !== false;
  const paragraph = (text: string): string => (wrap ? wrapText(text) : text);
  const lines = [md ? `**${document.title}**` : document.title];
  // The lead (a verdict) stands apart from the lines under it; a lead of indented lines (matchups' file line) does not.
  const lead = document.lead ?? [];
  if (lead.length > 0)
    lines.push(
      ...(md ? ['', ...lead] : lead),
      ...(!md && !lead.every((line) => line.startsWith(' ')) && (document.entries ?? []).length > 0 ? [''] : []),
    );
  const entries = document.entries ?? [];
  if (entries.length > 0) {
    if (md) lines.push('');
    lines.push(
      ...entries.map(([key, value]) => (md ? (key === '' ? `  - ${value}` : `- ${key}: ${value}`) : `  ${key.padEnd(8)} ${value}`)),
    );
  }
  lines.push('');
  for (const text of document.before ?? []) lines.push(paragraph(text), '');
  // A table the document's title already names is not titled again.
  for (const table of document.tables) lines.push(...printTable(table, flavor, { titled: table.title !== document.title, wrap }));
  for (const text of document.after ?? []) lines.push(paragraph(text), '');
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/** The rows as printed, each a record of heading → text (tests and callers that read a printed cell by its heading). */
export function printedRows(table: DataTable): Record<string, string>[] {
  const columns = printColumns(table);
  return table.rows.map((_, r) => Object.fromEntries(columns.map((column) => [column.heading, column.cells[r] ?? ''])));
}
