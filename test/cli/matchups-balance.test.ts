import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceDocumentSchema } from '../../documents/balance-document.js';
import { matchupsDocumentSchema } from '../../documents/matchups-document.js';
import { trialsPerSeat } from '../../analysis/matchups.js';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * `matchups` and `balance` as a designer uses them: the matrix written as a matrix (CSV), with its
 * caption (Markdown), the whole result as numbers (JSON); -p sets the trials; wrong input refused
 * before any run, naming the file and field.
 */

const HEROIC = path.join(REPOSITORY, 'data/heroic/rosters/core.yaml');
const WARMASTER = path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml');
const ONLY = ['--only', 'sylvan-knight', 'goblin', 'ogre'];
let directory: string;

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-matchups-cli-'));
});

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** A CSV line split on commas, quotes removed (the names here have no commas). */
const cells = (line: string) => line.split(',').map((cell) => cell.replace(/^"|"$/g, ''));

describe('crucible matchups', () => {
  it('--out .csv is the matrix: a header of opponents, one row per unit, numbers rounded to the precision', async () => {
    const out = path.join(directory, 'm.csv');
    const run = await runCli(['matchups', HEROIC, ...ONLY, '-p', '0.05', '-w', '0', '--seed', '20261122', '--out', out]);
    expect(run.status, run.stderr).toBe(0);
    const lines = (await readFile(out, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(4);
    expect(cells(lines[0] ?? '').slice(1)).toEqual(['Sylvan Knight', 'Goblin', 'Ogre']);
    for (const [row, line] of lines.slice(1).entries()) {
      const [name, ...values] = cells(line);
      expect(name).toBe(['Sylvan Knight', 'Goblin', 'Ogre'][row]);
      for (const value of values) expect(value).toMatch(/^(0|1|0\.\d{1,2})$/);
      // The diagonal: a unit against itself over both seatings.
      expect(Number(values[row])).toBe(0.5);
    }
    // The terminal table says what it shows, and the legend lists the points fielded.
    expect(run.stdout).toContain("the row unit's expected score (P(win) + ½ P(draw)) against the column unit");
    expect(run.stdout).toContain('Points fielded: Sylvan Knight 4 × 16 = 64; Goblin 12 × 5 = 60; Ogre 2 × 40 = 80.');
  });

  it('--out .md has its caption and legend; --out .json is the table with its columns named; --json is the whole result at full precision; --long is one row per seating', async () => {
    const md = path.join(directory, 'm.md');
    const json = path.join(directory, 'm.json');
    const long = path.join(directory, 'long.csv');
    const common = ['matchups', HEROIC, ...ONLY, '-n', '200', '-w', '0', '--seed', '20261122'];
    expect((await runCli([...common, '--out', md])).status).toBe(0);
    const printed = await runCli([...common, '--out', json]);
    expect(printed.status).toBe(0);
    expect((await runCli([...common, '--out', long, '--long', '--show', 'win'])).status).toBe(0);
    const text = await readFile(md, 'utf8');
    expect(text).toMatch(/^\*\*Heroic units at about 60 points a side: the row unit's expected score/);
    expect(text).toMatch(/^\| row \\ column \| Sylvan Knight \| Goblin \| Ogre \|$/m);
    expect(text).toContain('200 trials per seating');
    expect(text).toContain('seed 20261122');
    // The file's table is what the terminal printed: the same rows, the cells as numbers.
    const table = JSON.parse(await readFile(json, 'utf8')) as { columns: { name: string }[]; rows: unknown[][] };
    expect(table.columns.map((column) => column.name)).toEqual(['row unit vs column: expected score', 'Sylvan Knight', 'Goblin', 'Ogre']);
    expect(table.rows.map((row) => row[0])).toEqual(['Sylvan Knight', 'Goblin', 'Ogre']);
    expect(table.rows[1]?.[2]).toBe(0.5);
    expect(printed.stdout).toMatch(/^Goblin +\d+% ±\d+ +50% +\d+% ±\d+$/m);
    const document = matchupsDocumentSchema.parse(JSON.parse((await runCli([...common, '--json'])).stdout));
    expect(document.cells).toHaveLength(9);
    expect(document.trialsPerSeat).toBe(200);
    expect(typeof document.cells[1]?.combined.score.value).toBe('number');
    const longLines = (await readFile(long, 'utf8')).trim().split('\n');
    // Two situations (singly, in formation): each pairing in each situation by seating and combined, then the mix.
    expect(cells(longLines[0] ?? '')).toEqual([
      'unit',
      'opponent',
      'situation',
      'seating',
      'P(win)',
      'P(draw)',
      'P(loss)',
      'expected score',
      'score 95% low',
      'score 95% high',
      'trials',
      'seed',
    ]);
    expect(longLines).toHaveLength(1 + 9 * (2 * 3 + 1));
    // Each seating's own seed: the two seatings of a pairing differ (independent games), a mirror's are one run.
    const seeds = longLines
      .slice(1)
      .map(cells)
      .filter((line) => line[3] !== 'both (mean)')
      .map((line) => ({ unit: line[0], opponent: line[1], situation: line[2], seed: line[11] }));
    const seedOf = (unit: string, opponent: string, seating: number) =>
      seeds.filter((entry) => entry.unit === unit && entry.opponent === opponent && entry.situation === 'singly')[seating]?.seed;
    expect(seedOf('Goblin', 'Ogre', 0)).not.toBe(seedOf('Goblin', 'Ogre', 1));
    expect(seedOf('Goblin', 'Goblin', 0)).toBe(seedOf('Goblin', 'Goblin', 1));
  });

  it('--adaptive stops each seating at its own precision: fewer trials in all, every combined score still within ±precision, the same bytes on the main thread and on workers', async () => {
    const only = ['--only', 'empire/knights', 'orcs/goblins', 'dwarfs/warriors', 'orcs/trolls'];
    const args = ['matchups', WARMASTER, ...only, '-p', '0.02', '--seed', '20261124', '--adaptive', '--json'];
    const [mainThread, workers] = [await runCli([...args, '-w', '0']), await runCli([...args, '-w', '2'])];
    expect(mainThread.status, mainThread.stderr).toBe(0);
    expect(workers.stdout).toBe(mainThread.stdout);
    const document = matchupsDocumentSchema.parse(JSON.parse(mainThread.stdout));
    expect(document.adaptive).toBe(true);
    const worstCase = trialsPerSeat(0.02, 'both');
    expect(document.trialsPerSeat).toBe(worstCase);
    // The roster plays 4 situations: a run per ordered pair and situation, each its own seating.
    const situations = document.situations?.length ?? 1;
    expect(situations).toBe(4);
    const seatings = document.cells.flatMap((cell) => (cell.situations ?? []).map((entry) => entry.first?.trials ?? Number.NaN));
    expect(seatings).toHaveLength(16 * situations);
    expect(document.trialsInAll).toBe(seatings.reduce((sum, trials) => sum + trials, 0));
    expect(document.trialsInAll).toBeLessThan(16 * situations * worstCase);
    expect(Math.max(...seatings)).toBeLessThanOrEqual(worstCase);
    for (const cell of document.cells) {
      const { value, interval } = cell.combined.score;
      expect(Math.max(interval.high - value, value - interval.low), `${cell.row} against ${cell.column}`).toBeLessThanOrEqual(0.02);
    }
    const report = path.join(directory, 'adaptive-report');
    const text = await runCli([
      'matchups',
      WARMASTER,
      ...only,
      '-p',
      '0.02',
      '--seed',
      '20261124',
      '--adaptive',
      '-w',
      '0',
      '--report',
      report,
    ]);
    expect(text.stdout).toMatch(/64 runs of up to [\d,]+ trials \([\d,]+ in all\)/);
    expect(text.stdout).toMatch(/Up to [\d,]+ trials per seating, each stopped once its own score was precise enough/);
    const page = await readFile(path.join(report, (text.stderr.match(/report: .*\/([^/\n]+\.html)/) ?? [])[1] ?? 'missing.html'), 'utf8');
    expect(page).toContain('Each seating stopped once its own score was precise enough');
    expect(page).toMatch(/[\d,]+ trials in all \(64 runs of up to [\d,]+\)/);
    const refused = await runCli(['matchups', WARMASTER, '--adaptive', '--queue', 'redis://127.0.0.1:1']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--adaptive.*cannot be used with option '--queue/);
  });

  it('refuses a bad --out before running, and an unknown entry naming the roster', async () => {
    const bad = await runCli(['matchups', HEROIC, ...ONLY, '--out', path.join(directory, 'm.xlsx')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${path.join(directory, 'm.xlsx')}: --out: cannot tell the table format from ".xlsx"`);
    const unknown = await runCli(['matchups', HEROIC, '--only', 'sylvan-knight', 'gobiln']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(
      `${HEROIC}: --only: the roster has no entry "gobiln" (did you mean "goblin"?); its entries: sylvan-knight, goblin,`,
    );
  });
});

describe('crucible balance', () => {
  it('one unit against the list as published: its price, curve and opponents; --json is the whole document, --out .csv the price list as numbers and its curve beside it', async () => {
    const json = path.join(directory, 'b.json');
    const csv = path.join(directory, 'b.csv');
    const args = [
      'balance',
      'orc-barbarian',
      '--against',
      HEROIC,
      '--only',
      'orc-barbarian',
      'goblin',
      'sylvan-knight',
      '--budget',
      '60',
      '-p',
      '0.04',
      '-w',
      '0',
      '--seed',
      '20261122',
    ];
    const run = await runCli(args);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('what Orc Barbarian should cost at 60 points a side, the others at their published costs');
    expect(run.stdout).toContain('Orc Barbarian: expected score against the list by models fielded');
    expect(run.stdout).toContain('Orc Barbarian: against each opponent alone');
    // The legend's paragraphs are wrapped for the terminal: read them as one line.
    expect(run.stdout.replace(/\s+/g, ' ')).toMatch(
      /Verdict: under-costed \(over-costed\) when the published cost lies below \(above\) the interval and the proposal differs from it by more than the tolerance, ±10% of the published cost/,
    );
    const document = balanceDocumentSchema.parse(JSON.parse((await runCli([...args, '--json', '--out', json])).stdout));
    if (document.fielded !== 'by-count') throw new Error('expected a by-count document');
    expect(document.scope).toBe('unit');
    const [unit] = document.units;
    expect(typeof unit?.deserved).toBe('number');
    expect(unit?.opponents.map((opponent) => opponent.opponent)).toEqual(['sylvan-knight', 'goblin']);
    // Each opponent fields the budget at its published cost, on average: 60/16 Sylvan Knights, 60/5 Goblins.
    expect(unit?.opponents.map((opponent) => opponent.count)).toEqual([3.75, 12]);
    expect(unit?.check?.pass).toBe(true);
    expect((await runCli([...args, '--out', csv])).status).toBe(0);
    const lines = (await readFile(csv, 'utf8')).trim().split('\n');
    expect(cells(lines[0] ?? '')).toEqual([
      'unit',
      'id',
      'published',
      'proposed',
      'proposed low',
      'proposed high',
      'change %',
      'verdict',
      'driven by',
      'depends on the mix',
      'singly: deserved',
      'in formation: deserved',
      'models at proposed',
      'score at published',
      'replayed score',
      'replay within 2 points',
    ]);
    expect(lines).toHaveLength(2);
    expect(cells(lines[1] ?? '').slice(0, 3)).toEqual(['Orc Barbarian', 'orc-barbarian', String(unit?.published)]);
    // Beside it, as docs/commands.md names it: the unit's score at each count measured.
    const curves = (await readFile(path.join(directory, 'b.curves.csv'), 'utf8')).trim().split('\n');
    expect(cells(curves[0] ?? '')).toEqual([
      'unit',
      'models',
      'score against the list at the proposed prices',
      'score against the list at the proposed prices low',
      'score against the list at the proposed prices high',
      'measured',
    ]);
    expect(curves).toHaveLength(1 + (unit?.curve.length ?? 0));
    // --out .json is that table, its columns described.
    const table = JSON.parse(await readFile(json, 'utf8')) as { columns: { name: string }[]; rows: unknown[][] };
    expect(table.columns.map((column) => column.name)).toEqual(cells(lines[0] ?? ''));
  });

  it('a price list: every unit, ranked by verdict, checked by replaying it; --tolerance in points; --no-check skips the replay', async () => {
    const args = [
      'balance',
      '--against',
      HEROIC,
      '--only',
      'goblin',
      'skeleton',
      'orc-barbarian',
      '--budget',
      '60',
      '-p',
      '0.04',
      '-w',
      '0',
      '--seed',
      '20261122',
    ];
    const run = await runCli([...args, '--tolerance', '1', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const document = balanceDocumentSchema.parse(JSON.parse(run.stdout));
    if (document.fielded !== 'by-count') throw new Error('expected a by-count document');
    expect(document.scope).toBe('list');
    expect(document.tolerance).toEqual({ kind: 'points', value: 1 });
    expect(document.units.map((unit) => unit.id).sort()).toEqual(['goblin', 'orc-barbarian', 'skeleton']);
    expect(document.check?.passed).toBe(true);
    expect(document.converged).toBe(true);
    for (const unit of document.units) expect(Math.abs((unit.check?.score.value ?? Number.NaN) - 0.5)).toBeLessThanOrEqual(0.02);
    // The list keeps its level: the middle half's log price changes average 0 (of three units, all three).
    expect(document.units.reduce((sum, unit) => sum + Math.log((unit.deserved ?? Number.NaN) / unit.published), 0)).toBeCloseTo(0, 9);
    const unchecked = await runCli([...args, '--no-check', '--json']);
    const plain = balanceDocumentSchema.parse(JSON.parse(unchecked.stdout));
    expect(plain.fielded === 'by-count' && plain.check).toBeUndefined();
  });

  it('refuses what it cannot do, naming the roster and field: --budget for a roster fielded whole, no --budget by count, a bad tolerance, an unknown unit', async () => {
    const whole = await runCli(['balance', '--all', '--against', WARMASTER, '--budget', '100']);
    expect(whole.status).toBe(2);
    expect(whole.stderr).toContain(`${WARMASTER}: fielded: this roster fields each entry whole`);
    const noBudget = await runCli(['balance', '--against', HEROIC]);
    expect(noBudget.status).toBe(2);
    expect(noBudget.stderr).toContain(`${HEROIC}: --budget: give --budget <points>`);
    const tolerance = await runCli(['balance', '--against', HEROIC, '--budget', '60', '--tolerance', 'ten']);
    expect(tolerance.status).toBe(2);
    expect(tolerance.stderr).toContain(
      'The tolerance is a percentage of the published cost from 0% to 99% ("10%") or points, 0 or more ("5"), got "ten".',
    );
    const unknown = await runCli(['balance', 'gobiln', '--against', HEROIC, '--budget', '60']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`${HEROIC}: entries: no entry "gobiln"`);
    const small = await runCli(['balance', '--against', HEROIC, '--budget', '30', '--only', 'goblin', 'ogre']);
    expect(small.status).toBe(2);
    expect(small.stderr).toContain('ogre costs 40, more than the budget of 30 points: give a --budget of at least 40');
  });
});
