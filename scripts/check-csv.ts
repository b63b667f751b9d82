/**
 * Do the commands' CSV files open in a spreadsheet with their numbers as numbers? Runs matchups
 * (wide, long), sweep (points, long, wide), compare and balance (by count with its curves beside,
 * fielded whole with its matrix beside) on small bundled rosters and scenarios, each with
 * `--out x.csv` and `--out x.json` (the same table), then has LibreOffice Calc open every CSV
 * (`soffice --headless --convert-to fods`, as UTF-8, comma-separated) and reads back each cell's
 * type: every column the JSON holds as numbers must be numbers in Calc, every text column text, and
 * the names (accents, ½, −) must read as written. Also checks a `--bom` file opens the same.
 *
 * Run: npm run check:csv   (needs `soffice`: apt-get install -y --no-install-recommends libreoffice-calc;
 * a script rather than a test: that install is hundreds of megabytes, minutes on a fresh machine).
 * Exit 0 when every file passes, 1 naming each column that does not, 2 when soffice is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOFFICE = process.env.SOFFICE ?? '/usr/bin/soffice';

const HEROIC_ROSTER = 'data/heroic/rosters/core.yaml';
const ATTACK = 'data/heroic/scenarios/sylvan-knights-formation.yaml';
const CHAIN = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const WARMASTER_ROSTER = 'data/warmaster/rosters/four-armies.yaml';
const WARMASTER_EIGHT = [
  'empire/halberdiers',
  'empire/handgunners',
  'empire/crossbowmen',
  'empire/flagellants',
  'empire/knights',
  'empire/pistoliers',
  'orcs/orc-warriors',
  'orcs/black-orcs',
];

/** Each check: a name, the command's arguments (before --out), and the side tables it writes beside. */
const CHECKS: readonly { name: string; args: string[]; sides?: string[] }[] = [
  { name: 'matchups-wide', args: ['matchups', HEROIC_ROSTER, '--only', 'sylvan-knight', 'goblin', 'ogre', '-n', '200'] },
  {
    name: 'matchups-long',
    args: ['matchups', HEROIC_ROSTER, '--only', 'sylvan-knight', 'goblin', 'ogre', '-n', '200', '--layout', 'long'],
  },
  {
    name: 'sweep-points',
    args: ['sweep', CHAIN, '--set', 'sides[0].groups[0].models=1,2', '-n', '1000', '--metric', 'winner', 'B.modelsLost'],
  },
  {
    name: 'sweep-long',
    args: [
      'sweep',
      CHAIN,
      '--set',
      'sides[0].groups[0].models=1,2',
      '-n',
      '1000',
      '--metric',
      'winner',
      'B.modelsLost',
      '--layout',
      'long',
    ],
  },
  {
    name: 'sweep-wide',
    args: [
      'sweep',
      ATTACK,
      '--set',
      'rules.shieldSave=4,5,6',
      '--set',
      'sides[0].groups[0].models=3,4',
      '--metric',
      'winner',
      '--layout',
      'wide',
    ],
  },
  { name: 'compare', args: ['compare', CHAIN, '--variant', 'no-regeneration', '-n', '2000'] },
  {
    name: 'balance-count',
    args: [
      'balance',
      'orc-barbarian',
      '--against',
      HEROIC_ROSTER,
      '--only',
      'orc-barbarian',
      'goblin',
      'sylvan-knight',
      '--budget',
      '60',
      '-p',
      '0.05',
    ],
    sides: ['curves'],
  },
  {
    name: 'balance-whole',
    args: ['balance', '--against', WARMASTER_ROSTER, '--only', ...WARMASTER_EIGHT, '-p', '0.08'],
    sides: ['matchups'],
  },
];

interface JsonTable {
  readonly columns: readonly { name: string }[];
  readonly rows: readonly (readonly unknown[])[];
}

type CalcCell = { type: 'float' | 'string' | 'boolean' | 'empty' | string; text: string };

const decodeXml = (text: string): string =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The first sheet of a flat ODS file as rows of cells (repeated cells expanded, trailing empties dropped). */
function readFods(xml: string): CalcCell[][] {
  const rows: CalcCell[][] = [];
  for (const row of xml.matchAll(/<table:table-row\b[^>]*>([\s\S]*?)<\/table:table-row>/g)) {
    const cells: CalcCell[] = [];
    for (const cell of (row[1] ?? '').matchAll(/<table:table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g)) {
      const attributes = cell[1] ?? '';
      const repeated = Number(/table:number-columns-repeated="(\d+)"/.exec(attributes)?.[1] ?? 1);
      const type = /office:value-type="([^"]+)"/.exec(attributes)?.[1] ?? 'empty';
      const text = decodeXml(
        [...(cell[2] ?? '').matchAll(/<text:p>([\s\S]*?)<\/text:p>/g)]
          .map((paragraph) => (paragraph[1] ?? '').replace(/<[^>]+>/g, ''))
          .join('\n'),
      );
      for (let i = 0; i < Math.min(repeated, 1000); i++) cells.push({ type, text });
    }
    while (cells.length > 0 && cells.at(-1)?.type === 'empty') cells.pop();
    rows.push(cells);
  }
  while (rows.length > 0 && rows.at(-1)?.length === 0) rows.pop();
  return rows;
}

