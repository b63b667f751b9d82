import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Download, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceDocumentSchema } from '../../analysis/balance-document.js';
import { compareDocumentSchema } from '../../analysis/compare-document.js';
import { matchupsDocumentSchema } from '../../analysis/matchups-document.js';
import { costText } from '../../analysis/balance-tables.js';
import { WEB_CONFIG } from '../../cli/commands/serve.js';
import { balancePage } from '../../reports/balance-page.js';
import { comparePage } from '../../reports/compare-page.js';
import { matchupsPage } from '../../reports/matchups-page.js';
import { type ReportPage, tableNumbers } from '../../reports/page-model.js';
import { csvText } from '../../web/app/download.js';
import { DESIGNER_PATHS, type DesignerPath } from './designer-paths.js';
import { chromiumPath } from '../helpers/installed.js';
import { encodeSetup, type Setup } from '../../web/app/share.js';
import { runCli } from '../helpers/capture.js';

/**
 * The workbench as a person uses it, in headless Chromium (Debian's, driven by playwright-core)
 * against the static build `npm run build:web` makes, served by Vite's preview server on loopback:
 * a bundled scenario's result equals `crucible run --json`'s byte for byte; a stat changed in the
 * form moves it to what `crucible run --set` gives; a shared link reproduces the view in a fresh
 * page; a matchup heatmap runs and shows W/D/L on hover; keyboard alone reaches and works the
 * controls; and on Battle Forge, Warmaster and Epic, a designer's path through every view after
 * editing the form, the YAML and the roster (test/web/designer-paths.ts), each table as the CLI's.
 * Throughout: no console error and no request leaving the page's origin. Screenshots at desktop and
 * phone widths go to $CRUCIBLE_SCREENSHOTS (or the system's temp folder); each view of the
 * designer's paths too, when $CRUCIBLE_SCREENSHOTS is set.
 */

const SCREENSHOTS = process.env.CRUCIBLE_SCREENSHOTS ?? path.join(os.tmpdir(), 'crucible-screenshots');
const OGRE = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const SINGLE_ATTACK = 'data/heroic/scenarios/uldar-splits-dice.yaml';

let directory: string;
let server: PreviewServer;
let origin: string;
let browser: Browser;
let context: BrowserContext;
const consoleProblems: string[] = [];
const offOrigin: string[] = [];

/** Trials of the Monte Carlo runs here: enough to compare bytes, few enough to keep the test short. */
const TRIALS = 20_000;
/** The designer paths' runs: equal bytes need no more. */
const WALK_TRIALS = 5_000;

/** A link opening `file` (as a shared link does), with the test's trials. */
async function linkTo(file: string, setup: Partial<Setup> = {}): Promise<string> {
  return encodeSetup({ file, text: await readFile(file, 'utf8'), view: 'odds', method: 'auto', trials: TRIALS, ...setup });
}

async function openPage(hash = '', width = 1280): Promise<Page> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleProblems.push(`page error: ${error.message}`));
  await page.goto(`${origin}/${hash}`);
  return page;
}

async function resultDone(page: Page): Promise<void> {
  await page.locator('.odds .status[data-state="done"]').waitFor({ timeout: 30_000 });
}

async function downloadedText(page: Page, button: string): Promise<string> {
  const [download] = (await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()])) as [Download, void];
  const file = path.join(directory, download.suggestedFilename());
  await download.saveAs(file);
  return readFile(file, 'utf8');
}

/** Every table of a view's report, as its CSV downloads give them, in page order. */
async function pageTables(page: Page, view: string): Promise<string[]> {
  const buttons = page.locator(`.${view} .report button.csv`);
  const tables: string[] = [];
  for (let index = 0; index < (await buttons.count()); index++) {
    const [download] = (await Promise.all([page.waitForEvent('download'), buttons.nth(index).click()])) as [Download, void];
    const file = path.join(directory, `table-${index}-${download.suggestedFilename()}`);
    await download.saveAs(file);
    tables.push(await readFile(file, 'utf8'));
  }
  return tables;
}

