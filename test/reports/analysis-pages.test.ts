import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateText as matrixEstimateText } from '../../documents/matchup-tables.js';
import { analysisPage, writeAnalysisReport } from '../../reports/analysis-pages.js';
import type { Chart } from '../../reports/charts.js';
import { provenanceHtml } from '../../reports/page.js';
import { dataColumns } from '../../documents/table-model.js';
import { cellText, pageTableData } from '../../reports/page-model.js';
import { compileChart } from '../../reports/render.js';
import { type CliRun, runCli } from '../helpers/capture.js';
import { compareFixture, countBalanceFixture, FIXTURES, HOSTILE, matchupsFixture, sweepFixture, wholeBalanceFixture } from './documents.js';

/**
 * Pages from the analysis commands' JSON documents (reports/analysis-pages.ts) and `crucible
 * report` reading them, on synthetic documents whose numbers are known (test/reports/documents.ts):
 * the page must show what the document says — in words, with the chart and the table agreeing.
 */

const STACK_LINE = /^ {4}at /m;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'crucible-analysis-pages-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const chartsOf = (page: ReturnType<typeof analysisPage>): Chart[] =>
  page.sections.flatMap((section) => (section.chart === undefined ? [] : [section.chart]));
const dataOf = (chart: Chart | undefined): Record<string, unknown>[] =>
  (chart?.spec.data as { values: Record<string, unknown>[] } | undefined)?.values ?? [];