/** Calc's reading of a CSV file. */
function openInCalc(csv: string, directory: string): CalcCell[][] {
  const out = path.join(directory, 'calc');
  // 44: comma, 34: double quote, 76: UTF-8, 1: from the first line — what the import dialog offers for a UTF-8 CSV.
  execFileSync(
    SOFFICE,
    [
      '--headless',
      `-env:UserInstallation=file://${path.join(directory, 'profile')}`,
      '--infilter=CSV:44,34,76,1',
      '--convert-to',
      'fods',
      '--outdir',
      out,
      csv,
    ],
    { stdio: 'ignore' },
  );
  return readFods(
    execFileSync('cat', [path.join(out, `${path.basename(csv, '.csv')}.fods`)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }),
  );
}

/** What is wrong with Calc's reading of a table (empty when nothing). */
function problems(name: string, table: JsonTable, calc: CalcCell[][]): string[] {
  const found: string[] = [];
  const [header = [], ...body] = calc;
  const names = table.columns.map((column) => column.name);
  if (JSON.stringify(header.map((cell) => cell.text)) !== JSON.stringify(names))
    found.push(`${name}: the header reads ${JSON.stringify(header.map((cell) => cell.text))}, not ${JSON.stringify(names)}`);
  if (body.length !== table.rows.length)
    found.push(`${name}: ${body.length} rows in Calc, ${table.rows.length} in the table (a blank row at the end?)`);
  names.forEach((column, c) => {
    table.rows.forEach((row, r) => {
      const value = row[c];
      const cell = body[r]?.[c] ?? { type: 'empty', text: '' };
      const expected =
        value === null || value === '' ? 'empty' : typeof value === 'number' ? 'float' : typeof value === 'boolean' ? 'boolean' : 'string';
      // Calc reads true/false as a boolean, or as its 1/0 in a number format: either is not text.
      const same = cell.type === expected || (expected === 'boolean' && cell.type === 'float');
      if (!same)
        found.push(
          `${name}: row ${r + 1}, column "${column}": ${JSON.stringify(value)} opened as ${cell.type} ${JSON.stringify(cell.text)}`,
        );
      else if (expected === 'string' && cell.text !== value)
        found.push(`${name}: row ${r + 1}, column "${column}": ${JSON.stringify(value)} reads ${JSON.stringify(cell.text)}`);
      else if (
        expected === 'float' &&
        Math.abs(Number(cell.text.replace(/,/g, '')) - (value as number)) > Math.abs(value as number) * 1e-3 + 1e-3 &&
        !/E/i.test(cell.text)
      )
        found.push(`${name}: row ${r + 1}, column "${column}": ${value} reads ${cell.text}`);
    });
  });
  return found;
}

async function main(): Promise<number> {
  if (!existsSync(SOFFICE)) {
    console.error(`${SOFFICE} is missing: apt-get install -y --no-install-recommends libreoffice-calc (or set $SOFFICE)`);
    return 2;
  }
  const directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-check-csv-'));
  const found: string[] = [];
  try {
    for (const check of CHECKS) {
      const base = path.join(directory, check.name);
      for (const extension of ['csv', 'json'])
        execFileSync(process.execPath, ['bin/crucible.js', ...check.args, '--out', `${base}.${extension}`], {
          cwd: REPOSITORY,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
      for (const side of ['', ...(check.sides ?? []).map((name) => `.${name}`)]) {
        const name = `${check.name}${side}`;
        const table = JSON.parse(await readFile(`${base}${side}.json`, 'utf8')) as JsonTable;
        const text = await readFile(`${base}${side}.csv`, 'utf8');
        if (text.endsWith('\n\n')) found.push(`${name}: a blank line at the end`);
        const calc = openInCalc(`${base}${side}.csv`, directory);
        const wrong = problems(name, table, calc);
        found.push(...wrong);
        const numeric = table.columns.filter((_, c) => table.rows.some((row) => typeof row[c] === 'number')).length;
        console.log(
          `${wrong.length === 0 ? 'ok  ' : 'FAIL'} ${name}.csv: ${table.rows.length} rows, ${table.columns.length} columns, ${numeric} of them numbers in Calc`,
        );
      }
    }
    // --bom: the same table, with the mark Excel needs; Calc reads it the same.
    const bom = path.join(directory, 'bom.csv');
    execFileSync(process.execPath, ['bin/crucible.js', ...(CHECKS[0]?.args ?? []), '--bom', '--out', bom], {
      cwd: REPOSITORY,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const wrong = problems(
      'bom',
      JSON.parse(await readFile(path.join(directory, 'matchups-wide.json'), 'utf8')) as JsonTable,
      openInCalc(bom, directory),
    );
    found.push(...wrong);
    console.log(`${wrong.length === 0 ? 'ok  ' : 'FAIL'} --bom: opens as the file without it`);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  for (const problem of found) console.error(problem);
  return found.length === 0 ? 0 : 1;
}

process.exitCode = await main();
