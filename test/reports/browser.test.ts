import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outcomeFromCounts } from '../../statistics/outcome.js';
import { runScenario } from '../../sim/run-scenario.js';
import { analysisPage } from '../../reports/analysis-pages.js';
import { distributionChart, heatmapChart } from '../../reports/charts.js';
import { writeIndex, writePage } from '../../reports/page.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { chromiumPath } from '../helpers/installed.js';
import { REPOSITORY } from '../helpers/repository.js';
import { FIXTURES } from './documents.js';

/**
 * The report in a real browser: pages written to disk — one with charts of a run (one of them a
 * unit named like markup), and one per kind of analysis document (matchups, compare, sweep,
 * balance by count and of whole units) — opened from disk in headless Chromium (Debian's, installed
 * once before any test file by test/global-setup.ts, driven by playwright-core). Every chart must end
 * interactive (vega-embed from the report's own assets) with no console error and no network
 * request; hovering a heatmap cell shows its win, draw and loss; at 420 px wide no table is cut off
 * (each reflows, or scrolls, within the page) and nothing widens the page. The first page's
 * screenshot is saved for a person to look at ($CRUCIBLE_SCREENSHOTS or the system's temp folder);
 * with $CRUCIBLE_SCREENSHOTS set, every analysis page's too, at 420 and 1280 px.
 */

const repository = REPOSITORY;
/** A 24-unit roster's matrix, as the matchups page prints it: on paper it must fit a landscape page. */
const WIDE_NAMES = Array.from(
  { length: 24 },
  (_, i) => `${['Halberdiers (Empire)', 'Troll Slayers (Dwarfs)', 'Silver Helms (High Elves)', 'Wolf Chariots (Orcs)'][i % 4]} ${i + 1}`,
);
const WIDE_MATRIX = {
  heading: 'A 24-unit matrix',
  table: {
    columns: ['Unit', ...WIDE_NAMES.map((name) => `vs ${name}`)],
    rows: WIDE_NAMES.map((name) => [name, ...WIDE_NAMES.map(() => '50% ±2')]),
  },
};
let directory: string;
let executablePath: string;
let browser: Browser;
/** One context for every page: the vega bundles are parsed and cached once, not once per page. */
let context: BrowserContext;
const SCREENSHOTS = process.env.CRUCIBLE_SCREENSHOTS ?? path.join(os.tmpdir(), 'crucible-screenshots');
/** Every page written, by slug. */
const pages: string[] = [];

beforeAll(async () => {
  executablePath = chromiumPath();
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-report-browser-'));
  const loaded = await loadScenarioFile(path.join(repository, 'data/heroic/scenarios/sylvan-knights-formation.yaml'));
  const result = await runScenario(loaded, { trials: 5000 });
  const winner = result.summary.find((summary) => summary.name === 'winner');
  const wounds = result.summary.find((summary) => summary.name === 'ogre.woundsTaken');
  if (winner === undefined || wounds === undefined) throw new Error('metrics missing');
  const ogre = 'Ogre <script>alert(1)</script>';
  const goblin = 'Goblin & "friends"';
  const seat = (wins: number, draws: number) => outcomeFromCounts(wins, draws, 1000 - wins - draws);
  const cells = [
    { row: ogre, column: ogre, combined: seat(300, 400) },
    { row: ogre, column: goblin, combined: seat(800, 100) },
    { row: goblin, column: ogre, combined: seat(100, 100) },
    { row: goblin, column: goblin, combined: seat(450, 100) },
  ];
  await writePage(
    {
      slug: 'browser-check',
      title: 'Browser check <b>not bold</b>',
      question: 'Do the charts render offline?',
      sections: [
        { heading: 'Winner', chart: distributionChart(winner, { id: 'winner' }) },
        { heading: 'Wounds', chart: distributionChart(wounds, { id: 'wounds' }) },
        {
          heading: 'Matchups',
          chart: heatmapChart(cells, { id: 'heatmap', rowTitle: 'Unit', columnTitle: 'Opponent' }),
          table: {
            columns: ['unit', 'opponent', 'score'],
            rows: cells.map((cell) => [cell.row, cell.column, cell.combined.score.value.toFixed(3)]),
          },
        },
      ],
      provenance: [
        {
          scenario: result.scenario,
          file: 'data/heroic/scenarios/sylvan-knights-formation.yaml',
          ruleset: result.ruleset,
          engineVersion: result.engineVersion,
          seed: result.seed,
          trials: result.trials,
        },
      ],
      methods: ['browser test'],
    },
    directory,
  );
  pages.push('browser-check');
  // Every analysis page's sections on one page: the same charts, tables and styles as the five pages,
  // at the cost of loading vega once (about 1.3 s a page load here) instead of five times.
  const analyses = Object.values(FIXTURES).map((fixture) => analysisPage(fixture()));
  await writePage(
    {
      slug: 'analysis-pages',
      title: 'Every kind of analysis page',
      question: analyses.map((page) => page.title).join('; '),
      sections: [
        ...analyses.flatMap((page) => page.sections.map((section) => ({ ...section, heading: `${page.slug}: ${section.heading}` }))),
        WIDE_MATRIX,
      ],
      provenance: analyses.flatMap((page) => page.provenance),
      methods: analyses.flatMap((page) => page.methods),
    },
    directory,
  );
  pages.push('analysis-pages');
  await writeIndex(directory);
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
  context = await browser.newContext();
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await rm(directory, { recursive: true, force: true });
});

interface Opened {
  readonly page: Page;
  readonly errors: string[];
  readonly requests: string[];
}