/** The same tables from the CLI's JSON document, through the page its --report writes. */
const reportTables = (report: ReportPage): string[] =>
  report.sections.flatMap((section) => {
    if (section.table === undefined) return [];
    const numbers = tableNumbers(section.table);
    return [csvText(numbers.columns, numbers.rows)];
  });

const cliJson = async (args: readonly string[]): Promise<string> => {
  const run = await runCli(['run', ...args, '--json', '--quiet']);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

beforeAll(async () => {
  const executablePath = chromiumPath();
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-workbench-'));
  const outDir = path.join(directory, 'web');
  // The shipped build (minified, as npm run build:web makes it), without the gzip sizes it would print.
  await build({ configFile: WEB_CONFIG, logLevel: 'error', build: { outDir, emptyOutDir: true, reportCompressedSize: false } });
  server = await preview({ configFile: WEB_CONFIG, logLevel: 'error', build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false, open: false } });
  origin = (server.resolvedUrls?.local[0] ?? '').replace(/\/$/, '');
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  context = await browser.newContext({ acceptDownloads: true });
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:')) offOrigin.push(url);
  });
  await mkdir(SCREENSHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

/** A field of the form changed as a person does: typed and left, or a box unticked. */
async function setField(page: Page, id: string, value: string): Promise<void> {
  const field = page.locator(`#${id}`);
  if (value === 'untick') return field.uncheck();
  await field.fill(value);
  await field.press('Tab');
}

/** Waits, after `change`, for the odds of a run other than the one shown before it. */
async function rerun(page: Page, change: () => Promise<void>): Promise<void> {
  const shown = await page.locator('.odds .status').getAttribute('data-run');
  await change();
  await page.locator(`.odds .status[data-state="done"]:not([data-run="${shown}"])`).waitFor({ timeout: 30_000 });
}

/** Waits for a view's run to end; a failed one fails the test with what the page says. */
async function finished(page: Page, view: string): Promise<void> {
  const status = page.locator(`.${view} .status:is([data-state="done"], [data-state="failed"])`);
  await status.waitFor({ timeout: 60_000 });
  expect(await status.getAttribute('data-state'), (await page.locator(`.${view}`).textContent()) ?? '').toBe('done');
}

/** The CLI's copy of a file the page edited (with its relative data path made absolute by the caller: the numbers depend on the games, not on where the file lies). */
async function cliCopy(name: string, text: string): Promise<string> {
  const file = path.join(directory, name);
  await writeFile(file, text);
  return file;
}

async function cliDocument(args: readonly string[]): Promise<unknown> {
  const run = await runCli([...args, '--json']);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

/**
 * One rule system as a designer works it (test/web/designer-paths.ts): Odds after a form edit and
 * a YAML edit, Compare with an edited copy, then Matchups and Balance on an edited roster; every
 * number shown is the CLI's on the same files (each table of a view equal to the one the CLI's
 * JSON gives), and each view is photographed.
 */
async function designerPath(walk: DesignerPath): Promise<void> {
  const page = await openPage(await linkTo(walk.scenario, { trials: WALK_TRIALS }));
  // The view's result alone (the editors beside and below it are as long as the scenario); only
  // when photographs are asked for ($CRUCIBLE_SCREENSHOTS): ten tall pages cost seconds of the suite's CPU.
  const photograph = async (view: string): Promise<void> => {
    if (process.env.CRUCIBLE_SCREENSHOTS !== undefined) await page.locator(view === 'odds' ? 'section.odds' : `section.${view} .report`).screenshot({ path: path.join(SCREENSHOTS, `designer-${walk.system}-${view}.png`) });
  };
  await resultDone(page);

  await rerun(page, () => setField(page, walk.form.field, walk.form.value));
  await rerun(page, async () => {
    await page.getByRole('group', { name: 'Scenario: edit as' }).getByRole('button', { name: 'YAML' }).click();
    const text = await page.locator('#a-yaml').inputValue();
    expect(text).toContain(walk.yaml.from);
    await page.locator('#a-yaml').fill(text.replace(walk.yaml.from, walk.yaml.to));
  });
  expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([walk.scenario, '--trials', String(WALK_TRIALS), '--set', walk.form.set, '--set', walk.yaml.set]));
  await page.locator('.odds .chart-box svg').first().waitFor();
  await photograph('odds');

  const edited = await downloadedText(page, 'Export YAML');
  expect(edited).toContain(walk.yaml.to);
  await page.getByRole('button', { name: 'Compare two versions' }).click();
  await page.locator('#compare-against').selectOption('edited-copy');
  await page.locator('.compare .status[data-state="failed"]', { hasText: 'The copy is the same as the scenario' }).waitFor();
  await setField(page, walk.copy.field, walk.copy.value);
  await page.locator('.compare .status:not([data-state="failed"])').waitFor();
  await finished(page, 'compare');
  const [field, absolute] = walk.dataField;
  const withVariant = `${edited.replace(/^ruleset: .*\n/m, (line) => `${line}${field}: ${absolute}\n`)}variants:\n  - name: edited-copy\n    set: ${JSON.stringify(walk.copy.set)}\n`;
  const compared = compareDocumentSchema.parse(await cliDocument(['compare', await cliCopy(`${walk.system}-compare.yaml`, withVariant), '--variant', 'edited-copy', '--trials', String(WALK_TRIALS)]));
  expect(await pageTables(page, 'compare')).toEqual(reportTables(comparePage(compared)));
  await photograph('compare');

  await page.getByRole('button', { name: 'Matchups' }).click();
  if (walk.roster === undefined) {
    await page.getByText('No bundled roster for this rule system.').waitFor();
    await page.close();
    return;
  }
  const { roster } = walk;
  await page.locator('#roster-choice').selectOption(roster.file);
  await page.getByText("The roster's YAML").click();
  const rosterText = roster.edit(await page.locator('#roster-yaml').inputValue());
  await page.locator('#roster-yaml').fill(rosterText);
  await page.locator('#roster-yaml').press('Tab');
  const rosterFile = await cliCopy(`${walk.system}-roster.yaml`, rosterText.replace(roster.dataField[0], roster.dataField[1]));
  await page.getByLabel('Each score within ±').selectOption('0.05');
  await page.getByRole('button', { name: 'Run the matchups' }).click();
  await finished(page, 'matchups');
  const matchups = matchupsDocumentSchema.parse(await cliDocument(['matchups', rosterFile, '-p', '0.05']));
  expect(await pageTables(page, 'matchups')).toEqual(reportTables(matchupsPage(matchups)));
  await photograph('matchups');
  if (!roster.balance) return page.close();

  // The roster as edited stays with the Balance view.
  await page.getByRole('button', { name: 'Balance and cost' }).click();
  await expect.poll(() => page.locator('#roster-yaml').inputValue()).toBe(rosterText);
  if (roster.budget !== undefined) await setField(page, 'balance-budget', String(roster.budget));
  await page.getByRole('button', { name: 'Make the price list' }).click();
  await finished(page, 'balance');
  const balance = balanceDocumentSchema.parse(await cliDocument(['balance', '--against', rosterFile, '-p', '0.05', ...(roster.budget === undefined ? [] : ['--budget', String(roster.budget)])]));
  expect(await pageTables(page, 'balance')).toEqual(reportTables(balancePage(balance)));
  await photograph('balance');
  await page.close();
}

// One desktop page walks through the steps a designer takes, in order (each step starts where the
// last left it); a second, fresh page at phone width opens the link the first one shares.
describe('the workbench in a browser', () => {
  let page: Page;
  let shared: { link: string; json: string };

  beforeAll(async () => {
    page = await openPage(await linkTo(OGRE));
  });

  it('shows a bundled scenario\'s odds exactly as crucible run --json does; its YAML exports byte for byte', async () => {
    await resultDone(page);
    expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([OGRE, '--trials', String(TRIALS)]));
    expect(await downloadedText(page, 'Export YAML')).toBe(await readFile(OGRE, 'utf8'));
    // The chart downloads are real images: PNG bytes, SVG text.
    await page.locator('.chart-box svg').first().waitFor();
    expect((await downloadedText(page, 'PNG')).startsWith('\uFFFDPNG')).toBe(true);
    expect(await downloadedText(page, 'SVG')).toMatch(/^<svg[^>]*>/);
    expect(await downloadedText(page, 'Results as CSV')).toMatch(/^metric,outcome,estimate,95% interval\r\n/);
  });

  it('moves the odds when a stat changes in the form, to what crucible run --set gives (a bad value gets the CLI\'s message)', async () => {
    const before = await downloadedText(page, 'Results as JSON (as crucible run --json)');
    // The knights' side: three models in formation → four.
    const shown = await page.locator('.odds .status').getAttribute('data-run');
    const models = page.locator('#a-sides-1-groups-0-models');
    // A bad value first: the CLI's own message, beside the field and under the form.
    await models.fill('0');
    await models.press('Tab');
    const refused = await runCli(['run', OGRE, '--set', 'sides[1].groups[0].models=0']);
    expect(refused.status).toBe(2);
    await expect(page.locator('.problems code').first().textContent()).resolves.toBe(refused.stderr.trim());
    await expect(models.getAttribute('aria-invalid')).resolves.toBe('true');
    await models.fill('4');
    await models.press('Tab');
    await page.locator(`.odds .status[data-state="done"]:not([data-run="${shown}"])`).waitFor();
    const after = await downloadedText(page, 'Results as JSON (as crucible run --json)');
    expect(after).toBe(await cliJson([OGRE, '--trials', String(TRIALS), '--set', 'sides[1].groups[0].models=4']));
    const knightsWin = (json: string): number => (JSON.parse(json) as { metrics: { distribution: { label: string; probability: number }[] }[] }).metrics[0]?.distribution.find((entry) => entry.label === 'Sylvan Knights')?.probability ?? Number.NaN;
    expect(knightsWin(after)).toBeGreaterThan(knightsWin(before));
    await page.locator('.chart-box svg').first().waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workbench-desktop.png'), fullPage: true });
    await page.waitForFunction(() => location.hash.length > 10);
    shared = { link: new URL(page.url()).hash, json: after };
  });

  it('is worked from the keyboard alone', async () => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const tabTo = async (name: string): Promise<void> => {
      for (let presses = 0; presses < 200; presses++) {
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => {
          const active = document.activeElement as HTMLElement | null;
          return active?.id || active?.textContent?.trim() || '';
        });
        if (focused === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('trials');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('5000');
    await page.keyboard.press('Enter');
    await page.locator('.odds .status', { hasText: '5,000 trials' }).waitFor();
    await tabTo('Compare two versions');
    await page.keyboard.press('Enter');
    await page.locator('.compare .status[data-state="done"]').waitFor({ timeout: 30_000 });
    await expect(page.locator('.compare').textContent()).resolves.toContain('no-regeneration');
    await tabTo('Odds');
    await page.keyboard.press('Space');
    await page.locator('.odds .status[data-state="done"]').waitFor();
  });

  it('opens another bundled scenario from the menu: an exact answer, then Monte Carlo on the page\'s workers, each as the CLI gives it', async () => {
    await page.getByLabel('Open a scenario').selectOption(SINGLE_ATTACK);
    await page.locator('.odds .status[data-state="done"]', { hasText: /^Exact: / }).waitFor();
    expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([SINGLE_ATTACK]));
    await page.locator('#method').selectOption('mc');
    await page.locator('#trials').fill('150000');
    await page.locator('#trials').press('Tab');
    await page.locator('.odds .status[data-state="done"]', { hasText: '150,000 trials' }).waitFor();
    expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([SINGLE_ATTACK, '--method', 'mc', '--trials', '150000']));
  });

  it('runs a roster\'s matchup heatmap, with wins, draws and losses on hover', async () => {
    await page.getByRole('button', { name: 'Matchups' }).click();
    await page.getByLabel('Each score within ±').selectOption('0.05');
    await page.getByRole('button', { name: 'Run the matchups' }).click();
    await page.locator('.matchups .status[data-state="done"]').waitFor({ timeout: 60_000 });
    // A cell's label (its text mark) sits over its square: hovering either shows the tooltip.
    await page.locator('.matchups .chart-box svg [aria-roledescription="text mark"]').first().hover();
    await expect(page.locator('#vg-tooltip-element').textContent()).resolves.toMatch(/Win\d+% ±[\d.]+Draw\d+% ±[\d.]+Loss\d+% ±[\d.]+/);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workbench-matchups.png'), fullPage: true });
  });

  it('makes a price list in the Balance view after the roster is edited, as crucible balance does: by count (heroic) and fielded whole (Warmaster)', async () => {
    /** The page's price list as CSV rows (unit → its cells), from the table's own download. */
    const priceList = async (): Promise<Map<string, Record<string, string>>> => {
      // A CSV line's cells: quoted ones may hold commas ("[5.85, 66.2]").
      const cellsOf = (line: string) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((match) => (match[1] ?? '').replace(/^"|"$/g, '').replaceAll('""', '"')).slice(0, -1);
      const [header, ...rows] = (await downloadedText(page, 'The price list: CSV')).trim().split(/\r?\n/).map(cellsOf);
      return new Map(rows.map((row) => [row[0] ?? '', Object.fromEntries((header ?? []).map((column, i) => [column, row[i] ?? '']))]));
    };
    /** The CLI on the same roster text (its relative data path made absolute: the numbers depend on the games, not on where the file lies). */
    const cliPriceList = async (text: string, relativeData: [string, string], args: readonly string[]) => {
      const file = path.join(directory, `roster-${args.length}.yaml`);
      await writeFile(file, text.replaceAll(relativeData[0], relativeData[1]));
      const run = await runCli(['balance', '--against', file, '-p', '0.05', '-w', '0', '--json', ...args]);
      expect(run.status, run.stderr).toBe(0);
      return balanceDocumentSchema.parse(JSON.parse(run.stdout));
    };
    const editRoster = async (edit: (text: string) => string): Promise<string> => {
      await page.getByText("The roster's YAML").click();
      const text = edit(await page.locator('#roster-yaml').inputValue());
      await page.locator('#roster-yaml').fill(text);
      await page.locator('#roster-yaml').press('Tab');
      return text;
    };

    // Heroic, by count: three entries of the bundled roster, the Goblin's cost edited from 5 to 7.
    await page.getByRole('button', { name: 'Balance and cost' }).click();
    const heroic = await editRoster((text) => text.replace(/^entries:[\s\S]*$/m, 'entries:\n  - { id: sylvan-knight, name: Sylvan Knight, count: 4, cost: 16 }\n  - { id: goblin, name: Goblin, count: 12, cost: 7 }\n  - { id: orc-barbarian, name: Orc Barbarian, count: 5, cost: 12 }\n'));
    await page.getByLabel('Each score within ±').selectOption('0.05');
    await page.getByRole('button', { name: 'Make the price list' }).click();
    await page.locator('.balance .status[data-state="done"]').waitFor({ timeout: 60_000 });
    const shownHeroic = await priceList();
    const cliHeroic = await cliPriceList(heroic, ['unitsFile: ../units.yaml', `unitsFile: ${path.resolve('data/heroic/units.yaml')}`], ['--budget', '60']);
    expect([...shownHeroic.keys()].sort()).toEqual(['Goblin', 'Orc Barbarian', 'Sylvan Knight']);
    for (const unit of cliHeroic.units) {
      expect(shownHeroic.get(unit.name)?.Proposed).toBe(costText(unit.deserved ?? Number.NaN));
      expect(shownHeroic.get(unit.name)?.Published).toBe(String(unit.published));
    }
    expect(shownHeroic.get('Goblin')?.Published).toBe('7');
    expect(await pageTables(page, 'balance')).toEqual(reportTables(balancePage(cliHeroic)));
    await expect(page.locator('.balance').textContent()).resolves.toContain('The check: the proposed prices played again');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workbench-balance-heroic.png'), fullPage: true });

    // Warmaster, fielded whole: a scenario of its own opens its rosters; twelve entries of the four armies (enough for the list's cost line to rise clearly).
    await page.getByRole('button', { name: 'Odds' }).click();
    await page.getByLabel('Open a scenario').selectOption('data/warmaster/scenarios/cavalry-charge-infantry-open.yaml');
    await page.locator('.file-path', { hasText: 'warmaster: ' }).waitFor();
    await page.getByRole('button', { name: 'Balance and cost' }).click();
    await page.locator('#roster-choice').selectOption('data/warmaster/rosters/four-armies.yaml');
    const kept = ['empire/halberdiers', 'empire/knights', 'empire/crossbowmen', 'orcs/orc-warriors', 'orcs/goblins', 'orcs/trolls', 'orcs/black-orcs', 'orcs/wolf-riders', 'high-elves/reavers', 'high-elves/spearmen', 'dwarfs/handgunners', 'dwarfs/warriors'];
    const warmaster = await editRoster((text) => text.replace(/^entries:[\s\S]*$/m, (entries) => `entries:\n${entries.split('\n').filter((line) => kept.some((id) => line.includes(`id: ${id},`))).join('\n')}\n`));
    // Settings belong to the scenario opened: this one starts at ±2 points.
    await page.getByLabel('Each score within ±').selectOption('0.05');
    await page.getByLabel('Tolerance').fill('5');
    await page.getByLabel('Tolerance').press('Tab');
    await page.getByRole('button', { name: 'Make the price list' }).click();
    await page.locator('.balance .status[data-state="done"]').waitFor({ timeout: 60_000 });
    const shownWarmaster = await priceList();
    const cliWarmaster = await cliPriceList(warmaster, ['armies: ../armies', `armies: ${path.resolve('data/warmaster/armies')}`], ['--tolerance', '5']);
    expect(shownWarmaster.size).toBe(kept.length);
    expect(cliWarmaster.units.every((unit) => unit.deserved !== undefined)).toBe(true);
    for (const unit of cliWarmaster.units) {
      expect(shownWarmaster.get(unit.name)?.Proposed).toBe(costText(unit.deserved ?? Number.NaN));
      expect(shownWarmaster.get(unit.name)?.Verdict?.startsWith(unit.verdict ?? '?')).toBe(true);
    }
    expect(await pageTables(page, 'balance')).toEqual(reportTables(balancePage(cliWarmaster)));
    await expect(page.locator('.balance').textContent()).resolves.toContain('The check: pairings held out of the fit');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workbench-balance-warmaster.png'), fullPage: true });
  }, 120_000);

  it('imports a YAML file and checks it as the CLI does', async () => {
    // Four knights in formation (three in the file): a valid scenario, so its odds are computed, not a stale result shown.
    const text = (await readFile(OGRE, 'utf8')).replace('models: 3', 'models: 4');
    await page.getByRole('button', { name: 'Odds' }).click();
    await page.locator('input[type="file"]').setInputFiles({ name: 'my-fight.yaml', mimeType: 'application/yaml', buffer: Buffer.from(text) });
    // Kept beside the bundled scenarios, so its `../units.yaml` resolves as on disk.
    await page.locator('.file-path', { hasText: 'data/heroic/scenarios/my-fight.yaml' }).waitFor();
    await expect(page.locator('#a-sides-1-groups-0-models').inputValue()).resolves.toBe('4');
    await page.locator('.odds .status[data-state="done"]', { hasText: /Monte Carlo/ }).waitFor();
    expect(await downloadedText(page, 'Export YAML')).toBe(text);
  });

  it('reproduces the shared view from its link in a fresh page, at phone width, nothing wider than the screen', async () => {
    const fresh = await openPage(shared.link, 390);
    await resultDone(fresh);
    await expect(fresh.locator('#a-sides-1-groups-0-models').inputValue()).resolves.toBe('4');
    expect(await downloadedText(fresh, 'Results as JSON (as crucible run --json)')).toBe(shared.json);
    await fresh.screenshot({ path: path.join(SCREENSHOTS, 'workbench-phone.png'), fullPage: true });
    const overflow = await fresh.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'the page is wider than a phone').toBeLessThanOrEqual(0);
    await fresh.close();
  });

  it.each(DESIGNER_PATHS)('$system: the form, the YAML, an edited copy and an edited roster, each view as the CLI gives it', async (walk) => designerPath(walk), 60_000);

  it('logs no console error and requests nothing from another origin', () => {
    expect(consoleProblems).toEqual([]);
    expect(offOrigin).toEqual([]);
  });
});
