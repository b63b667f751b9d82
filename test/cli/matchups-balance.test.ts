import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceDocumentSchema } from '../../analysis/balance-document.js';
import { matchupsDocumentSchema } from '../../analysis/matchups-document.js';
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

  it('--out .md has its caption and legend; --out .json is the whole result at full precision; --long is one row per seating', async () => {
    const md = path.join(directory, 'm.md');
    const json = path.join(directory, 'm.json');
    const long = path.join(directory, 'long.csv');
    const common = ['matchups', HEROIC, ...ONLY, '-n', '200', '-w', '0', '--seed', '20261122'];
    expect((await runCli([...common, '--out', md])).status).toBe(0);
    expect((await runCli([...common, '--out', json])).status).toBe(0);
    expect((await runCli([...common, '--out', long, '--long', '--show', 'win'])).status).toBe(0);
    const text = await readFile(md, 'utf8');
    expect(text).toMatch(/^\*\*Heroic units at about 60 points a side: the row unit's expected score/);
    expect(text).toMatch(/\|row \\ column\|Sylvan Knight\|Goblin\|Ogre\|/);
    expect(text).toContain('200 trials per seating');
    expect(text).toContain('seed 20261122');
    const document = matchupsDocumentSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(document.cells).toHaveLength(9);
    expect(document.trialsPerSeat).toBe(200);
    expect(typeof document.cells[1]?.combined.score.value).toBe('number');
    const longLines = (await readFile(long, 'utf8')).trim().split('\n');
    expect(cells(longLines[0] ?? '')).toEqual(['unit', 'opponent', 'seating', 'P(win)', 'P(draw)', 'P(loss)', 'expected score', 'score 95% low', 'score 95% high', 'trials']);
    expect(longLines).toHaveLength(1 + 9 * 3);
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
    const seatings = document.cells.map((cell) => cell.first?.trials ?? Number.NaN);
    expect(document.trialsInAll).toBe(seatings.reduce((sum, trials) => sum + trials, 0));
    expect(document.trialsInAll).toBeLessThan(16 * worstCase);
    expect(Math.max(...seatings)).toBeLessThanOrEqual(worstCase);
    for (const cell of document.cells) {
      const { value, interval } = cell.combined.score;
      expect(Math.max(interval.high - value, value - interval.low), `${cell.row} against ${cell.column}`).toBeLessThanOrEqual(0.02);
    }
    const report = path.join(directory, 'adaptive-report');
    const text = await runCli(['matchups', WARMASTER, ...only, '-p', '0.02', '--seed', '20261124', '--adaptive', '-w', '0', '--report', report]);
    expect(text.stdout).toMatch(/16 runs of up to [\d,]+ trials \([\d,]+ in all\)/);
    expect(text.stdout).toMatch(/Up to [\d,]+ trials per seating, each stopped once its own score was precise enough/);
    const page = await readFile(path.join(report, (text.stderr.match(/report: .*\/([^/\n]+\.html)/) ?? [])[1] ?? 'missing.html'), 'utf8');
    expect(page).toContain('Each seating stopped once its own score was precise enough');
    expect(page).toMatch(/[\d,]+ trials in all \(16 runs of up to [\d,]+\)/);
    const refused = await runCli(['matchups', WARMASTER, '--adaptive', '--queue', 'redis://127.0.0.1:1']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/--adaptive.*cannot be used with option '--queue/);
  }, 60_000);

  it('refuses a bad --out before running, and an unknown entry naming the roster', async () => {
    const bad = await runCli(['matchups', HEROIC, ...ONLY, '--out', path.join(directory, 'm.xlsx')]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${path.join(directory, 'm.xlsx')}: --out: cannot tell the table format from ".xlsx"`);
    const unknown = await runCli(['matchups', HEROIC, '--only', 'sylvan-knight', 'gobiln']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain(`${HEROIC}: --only: the roster has no entry "gobiln" (did you mean "goblin"?); its entries: sylvan-knight, goblin,`);
  });
});

describe('crucible balance', () => {
  it('-p sets the trials of every run, and --out .json holds the per-count and per-opponent tables as numbers', async () => {
    const json = path.join(directory, 'b.json');
    const run = await runCli(['balance', 'orc-barbarian', '--against', HEROIC, '--only', 'goblin', '--budget', '60', '-p', '0.04', '-w', '0', '--seed', '20261122', '--out', json]);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('Orc Barbarian: expected score by models fielded');
    expect(run.stdout).toContain('Orc Barbarian: against each opponent');
    const document = balanceDocumentSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    if (document.fielded !== 'by-count') throw new Error('expected a by-count document');
    const [result] = document.results;
    expect(typeof result?.fairCost).toBe('number');
    expect(result?.opponents[0]).toMatchObject({ opponent: 'goblin', count: 12, points: 60 });
    // Fine runs near ½ at ±4 points, both seatings: trialsPerSeat(0.04) per seating.
    const fine = result?.observations.filter((observation) => observation.combined.trials === 2 * trialsPerSeat(0.04, 'both')) ?? [];
    expect(fine.length).toBeGreaterThanOrEqual(2);
  });

  it('a roster fielded whole refuses --budget, naming the roster and field', async () => {
    const run = await runCli(['balance', '--all', '--against', WARMASTER, '--budget', '100']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`${WARMASTER}: fielded: this roster fields each entry whole`);
  });
});
