import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceDocumentSchema } from '../../analysis/balance-document.js';
import { compareDocumentSchema } from '../../analysis/compare-document.js';
import { matchupsDocumentSchema } from '../../analysis/matchups-document.js';
import { costText } from '../../analysis/balance-tables.js';
import { startWorkbench, type Workbench } from '../../cli/commands/serve.js';
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
 * against the static build in dist/web, served on loopback as `crucible serve` serves it (its
 * Content-Security-Policy header included):
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
let server: Workbench;
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
  // The build in dist/web test/global-setup.ts made (or found fresh), served as crucible serve serves it: with its headers.
  server = await startWorkbench({ port: 0, host: '127.0.0.1' }, { logLevel: 'error' });
  origin = server.url.replace(/\/$/, '');
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
 * The controls of the view on screen with the name a screen reader gives each (aria-label, else
 * aria-labelledby, else its label, else its text): two controls of one name cannot be told apart.
 */
async function repeatedControlNames(page: Page): Promise<string[]> {
  const names = await page.evaluate(() => {
    const visible = (element: Element): boolean => (element as HTMLElement).offsetParent !== null;
    const nameOf = (element: Element): string => {
      const label = element.getAttribute('aria-label');
      if (label !== null) return label;
      const by = element.getAttribute('aria-labelledby');
      if (by !== null) return by.split(' ').map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
      const labels = (element as HTMLInputElement).labels;
      if (labels !== null && labels !== undefined && labels.length > 0) return [...labels].map((found) => found.textContent ?? '').join(' ');
      return element.textContent ?? '';
    };
    return [...document.querySelectorAll('button, input:not([type="file"]), select, textarea, summary, a[href]')].filter(visible).map((element) => nameOf(element).replaceAll(/\s+/g, ' ').trim());
  });
  return [...new Set(names.filter((name, index) => names.indexOf(name) !== index))];
}

/**
 * One rule system as a designer works it (test/web/designer-paths.ts): Odds after a form edit and
 * a YAML edit (which also declares a variant where the file has none), Compare with that variant
 * and with an edited copy, one trial replayed, then Matchups and Balance on an edited roster; every
 * number shown is the CLI's on the same files (each table of a view equal to the one the CLI's JSON
 * gives, the replay's text equal to crucible replay's), no two controls of a view share a name,
 * and each view is photographed when asked.
 */