/** A page of the report at a viewport width, once every chart has rendered (or failed). */
async function open(slug: string, width: number): Promise<Opened> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => {
    if (!request.url().startsWith('file:')) requests.push(request.url());
  });
  await page.goto(pathToFileURL(path.join(directory, `${slug}.html`)).href);
  await page.waitForFunction(
    () => [...document.querySelectorAll('figure.chart')].every((figure) => figure.getAttribute('data-render') !== 'static'),
    undefined,
    { timeout: 30_000 },
  );
  return { page, errors, requests };
}

describe('the report in headless Chromium', () => {
  it('renders every chart interactively, offline, with no console error, and shows markup-like names as text', async () => {
    const { page, errors, requests } = await open('browser-check', 1200);
    try {
      const states = await page.$$eval('figure.chart', (figures) => figures.map((figure) => figure.getAttribute('data-render')));
      expect(states).toEqual(['interactive', 'interactive', 'interactive']);
      expect(await page.$$eval('figure.chart .vega-view svg', (svgs) => svgs.length)).toBe(3);
      // Once interactive, the static fallback image is out of sight (each chart shows once).
      expect(
        await page.$$eval('img.static-chart', (images) => images.filter((image) => (image as HTMLElement).offsetParent !== null).length),
      ).toBe(0);
      // The unit name is text in the table, not a script element or bold markup.
      expect(
        await page.$$eval('script', (scripts) =>
          scripts.some((script) => script.textContent?.includes('alert(1)') === true && script.type !== 'application/json'),
        ),
      ).toBe(false);
      expect(await page.textContent('body')).toContain('Ogre <script>alert(1)</script>');
      expect(await page.$$eval('h1 b', (bold) => bold.length)).toBe(0);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
      const screenshot = path.join(SCREENSHOTS, 'browser-check.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      expect((await stat(screenshot)).size).toBeGreaterThan(10_000);
      // The index links the page.
      await page.goto(pathToFileURL(path.join(directory, 'index.html')).href);
      expect(await page.$$eval('a[href="browser-check.html"]', (links) => links.length)).toBeGreaterThan(0);
    } finally {
      await page.close();
    }
  });

  it('renders the pages of every kind of analysis document: charts interactive, no errors; at 420 px no table cut off and nothing wider than the screen; W/D/L on hover over a heatmap cell; printed, a 24-column matrix within a landscape page', async () => {
    const slug = 'analysis-pages';
    // Opened once, narrow first, then widened in place.
    const { page, errors, requests } = await open(slug, 420);
    let hovered = false;
    try {
      const states = await page.$$eval('figure.chart', (figures) => figures.map((figure) => figure.getAttribute('data-render')));
      // The heatmap, the difference chart, the sweep, one unit's curve (by count: one unit, no scatter), and the whole-unit roster's cost scatter and heatmap.
      expect(states).toHaveLength(6);
      expect(new Set(states)).toEqual(new Set(['interactive']));
      // At 420 px every table reflows to fit its box (and would scroll inside it otherwise): no body cell lies beyond the box's right edge.
      // (The header row of a reflowed table is hidden off screen for screen readers: only body cells count.)
      const clipped = await page.$$eval('.table-wrap', (wraps) =>
        wraps.flatMap((wrap) => {
          const box = wrap.getBoundingClientRect();
          const overflow = getComputedStyle(wrap).overflowX;
          const beyond = [...wrap.querySelectorAll('td')].filter(
            (cell) => cell.getBoundingClientRect().width > 0 && cell.getBoundingClientRect().right > box.right + 1,
          );
          return overflow !== 'auto' || beyond.length > 0
            ? [
                `${wrap.querySelector('th')?.textContent ?? '?'}: overflow ${overflow}, ${beyond.length} cells beyond ${Math.round(box.right)} px`,
              ]
            : [];
        }),
      );
      expect(await page.$$eval('.table-wrap', (wraps) => wraps.length)).toBeGreaterThan(10);
      expect(clipped).toEqual([]);
      const widest = () => page.evaluate(() => document.documentElement.scrollWidth);
      expect(await widest()).toBeLessThanOrEqual(420);
      if (process.env.CRUCIBLE_SCREENSHOTS !== undefined)
        await page.screenshot({ path: path.join(SCREENSHOTS, `${slug}-420.png`), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await widest()).toBeLessThanOrEqual(1280);
      if (process.env.CRUCIBLE_SCREENSHOTS !== undefined)
        await page.screenshot({ path: path.join(SCREENSHOTS, `${slug}-1280.png`), fullPage: true });
      // The cell's number (a text mark) lies over its rectangle and carries the same tooltip.
      await page.locator('figure.chart .vega-view svg .mark-rect path').first().hover({ force: true, timeout: 20_000 });
      const tooltip = page.locator('#vg-tooltip-element');
      await tooltip.waitFor({ state: 'visible', timeout: 20_000 });
      const text = (await tooltip.textContent()) ?? '';
      for (const line of ['Expected score (win + ½ draw)', 'Win', 'Draw', 'Loss', 'Row seated first', 'Row seated second', 'Trials'])
        expect(text).toContain(line);
      hovered = true;
      // Printed (a landscape A4 page is 1047 px between its margins): every table and chart lies within the paper, none cut at its edge.
      await page.emulateMedia({ media: 'print' });
      await page.setViewportSize({ width: 1047, height: 740 });
      const beyond = await page.$$eval('table, figure.chart svg, figure.chart img', (elements) =>
        elements
          .filter((element) => element.getBoundingClientRect().right > 1048)
          .map((element) => element.closest('section')?.querySelector('h2')?.textContent ?? element.tagName),
      );
      expect(beyond).toEqual([]);
      expect(errors).toEqual([]);
      expect(requests).toEqual([]);
    } finally {
      await page.close();
    }
    expect(hovered).toBe(true);
  });
});