describe('analysis pages', () => {
  it('compile every chart of every kind without warnings, with unique chart ids', () => {
    for (const [kind, fixture] of Object.entries(FIXTURES)) {
      const charts = chartsOf(analysisPage(fixture()));
      expect(charts.length, kind).toBeGreaterThan(0);
      expect(new Set(charts.map((chart) => chart.id)).size, kind).toBe(charts.length);
      for (const chart of charts) expect(compileChart(chart).warnings, `${kind}: ${chart.id}`).toEqual([]);
    }
  });

  it('matchups: the heatmap and the matrix show the same rulebook numbers; a mirror of draws reads 50%; points fielded listed', () => {
    const document = matchupsFixture();
    const page = analysisPage(document);
    const [heatmap] = chartsOf(page);
    const cells = dataOf(heatmap);
    const knight = document.cells.find((cell) => cell.row === 'knight' && cell.column === 'goblin');
    const text = matrixEstimateText(knight!.combined.score, document.precision);
    expect(cells.find((cell) => cell.row === 'Knight' && cell.column === HOSTILE)?.text).toBe(text);
    // (700 + 600 wins + ½ (100 + 100) draws) / 2,000.
    expect(knight!.combined.score.value).toBeCloseTo(0.7, 12);
    const matrix = page.sections[0]?.table;
    // "vs …" heads each column: a narrow screen's card for a row then reads "vs Goblin: 70%", the row unit's score.
    expect(matrix?.columns).toEqual(['Unit', 'vs Knight', `vs ${HOSTILE}`, 'vs Shield Wall']);
    expect(matrix?.rows[0]?.map(cellText)).toEqual(['Knight', expect.stringMatching(/^50% ±/), text, expect.stringMatching(/^50% ±/)]);
    // Its CSV holds numbers where the page prints "70% ±3": each opponent's score and its interval's ends, as fractions.
    const numbers = dataColumns(pageTableData(matrix!));
    expect(numbers.names).toEqual([
      'Unit',
      'vs Knight',
      'vs Knight low',
      'vs Knight high',
      `vs ${HOSTILE}`,
      `vs ${HOSTILE} low`,
      `vs ${HOSTILE} high`,
      'vs Shield Wall',
      'vs Shield Wall low',
      'vs Shield Wall high',
    ]);
    const { interval } = knight!.combined.score;
    expect(numbers.rows[0]?.slice(4, 7)).toEqual([knight!.combined.score.value, interval.low, interval.high]);
    expect(numbers.rows.flat().filter((cell) => typeof cell === 'string')).toEqual(['Knight', HOSTILE, 'Shield Wall']);
    // Shield Wall draws everything: 50% in every cell, never 0%.
    expect(cells.filter((cell) => cell.row === 'Shield Wall').map((cell) => cell.value)).toEqual([0.5, 0.5, 0.5]);
    expect(page.sections[0]?.text).toMatch(/both ways.*1,000 trials each/s);
    expect(page.sections[1]?.table?.rows).toEqual([
      ['Knight', '4 × 16 = 64'],
      [HOSTILE, '12 × 5 = 60'],
      ['Shield Wall', '5 × 10 = 50'],
    ]);
    expect(page.sections[1]?.text).toContain('from 50 to 64 points');
    // P(win) on request: the all-draw pairings are then 0%.
    const win = analysisPage(document, { measure: 'win' });
    expect(
      dataOf(chartsOf(win)[0])
        .filter((cell) => cell.row === 'Shield Wall')
        .map((cell) => cell.value),
    ).toEqual([0, 0, 0]);
    expect(win.sections[0]?.heading).toBe('Chance to win, row unit against column unit');
  });

  it('compare: the difference is variant − baseline (right of 0: more with the variant); the table puts the baseline first', () => {
    const page = analysisPage(compareFixture());
    const rows = dataOf(chartsOf(page)[0]);
    expect(rows.map((row) => [row.outcome, row.difference])).toEqual([
      ['Side that won: Knights', 5],
      ['Rounds started', -0.1],
    ]);
    const table = page.sections[1]?.table;
    expect(table?.columns.slice(1, 4)).toEqual([
      'Baseline: as written',
      'Variant: least-damaged',
      'Difference, least-damaged − as written (95% interval)',
    ]);
    expect(table?.rows[0]?.slice(0, 4).map(cellText)).toEqual([
      'Side that won: Knights',
      '60% ±2',
      '65% ±2',
      '+5.00 points [+4.20, +5.80]',
    ]);
    expect(page.sections[0]?.text).toContain('sets Allocation = least-damaged');
  });

  it('sweep: a line per outcome against the field in words; an outcome that never changes is listed, not drawn', () => {
    const page = analysisPage(sweepFixture());
    const charts = chartsOf(page);
    expect(charts).toHaveLength(1);
    expect(JSON.stringify(charts[0]?.spec)).toContain('"title":"Knights › knights: models"');
    expect(dataOf(charts[0]).map((point) => [point.x, point.estimate])).toEqual([
      [3, 0.5],
      [4, 0.7],
      [5, 0.9],
    ]);
    expect(page.sections.at(-1)?.text).toBe('Not drawn: Rounds started (1 at every point).');
    expect(page.sections[0]?.table?.rows).toEqual([
      ['3', '50% ±2'],
      ['4', '70% ±2'],
      ['5', '90% ±2'],
    ]);
  });

  it('balance by count, one unit: the price list with its verdict, the score curve through the measured points with the ½ line at the even count, the opponents', () => {
    const page = analysisPage(countBalanceFixture());
    const charts = chartsOf(page);
    // One unit: no scatter (nothing to set it beside), its curve.
    expect(charts).toHaveLength(1);
    const curve = charts[0];
    expect(dataOf(curve).map((point) => [point.x, point.score])).toEqual([
      [3, 0.3],
      [4, 0.5],
      [5, 0.7],
    ]);
    expect(JSON.stringify(curve?.spec)).toContain('even: 4.00 models (15.0 points each)');
    expect(page.sections[0]?.text).toContain('1 over-costed');
    expect(page.sections[0]?.text).toContain('Over-costed: Knight 20 → 15.0.');
    expect(page.sections[0]?.table?.columns).toEqual([
      'Unit',
      'Published',
      'Proposed',
      '95% interval',
      'Change',
      'Verdict',
      'Score at published costs',
      'Replayed score',
    ]);
    expect(page.sections[0]?.table?.rows[0]).toEqual(['Knight', 20, '15.0', '[14.2, 15.8]', '−25%', 'over-costed', '30% ±1', '50.2% ±0.4']);
    expect(page.sections.map((section) => section.heading)).toEqual([
      'The price list',
      'The check: the proposed prices played again',
      'Knight: score by models fielded',
      'Knight: against each opponent alone',
    ]);
  });

  it('balance of whole units: the cost scatter colours each unit by its verdict, the held-out check and the round robin follow', () => {
    const page = analysisPage(wholeBalanceFixture());
    const scatter = chartsOf(page)[0];
    expect(dataOf(scatter).map((point) => [point.name, point.verdict])).toEqual([
      ['Knight', 'over-costed'],
      [HOSTILE, 'uncertain'],
      ['Shield Wall', 'under-costed'],
    ]);
    // An interval unbounded above is drawn to the top of the axis, and says so on hover.
    const wall = dataOf(scatter).find((point) => point.name === 'Shield Wall');
    expect(wall?.high).toBeGreaterThan(90);
    expect(Number.isFinite(wall?.high)).toBe(true);
    // An unbounded end reads as the tables print it (documents/balance-tables.ts's costRange decides "any price").
    expect(wall?.fittedText).toBe('90, from 62.0');
    expect(page.sections[1]?.heading).toBe('The check: pairings held out of the fit');
    expect(page.sections[1]?.text).toContain(
      'off by ±2.0 points (root mean square over 3 pairings), where the simulation noise alone would give ±1.0',
    );
    expect(page.sections.some((section) => section.heading.startsWith('Round robin: expected score'))).toBe(true);
    expect(page.sections[0]?.text).toMatch(
      /^At a tolerance of ±10% of the published cost: 1 under-costed, 1 over-costed, 1 uncertain and 0 fair, of 3\./,
    );
  });

  it('balance: a unit without a price is counted in the summary, not left out of it', () => {
    const document = wholeBalanceFixture();
    if (document.fielded !== 'whole') throw new Error('the fixture fields whole units');
    const unpriced = {
      ...document,
      units: [
        ...document.units,
        { id: 'rabble', name: 'Rabble', points: 20, published: 20, strength: -2, strengthStandardError: 0.05, lineWeight: 1 },
      ],
    };
    expect(analysisPage(unpriced).sections[0]?.text).toMatch(
      /^At a tolerance of ±10% of the published cost: 1 under-costed, 1 over-costed, 1 uncertain and 0 fair, 1 without a price \(see the table's note\), of 4\./,
    );
  });
});

describe('provenance', () => {
  const run = {
    scenario: 'Bowmen against Orcs',
    file: 'data/x.yaml',
    ruleset: 'battleforge',
    engineVersion: 'battleforge-1.0.0',
    seed: 1,
    trials: 20_000,
  };
  it('shows identical runs once, with how many', () => {
    const html = provenanceHtml(Array.from({ length: 18 }, () => run));
    expect(html.match(/<tr>/g)).toHaveLength(2);
    expect(html).toContain('<td class="num" data-label="runs">×18</td>');
  });
  it('says once what every run shares and tabulates only what varies', () => {
    const html = provenanceHtml([run, { ...run, seed: 2 }, { ...run, seed: 2 }]);
    expect(html).toContain(
      '<p>3 runs, all with scenario Bowmen against Orcs, file data/x.yaml, ruleset battleforge, engine version battleforge-1.0.0, trials 20,000; they differ in seed:</p>',
    );
    expect(html).toContain('<th>seed</th><th>runs</th>');
    expect(html).toContain('<td class="num" data-label="runs">×2</td>');
  });
});

describe('crucible report with analysis documents', () => {
  const cli = (...args: string[]): Promise<CliRun> => runCli(args);
  const save = async (name: string, value: unknown): Promise<string> => {
    const file = path.join(root, name);
    await writeFile(file, JSON.stringify(value));
    return file;
  };
  /** A minimal `crucible run --json` result. */
  const runResult = {
    scenario: 'A run',
    file: 'data/x.yaml',
    ruleset: 'heroic',
    engineVersion: 'heroic-1.1.0',
    seed: 1,
    trials: 10,
    metrics: [
      {
        name: 'won',
        kind: 'flag',
        description: 'won',
        trials: 10,
        mean: 0.5,
        sd: 0.5,
        standardError: 0.16,
        meanInterval: { low: 0.2, high: 0.8 },
        distribution: [
          { value: 0, label: 'no', count: 5, probability: 0.5, interval: { low: 0.2, high: 0.8 } },
          { value: 1, label: 'yes', count: 5, probability: 0.5, interval: { low: 0.2, high: 0.8 } },
        ],
        atLeast: [],
      },
    ],
  };

  it('writes a page per document, of every kind, and lists them in the index', async () => {
    const files = await Promise.all(Object.entries(FIXTURES).map(([kind, fixture]) => save(`${kind}.json`, fixture())));
    const out = path.join(root, 'out');
    const result = await cli('report', ...files, '--out', out);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const written = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => /^wrote (\S+) /.exec(line)?.[1] ?? '');
    expect(written).toHaveLength(files.length);
    const index = await readFile(path.join(out, 'index.html'), 'utf8');
    for (const page of written) {
      expect((await stat(page)).isFile()).toBe(true);
      expect(index).toContain(`href="${path.basename(page)}"`);
    }
  });

  it('refuses run results and analysis documents together, several documents under one --slug, and an unknown kind: exit 2, no stack trace', async () => {
    const matchups = await save('m.json', matchupsFixture());
    const runs = await save('run.json', runResult);
    const mixed = await cli('report', matchups, runs, '--out', path.join(root, 'never'));
    expect(mixed.status).toBe(2);
    expect(mixed.stderr).not.toMatch(STACK_LINE);
    expect(mixed.stderr).toBe(
      `${matchups}: (root): a matchups document cannot be reported together with run results (${runs}): run results make one page between them, an analysis a page of its own; run crucible report once for each\n`,
    );
    const compare = await save('c.json', compareFixture());
    const slug = await cli('report', matchups, compare, '--slug', 'one', '--out', path.join(root, 'never'));
    expect(slug.status).toBe(2);
    expect(slug.stderr).toMatch(/^error: --slug names one page, but these files hold 2 analysis documents/);
    const unknown = await save('u.json', { ...compareFixture(), kind: 'tournament' });
    const broken = await save('b.json', { ...matchupsFixture(), seating: 'sideways' });
    const bad = await cli('report', unknown, broken, '--out', path.join(root, 'never'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).not.toMatch(STACK_LINE);
    expect(bad.stderr.trimEnd().split('\n')).toEqual([
      `${unknown}: kind: must be "matchups", "compare", "sweep" or "balance" (what those commands print with --json), got "tournament"`,
      expect.stringMatching(new RegExp(`^${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: seating: `)),
    ]);
    expect(await stat(path.join(root, 'never')).catch(() => undefined)).toBeUndefined();
  });

  it('writes a page straight from a document (what --report DIR does)', async () => {
    const page = await writeAnalysisReport(sweepFixture(), path.join(root, 'direct'));
    expect(await readFile(page, 'utf8')).toContain('<h1>Knights against an Ogre: by models</h1>');
  });
});
