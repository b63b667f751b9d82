import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchups } from '../../analysis/matchups.js';
import { loadRoster } from '../../analysis/roster.js';
import { runScenario } from '../../analysis/run.js';
import { distributionChart, heatmapChart } from '../../reports/charts.js';
import { writeIndex, writePage } from '../../reports/page.js';
import { loadScenarioFile } from '../../sim/scenario-file.js';
// @ts-expect-error: a plain .mjs script, no types
import { ensureChromium } from '../../scripts/setup-browser.mjs';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * The report in a real browser: a page with charts (one of them from a unit named like markup) is
 * written, opened from disk in headless Chromium (Debian's, installed by scripts/setup-browser.mjs
 * when missing, driven by playwright-core), and every chart must end interactive (vega-embed from
 * the report's own assets) with no console error and no network request. The screenshot is saved
 * for a person to look at: $CRUCIBLE_SCREENSHOTS or the system's temp folder.
 */

const repository = REPOSITORY;
let directory: string;
let executablePath: string;
const SCREENSHOTS = process.env.CRUCIBLE_SCREENSHOTS ?? path.join(os.tmpdir(), 'crucible-screenshots');

beforeAll(async () => {
  executablePath = ensureChromium() as string;
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-report-browser-'));
  const loaded = await loadScenarioFile(path.join(repository, 'data/heroic/scenarios/sylvan-knights-formation.yaml'));
  const result = await runScenario(loaded, { trials: 5000 });
  const roster = await loadRoster(path.join(repository, 'data/heroic/rosters/core.yaml'));
  const cells = await matchups(roster, { only: ['ogre', 'goblin'], trials: 2000 });
  const names = new Map([['ogre', 'Ogre <script>alert(1)</script>'], ['goblin', 'Goblin & "friends"']]);
  const winner = result.summary.find((summary) => summary.name === 'winner');
  const wounds = result.summary.find((summary) => summary.name === 'ogre.woundsTaken');
  if (winner === undefined || wounds === undefined) throw new Error('metrics missing');
  await writePage(
    {
      slug: 'browser-check',
      title: 'Browser check <b>not bold</b>',
      question: 'Do the charts render offline?',
      sections: [
        { heading: 'Winner', chart: distributionChart(winner, { id: 'winner' }) },
        { heading: 'Wounds', chart: distributionChart(wounds, { id: 'wounds' }) },
        { heading: 'Matchups', chart: heatmapChart(cells, names, { id: 'heatmap' }), table: { columns: ['a', 'b', 'p'], rows: cells.map((cell) => [names.get(cell.a) ?? cell.a, names.get(cell.b) ?? cell.b, cell.winProbability.toFixed(3)]) } },
      ],
      provenance: [{ scenario: result.scenario, file: 'data/heroic/scenarios/sylvan-knights-formation.yaml', ruleset: result.ruleset, engineVersion: result.engineVersion, seed: result.seed, trials: result.trials }],
      methods: ['browser test'],
    },
    directory,
  );
  await writeIndex(directory);
  await mkdir(SCREENSHOTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('the report in headless Chromium', () => {
  it('renders every chart interactively, offline, with no console error, and shows markup-like names as text', async () => {
    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('request', (request) => {
        if (!request.url().startsWith('file:')) requests.push(request.url());
      });
      await page.goto(pathToFileURL(path.join(directory, 'browser-check.html')).href);
      await page.waitForFunction(() => [...document.querySelectorAll('figure.chart')].every((figure) => figure.getAttribute('data-render') !== 'static'), undefined, { timeout: 30_000 });
      const states = await page.$$eval('figure.chart', (figures) => figures.map((figure) => figure.getAttribute('data-render')));
      expect(states).toEqual(['interactive', 'interactive', 'interactive']);
      expect(await page.$$eval('figure.chart .vega-view svg', (svgs) => svgs.length)).toBe(3);
      // Once interactive, the static fallback image is out of sight (each chart shows once).
      expect(await page.$$eval('img.static-chart', (images) => images.filter((image) => (image as HTMLElement).offsetParent !== null).length)).toBe(0);
      // The unit name is text in the table, not a script element or bold markup.
      expect(await page.$$eval('script', (scripts) => scripts.some((script) => script.textContent?.includes('alert(1)') === true && script.type !== 'application/json'))).toBe(false);
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
      await browser.close();
    }
  }, 120_000);
});