async function designerPath(walk: DesignerPath): Promise<void> {
  const page = await openPage(await linkTo(walk.scenario, { trials: WALK_TRIALS }));
  // The view's result alone (the editors beside and below it are as long as the scenario); only
  // when photographs are asked for ($CRUCIBLE_SCREENSHOTS): a dozen tall pages cost seconds of the suite's CPU.
  const photograph = async (view: string): Promise<void> => {
    if (process.env.CRUCIBLE_SCREENSHOTS !== undefined) await page.locator(view === 'odds' || view === 'replay' ? `section.${view}` : `section.${view} .report`).screenshot({ path: path.join(SCREENSHOTS, `designer-${walk.system}-${view}.png`) });
  };
  const namesApart = async (view: string): Promise<void> => expect(await repeatedControlNames(page), `controls sharing a name in ${walk.system} ${view}`).toEqual([]);
  await resultDone(page);

  await rerun(page, () => setField(page, walk.form.field, walk.form.value));
  await rerun(page, async () => {
    await page.getByRole('group', { name: 'Scenario: edit as' }).getByRole('button', { name: 'YAML' }).click();
    const text = await page.locator('#a-yaml').inputValue();
    expect(text).toContain(walk.yaml.from);
    await page.locator('#a-yaml').fill(`${text.replace(walk.yaml.from, walk.yaml.to)}${walk.variant.text ?? ''}`);
  });
  expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([walk.scenario, '--trials', String(WALK_TRIALS), '--set', walk.form.set, '--set', walk.yaml.set]));
  await page.locator('.odds .chart-box svg').first().waitFor();
  await namesApart('odds');
  await photograph('odds');

  // The CLI's copy of the scenario as edited, its data path made absolute.
  const edited = await downloadedText(page, 'Export YAML');
  expect(edited).toContain(walk.yaml.to);
  const [field, absolute] = walk.dataField;
  const withData = (text: string): string => text.replace(/^ruleset: .*\n/m, (line) => `${line}${field}: ${absolute}\n`);
  const cliScenario = await cliCopy(`${walk.system}-scenario.yaml`, withData(edited));

  await page.getByRole('button', { name: 'Compare two versions' }).click();
  await page.locator('#compare-against').selectOption(walk.variant.name);
  await finished(page, 'compare');
  const declared = compareDocumentSchema.parse(await cliDocument(['compare', cliScenario, '--variant', walk.variant.name, '--trials', String(WALK_TRIALS)]));
  expect(await pageTables(page, 'compare')).toEqual(reportTables(comparePage(declared)));
  await namesApart('compare');

  await page.locator('#compare-against').selectOption('edited-copy');
  await page.locator('.compare .status[data-state="failed"]', { hasText: 'The copy is the same as the scenario' }).waitFor();
  await setField(page, walk.copy.field, walk.copy.value);
  await page.locator('.compare .status:not([data-state="failed"])').waitFor();
  await finished(page, 'compare');
  const withCopy = `${withData(edited).replace(/^variants:[\s\S]*$/m, '')}variants:\n  - name: edited-copy\n    set: ${JSON.stringify(walk.copy.set)}\n`;
  const compared = compareDocumentSchema.parse(await cliDocument(['compare', await cliCopy(`${walk.system}-compare.yaml`, withCopy), '--variant', 'edited-copy', '--trials', String(WALK_TRIALS)]));
  expect(await pageTables(page, 'compare')).toEqual(reportTables(comparePage(compared)));
  await namesApart('compare (edited copy)');
  await photograph('compare');

  await page.getByRole('button', { name: 'Replay a trial' }).click();
  await setField(page, 'replay-trial', '3');
  const replayed = await runCli(['replay', cliScenario, '--trial', '3']);
  expect(replayed.status, replayed.stderr).toBe(0);
  const withoutFile = (text: string): string => text.replace(/^ {2}file .*\n/m, '');
  await expect.poll(async () => withoutFile(`${(await page.locator('.event-log').textContent()) ?? ''}`), { timeout: 20_000 }).toBe(withoutFile(replayed.stdout));
  await namesApart('replay');
  await photograph('replay');

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
  const matchupsJson = await runCli(['matchups', rosterFile, '-p', '0.05', '--json']);
  expect(matchupsJson.status, matchupsJson.stderr).toBe(0);
  const matchups = matchupsDocumentSchema.parse(JSON.parse(matchupsJson.stdout));
  expect(await pageTables(page, 'matchups')).toEqual(reportTables(matchupsPage(matchups)));
  // The JSON download is crucible matchups --json's document (the roster named by the page's path for it).
  expect(await downloadedText(page, 'Results as JSON (as crucible matchups --json)')).toBe(matchupsJson.stdout.replaceAll(JSON.stringify(rosterFile), JSON.stringify(roster.file)));
  await namesApart('matchups');
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
  await namesApart('balance');
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

  it('makes a price list in the Balance view after the roster is edited, as crucible balance does, fielded whole (Warmaster)', async () => {
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

    // (By count, on heroic, the designer's path walks it: test/web/designer-paths.ts.)
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

  it.each(DESIGNER_PATHS)('$system: the form, the YAML, a declared variant, an edited copy, a replay and an edited roster, each view as the CLI gives it', async (walk) => designerPath(walk), 90_000);

  it('refuses a seed or trials the CLI refuses, with its words beside the box, and stops a run that would never end', async () => {
    const fresh = await openPage(await linkTo(OGRE));
    await resultDone(fresh);
    const shown = await fresh.locator('.odds .status').getAttribute('data-run');
    await setField(fresh, 'seed', 'abc');
    const refused = await runCli(['run', OGRE, '--seed', 'abc']);
    expect(refused.status).toBe(2);
    const message = (await fresh.locator('#seed-problem').textContent()) ?? '';
    expect(message).toBe('The seed must be a whole number from 0 to 4294967295, got "abc".');
    expect(refused.stderr).toContain(message);
    await expect(fresh.locator('#seed').getAttribute('aria-invalid')).resolves.toBe('true');
    // Nothing started: the result shown is still the first run's.
    await expect(fresh.locator('.odds .status').getAttribute('data-run')).resolves.toBe(shown);
    await setField(fresh, 'seed', '');
    await setField(fresh, 'trials', '2e12');
    expect(await fresh.locator('#trials-problem').textContent()).toMatch(/^Trials must be a whole number from 1 to 1e12/);
    await setField(fresh, 'trials', '1e12');
    await fresh.locator('.odds .status', { hasText: 'of 1,000,000,000,000 trials, refining' }).waitFor();
    await fresh.getByRole('button', { name: 'Stop' }).click();
    await fresh.locator('.odds .status[data-state="done"]', { hasText: /^Stopped at [\d,]+ of 1,000,000,000,000 trials/ }).waitFor();
    await fresh.close();
  });

  it('opens a shared Balance link with the fields the CLI refuses left out, said so, and runs it at once; a result of another setup is never shown as current', async () => {
    const roster = 'data/heroic/rosters/core.yaml';
    const rosterText = (await readFile(roster, 'utf8')).replace(/^entries:[\s\S]*$/m, 'entries:\n  - { id: sylvan-knight, name: Sylvan Knight, count: 4, cost: 16 }\n  - { id: goblin, name: Goblin, count: 12, cost: 5 }\n  - { id: orc-barbarian, name: Orc Barbarian, count: 5, cost: 12 }\n');
    const link = await linkTo(OGRE, { view: 'balance', roster, rosterFile: roster, rosterText, precision: 0.05, budget: 60, unit: 'goblin', trials: 10.5, seed: 'abc' as unknown as number });
    const fresh = await openPage(link);
    const alert = fresh.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/parts of its link could not be used:.*seed was left out: The seed must be a number, got "abc"\..*trials was left out: Trials must be a whole number from 1 to 1e12 .*got "10\.5"\./);
    // No click: the link's view runs as the sharer saw it.
    await finished(fresh, 'balance');
    const file = await cliCopy('shared-roster.yaml', rosterText.replace('unitsFile: ../units.yaml', `unitsFile: ${path.resolve('data/heroic/units.yaml')}`));
    const cli = await runCli(['balance', 'goblin', '--against', file, '--budget', '60', '-p', '0.05', '--json']);
    expect(cli.status, cli.stderr).toBe(0);
    expect(await downloadedText(fresh, 'Results as JSON (as crucible balance --json)')).toBe(cli.stdout.replaceAll(JSON.stringify(file), JSON.stringify(roster)));

    // A change of setting: the price shown is marked as of the setup before it, until run again.
    await setField(fresh, 'balance-tolerance', '5%');
    await fresh.locator('.balance .status[data-current="false"]', { hasText: 'These results are of the setup before your last change' }).waitFor();
    await expect(fresh.locator('.balance [data-stale="true"] .report').count()).resolves.toBe(1);
    // Back to the setup it was of: current again, at once (kept for this visit).
    await setField(fresh, 'balance-tolerance', '10%');
    await fresh.locator('.balance .status[data-current="true"][data-state="done"]').waitFor();
    // Another rule system's scenario: its own roster, and no heroic price beside it.
    await fresh.getByLabel('Open a scenario').selectOption('data/warmaster/scenarios/cavalry-charge-infantry-open.yaml');
    await fresh.locator('.file-path', { hasText: 'warmaster: ' }).waitFor();
    await expect.poll(() => fresh.locator('#roster-choice').inputValue()).toMatch(/^data\/warmaster\/rosters\//);
    await expect(fresh.locator('.balance .report').count()).resolves.toBe(0);
    await fresh.close();
  });

  it('imports a scenario with its own units file (both files at once), runs it as the CLI runs the pair, and shares both in its link', async () => {
    const units = (await readFile('data/heroic/units.yaml', 'utf8')).replace('id: sylvan-knight', 'id: my-knight');
    const scenario = (await readFile(OGRE, 'utf8')).replace(/^sides:/m, 'unitsFile: my-units.yaml\nsides:').replace('unit: sylvan-knight', 'unit: my-knight');
    const folder = path.join(directory, 'own-units');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'my-units.yaml'), units);
    await writeFile(path.join(folder, 'my-ogre.yaml'), scenario);
    const fresh = await openPage(await linkTo(OGRE));
    await resultDone(fresh);
    // The scenario alone: the page says which file it lacks and how to give it.
    await fresh.locator('input[type="file"]').setInputFiles({ name: 'my-ogre.yaml', mimeType: 'application/yaml', buffer: Buffer.from(scenario) });
    await fresh.getByRole('alert').filter({ hasText: 'This scenario names a file the workbench does not have (my-units.yaml): import it together with the scenario' }).waitFor();
    await fresh.locator('input[type="file"]').setInputFiles([
      { name: 'my-units.yaml', mimeType: 'application/yaml', buffer: Buffer.from(units) },
      { name: 'my-ogre.yaml', mimeType: 'application/yaml', buffer: Buffer.from(scenario) },
    ]);
    await fresh.locator('.file-path', { hasText: 'data/heroic/scenarios/my-ogre.yaml' }).waitFor();
    await setField(fresh, 'trials', String(TRIALS));
    await fresh.locator('.odds .status[data-state="done"]', { hasText: `${TRIALS.toLocaleString('en')} trials` }).waitFor();
    const page = 'data/heroic/scenarios/my-ogre.yaml';
    const cli = (await cliJson([path.join(folder, 'my-ogre.yaml'), '--trials', String(TRIALS)])).replaceAll(path.join(folder, 'my-ogre.yaml'), page);
    expect(await downloadedText(fresh, 'Results as JSON (as crucible run --json)')).toBe(cli);
    await fresh.waitForFunction(() => location.hash.length > 10);
    const link = new URL(fresh.url()).hash;
    await fresh.close();
    const opened = await openPage(link);
    await resultDone(opened);
    expect(await downloadedText(opened, 'Results as JSON (as crucible run --json)')).toBe(cli);
    await opened.close();
  });

  it('logs no console error and requests nothing from another origin', () => {
    expect(consoleProblems).toEqual([]);
    expect(offOrigin).toEqual([]);
  });
});
