import { platform } from '../input/platform.js';
import type { Cell, DataTable } from '../documents/table-model.js';
import type { Chart } from './charts.js';

/** Where report pages go unless --out says otherwise: out/, outside the source folders (here, not in page.ts, so the CLI reads it without loading the drawing packages). */
export const DEFAULT_REPORT_DIRECTORY = 'out';

/**
 * What a report page is, apart from writing it (reports/page.ts): its sections, provenance and
 * methods, and the slug naming it. Free of Node's file system, so the workbench shows the same
 * pages' sections (web/).
 */

interface RunOf {
  readonly scenario: string;
  readonly file: string;
  readonly ruleset: string;
  readonly engineVersion: string;
  /** Which variant of the scenario ran, when a page shows several of one scenario. */
  readonly variant?: string;
  /** How many runs this entry stands for (default 1): the page shows identical runs once, "×18". */
  readonly runs?: number;
}
/** A run behind the page: Monte Carlo (its seed and trials) or exact (nothing sampled: its paths and error bound instead). */
export type Provenance = RunOf &
  (
    | { readonly seed: number; readonly trials: number; readonly exact?: undefined }
    | { readonly exact: { readonly paths: number; readonly errorBound: number }; readonly seed?: undefined; readonly trials?: undefined }
  );
/** A number shown with its 95% margin ("8% ±2"): the page shows the text, a spreadsheet gets the number and its interval's ends. */
export interface MeasuredCell {
  readonly text: string;
  readonly value: number;
  /** The 95% interval, whose wider side the text's "±" says. */
  readonly low: number;
  readonly high: number;
}
export type PageCell = string | number | MeasuredCell;
export interface PageTable {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly PageCell[])[];
}

/** An estimate as a cell: its text as the page prints it, its value and interval for a spreadsheet. */
export function measuredCell(
  text: string,
  estimate: { readonly value: number; readonly interval: { readonly low: number; readonly high: number } },
): MeasuredCell {
  const { value, interval } = estimate;
  return { text, value, low: interval.low, high: interval.high };
}

/** What a cell shows on the page. */
export const cellText = (cell: PageCell): string | number => (typeof cell === 'object' ? cell.text : cell);

/**
 * A page's table in the one table model (documents/table-model.ts), as every CSV download writes it
 * (`tableCsv`): a column of measured cells ("8% ±2") is the number, with its interval's ends in
 * columns of their own (`<column> low`, `<column> high`; probabilities as fractions, as the CLI's
 * CSVs write them), so no cell holds "8% ±2" where a number belongs.
 */
export function pageTableData(table: PageTable, title = ''): DataTable {
  const measured = table.columns.map((_, c) => table.rows.some((row) => typeof row[c] === 'object'));
  return {
    title,
    columns: table.columns.map((name, c) => (measured[c] === true ? { name, bounds: true } : { name })),
    rows: table.rows.map((row) =>
      row.map((cell): Cell => (typeof cell === 'object' ? { value: cell.value, text: cell.text, low: cell.low, high: cell.high } : cell)),
    ),
  };
}
/** A section: its heading, then any of text (blank lines separate paragraphs), a chart and a table; undefined parts are left out. */
export interface PageSection {
  readonly heading: string;
  readonly text?: string | undefined;
  readonly chart?: Chart | undefined;
  readonly table?: PageTable | undefined;
}
export interface ReportPage {
  readonly slug: string;
  readonly title: string;
  readonly question: string;
  /** The answer to the question in one sentence, when the page has one (a comparison's verdict). */
  readonly answer?: string | undefined;
  /** What the numbers are and how to read their intervals and p-values, in plain words. */
  readonly howToRead?: string | undefined;
  readonly sections: readonly PageSection[];
  readonly provenance: readonly Provenance[];
  /** Methods notes: the rulings and options in force, how intervals were computed… one entry a paragraph. */
  readonly methods: readonly string[];
}

/** File names stay short enough to read in a listing. */
const MAX_SLUG = 80;

/** At most MAX_SLUG characters, cut where a word ends ("…-points", not "…-points-fo"); one long word is cut where it must. */
/** Characters of the hash a cut slug ends with: two long texts that share their first 70 characters stay apart. */
const SLUG_HASH = 8;

function cutAtWord(slug: string): string {
  const room = MAX_SLUG - SLUG_HASH - 1;
  const head = slug.slice(0, room + 1);
  const end = head.lastIndexOf('-');
  const cut = (end > room / 2 ? head.slice(0, end) : slug.slice(0, room)).replace(/[-._]+$/, '');
  return `${cut}-${platform().sha256(slug).slice(0, SLUG_HASH)}`;
}

/** Any text as a file-name-safe slug: "Knights vs Ogre!" → "knights-vs-ogre". */
export function slugify(text: string): string {
  const full = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9._]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  const slug = full.length <= MAX_SLUG ? full : cutAtWord(full);
  if (slug === '') return 'report';
  return slug === 'index' ? 'index-page' : slug;
}

/** One page as the index of pages (pages.json) lists it. */
export interface ManifestEntry {
  readonly slug: string;
  readonly title: string;
  readonly question: string;
  /** When it was written (ISO 8601). */
  readonly written: string;
  readonly engineVersions: readonly string[];
  readonly charts: readonly string[];
}

/**
 * Past this many columns besides its first (the row labels), a table prints in blocks of columns:
 * a 24-unit matrix as two blocks of 12 on a landscape A4 or Letter page, at 8 pt.
 */
export const PRINT_BLOCK_COLUMNS = 12;

/** Column indices (after the first) in blocks of at most PRINT_BLOCK_COLUMNS, as even as can be: 24 → 12 + 12, 30 → 10 + 10 + 10. */
export function printBlocks(columns: number): number[][] {
  const data = columns - 1;
  if (data <= PRINT_BLOCK_COLUMNS) return [];
  const count = Math.ceil(data / PRINT_BLOCK_COLUMNS);
  return Array.from({ length: count }, (_, b) => {
    const from = 1 + Math.round((b * data) / count);
    const to = 1 + Math.round(((b + 1) * data) / count);
    return Array.from({ length: to - from }, (_, i) => from + i);
  });
}
