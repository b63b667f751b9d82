import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { balanceDocumentSchema } from '../../documents/balance-document.js';
import { costText } from '../../documents/balance-tables.js';
import { balancePage } from '../../reports/balance-page.js';
import { runCli } from '../helpers/capture.js';
import { cliJson, finished, linkTo, reportTables, resultDone, SCREENSHOTS, setField, TRIALS, useWorkbench } from './browser-session.js';

/**
 * The workbench as a person uses it, in headless Chromium (Debian's, driven by playwright-core)
 * against the static build in dist/web, served on loopback as `crucible serve` serves it
 * (test/web/browser-session.ts): a bundled scenario's result equals `crucible run --json`'s byte for
 * byte; a stat changed in the form moves it to what `crucible run --set` gives; a shared link
 * reproduces the view in a fresh page; a matchup heatmap runs and shows W/D/L on hover; keyboard
 * alone reaches and works the controls; a price list as crucible balance makes it; and what the page
 * is given is guarded: values the CLI refuses are refused with its words, a run can be stopped, a
 * link's bad fields are left out and said, a result of another setup is never shown as current, a
 * scenario imports with its own units file. (Every view on every rule system: designer-walks-*.test.ts.)
 * Throughout: no console error and no request leaving the page's origin. Screenshots at desktop and
 * phone widths go to $CRUCIBLE_SCREENSHOTS (or the system's temp folder).
 */

const session = useWorkbench();
const { openPage, downloadedText, pageTables, cliCopy } = session;
const OGRE = 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml';
const SINGLE_ATTACK = 'data/heroic/scenarios/uldar-splits-dice.yaml';

// One desktop page walks through the steps a designer takes, in order (each step starts where the
// last left it); a second, fresh page at phone width opens the link the first one shares.
describe('the workbench in a browser', () => {
  let page: Page;
  let shared: { link: string; json: string };

  beforeAll(async () => {
    page = await openPage(await linkTo(OGRE));
  });

  it("shows a bundled scenario's odds exactly as crucible run --json does; its YAML exports byte for byte", async () => {
    await resultDone(page);
    expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([OGRE, '--trials', String(TRIALS)]));
    expect(await downloadedText(page, 'Export YAML')).toBe(await readFile(OGRE, 'utf8'));
    // The chart downloads are real images: PNG bytes, SVG text.
    await page.locator('.chart-box svg').first().waitFor();
    expect((await downloadedText(page, 'PNG')).startsWith('\uFFFDPNG')).toBe(true);
    expect(await downloadedText(page, 'SVG')).toMatch(/^<svg[^>]*>/);
    // The table crucible run --out x.csv writes: numbers as numbers, the interval's ends in columns of their own.
    expect(await downloadedText(page, 'Results as CSV')).toBe(
      (await runCli(['run', OGRE, '--trials', String(TRIALS), '--quiet', '-w', '0', '--out', '-'])).stdout,
    );
  });

  it("moves the odds when a stat changes in the form, to what crucible run --set gives (a bad value gets the CLI's message)", async () => {
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
    const knightsWin = (json: string): number =>
      (JSON.parse(json) as { metrics: { distribution: { label: string; probability: number }[] }[] }).metrics[0]?.distribution.find(
        (entry) => entry.label === 'Sylvan Knights',
      )?.probability ?? Number.NaN;
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

  it("opens another bundled scenario from the menu: an exact answer, then Monte Carlo on the page's workers, each as the CLI gives it", async () => {
    await page.getByLabel('Open a scenario').selectOption(SINGLE_ATTACK);
    await page.locator('.odds .status[data-state="done"]', { hasText: /^Exact: / }).waitFor();
    expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(await cliJson([SINGLE_ATTACK]));
    await page.locator('#method').selectOption('mc');
    await page.locator('#trials').fill('150000');
    await page.locator('#trials').press('Tab');
    await page.locator('.odds .status[data-state="done"]', { hasText: '150,000 trials' }).waitFor();
    expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(
      await cliJson([SINGLE_ATTACK, '--method', 'mc', '--trials', '150000']),
    );
  });

  it("runs a roster's matchup heatmap, with wins, draws and losses on hover", async () => {
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
      const cellsOf = (line: string) =>
        [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)]
          .map((match) => (match[1] ?? '').replace(/^"|"$/g, '').replaceAll('""', '"'))
          .slice(0, -1);
      const [header, ...rows] = (await downloadedText(page, 'The price list: CSV')).trim().split(/\r?\n/).map(cellsOf);
      return new Map(rows.map((row) => [row[0] ?? '', Object.fromEntries((header ?? []).map((column, i) => [column, row[i] ?? '']))]));
    };
    /** The CLI on the same roster text (its relative data path made absolute: the numbers depend on the games, not on where the file lies). */
    const cliPriceList = async (text: string, relativeData: [string, string], args: readonly string[]) => {
      const file = await cliCopy(`roster-${args.length}.yaml`, text.replaceAll(relativeData[0], relativeData[1]));
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
    const kept = [
      'empire/halberdiers',
      'empire/knights',
      'empire/crossbowmen',
      'orcs/orc-warriors',
      'orcs/goblins',
      'orcs/trolls',
      'orcs/black-orcs',
      'orcs/wolf-riders',
      'high-elves/reavers',
      'high-elves/spearmen',
      'dwarfs/handgunners',
      'dwarfs/warriors',
    ];
    const warmaster = await editRoster((text) =>
      text.replace(
        /^entries:[\s\S]*$/m,
        (entries) =>
          `entries:\n${entries
            .split('\n')
            .filter((line) => kept.some((id) => line.includes(`id: ${id},`)))
            .join('\n')}\n`,
      ),
    );
    // Settings belong to the scenario opened: this one starts at ±2 points.
    await page.getByLabel('Each score within ±').selectOption('0.05');
    await page.getByLabel('Tolerance').fill('5');
    await page.getByLabel('Tolerance').press('Tab');
    await page.getByRole('button', { name: 'Make the price list' }).click();
    await page.locator('.balance .status[data-state="done"]').waitFor({ timeout: 60_000 });
    const shownWarmaster = await priceList();
    const cliWarmaster = await cliPriceList(
      warmaster,
      ['armies: ../armies', `armies: ${path.resolve('data/warmaster/armies')}`],
      ['--tolerance', '5'],
    );
    expect(shownWarmaster.size).toBe(kept.length);
    expect(cliWarmaster.units.every((unit) => unit.deserved !== undefined)).toBe(true);
    for (const unit of cliWarmaster.units) {
      expect(shownWarmaster.get(unit.name)?.Proposed).toBe(costText(unit.deserved ?? Number.NaN));
      expect(shownWarmaster.get(unit.name)?.Verdict?.startsWith(unit.verdict ?? '?')).toBe(true);
    }
    expect(await pageTables(page, 'balance')).toEqual(reportTables(balancePage(cliWarmaster)));
    await expect(page.locator('.balance').textContent()).resolves.toContain('The check: pairings held out of the fit');
    await page.screenshot({ path: path.join(SCREENSHOTS, 'workbench-balance-warmaster.png'), fullPage: true });
  });

  it('imports a YAML file and checks it as the CLI does', async () => {
    // Four knights in formation (three in the file): a valid scenario, so its odds are computed, not a stale result shown.
    const text = (await readFile(OGRE, 'utf8')).replace('models: 3', 'models: 4');
    await page.getByRole('button', { name: 'Odds' }).click();
    await page
      .locator('input[type="file"]')
      .setInputFiles({ name: 'my-fight.yaml', mimeType: 'application/yaml', buffer: Buffer.from(text) });
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
    // Back to the scenario's seed: the problem goes with the refused value.
    await setField(fresh, 'seed', '');
    await expect.poll(() => fresh.locator('#seed-problem').count()).toBe(0);
    await setField(fresh, 'trials', '2e12');
    expect(await fresh.locator('#trials-problem').textContent()).toMatch(/^Trials must be a whole number from 1 to 1e12/);
    await setField(fresh, 'trials', '1e12');
    // Said with the status shown if it does not come: under the full suite's load this wait once ran out.
    const status = async (): Promise<string> =>
      `status: ${(await fresh.locator('.odds .status').textContent()) ?? ''} (trials box: ${await fresh.locator('#trials').inputValue()})`;
    await fresh
      .locator('.odds .status', { hasText: 'of 1,000,000,000,000 trials, refining' })
      .waitFor({ timeout: 60_000 })
      .catch(async (error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n${await status()}`);
      });
    await fresh.getByRole('button', { name: 'Stop' }).click();
    await fresh.locator('.odds .status[data-state="done"]', { hasText: /^Stopped at [\d,]+ of 1,000,000,000,000 trials/ }).waitFor();
    await fresh.close();
  });

  it('stops a comparison and a round robin with Stop, saying nothing was kept', async () => {
    // A million paired trials and a 24-unit round robin at ±1 point: neither ends on its own within the test.
    const fresh = await openPage(await linkTo(OGRE, { view: 'compare', variant: 'no-regeneration', trials: 1_000_000 }));
    await fresh.locator('.compare .status[data-state="running"]').waitFor();
    await fresh.locator('.compare').getByRole('button', { name: 'Stop' }).click();
    await fresh.locator('.compare .status[data-state="stopped"]', { hasText: 'Stopped: nothing was kept.' }).waitFor();
    await fresh.getByRole('button', { name: 'Matchups' }).click();
    await fresh.getByLabel('Open a scenario').selectOption('data/warmaster/scenarios/cavalry-charge-infantry-open.yaml');
    await fresh.locator('#roster-choice').selectOption('data/warmaster/rosters/four-armies.yaml');
    await fresh.getByLabel('Each score within ±').selectOption('0.01');
    // The link opened the comparison, and the designer changed the view and setup since: the
    // matchups wait for their click (a link's own roster view runs at once, unchanged setup only).
    await expect.poll(() => fresh.getByRole('button', { name: 'Run the matchups' }).isEnabled(), { timeout: 60_000 }).toBe(true);
    await expect(fresh.locator('.matchups .status').getAttribute('data-state')).resolves.toBe('idle');
    await fresh.getByRole('button', { name: 'Run the matchups' }).click();
    await fresh.locator('.matchups .status[data-state="running"]').waitFor();
    await fresh.locator('.matchups').getByRole('button', { name: 'Stop' }).click();
    await fresh.locator('.matchups .status[data-state="stopped"]', { hasText: 'Stopped: nothing was kept.' }).waitFor();
    await expect(fresh.getByRole('button', { name: 'Run the matchups' }).isEnabled()).resolves.toBe(true);
    await fresh.close();
  });

  it('opens a shared Balance link with the fields the CLI refuses left out, said so, and runs it at once; a result of another setup is never shown as current', async () => {
    const roster = 'data/heroic/rosters/core.yaml';
    const rosterText = (await readFile(roster, 'utf8')).replace(
      /^entries:[\s\S]*$/m,
      'entries:\n  - { id: sylvan-knight, name: Sylvan Knight, count: 4, cost: 16 }\n  - { id: goblin, name: Goblin, count: 12, cost: 5 }\n  - { id: orc-barbarian, name: Orc Barbarian, count: 5, cost: 12 }\n',
    );
    const link = await linkTo(OGRE, {
      view: 'balance',
      roster,
      rosterFile: roster,
      rosterText,
      precision: 0.05,
      budget: 60,
      unit: 'goblin',
      trials: 10.5,
      seed: 'abc' as unknown as number,
    });
    const fresh = await openPage(link);
    const alert = fresh.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(
      /parts of its link could not be used:.*seed was left out: The seed must be a number, got "abc"\..*trials was left out: Trials must be a whole number from 1 to 1e12 .*got "10\.5"\./,
    );
    // No click: the link's view runs as the sharer saw it.
    await finished(fresh, 'balance');
    const file = await cliCopy(
      'shared-roster.yaml',
      rosterText.replace('unitsFile: ../units.yaml', `unitsFile: ${path.resolve('data/heroic/units.yaml')}`),
    );
    const cli = await runCli(['balance', 'goblin', '--against', file, '--budget', '60', '-p', '0.05', '--json']);
    expect(cli.status, cli.stderr).toBe(0);
    expect(await downloadedText(fresh, 'Results as JSON (as crucible balance --json)')).toBe(
      cli.stdout.replaceAll(JSON.stringify(file), JSON.stringify(roster)),
    );

    // A change of setting: the price shown is marked as of the setup before it, until run again.
    await setField(fresh, 'balance-tolerance', '5%');
    await fresh
      .locator('.balance .status[data-current="false"]', { hasText: 'These results are of the setup before your last change' })
      .waitFor();
    await expect.poll(() => fresh.locator('.balance [data-stale="true"] .report').count()).toBe(1);
    // Back to the setup it was of: current again, at once (kept for this visit).
    await setField(fresh, 'balance-tolerance', '10%');
    await fresh.locator('.balance .status[data-current="true"][data-state="done"]').waitFor();
    // Another rule system's scenario: its own roster, and no heroic price beside it.
    await fresh.getByLabel('Open a scenario').selectOption('data/warmaster/scenarios/cavalry-charge-infantry-open.yaml');
    await fresh.locator('.file-path', { hasText: 'warmaster: ' }).waitFor();
    await expect.poll(() => fresh.locator('#roster-choice').inputValue()).toMatch(/^data\/warmaster\/rosters\//);
    await expect.poll(() => fresh.locator('.balance .report').count()).toBe(0);
    await fresh.close();
  });

  it('imports a scenario with its own units file (both files at once), runs it as the CLI runs the pair, and shares both in its link', async () => {
    const units = (await readFile('data/heroic/units.yaml', 'utf8')).replace('id: sylvan-knight', 'id: my-knight');
    const scenario = (await readFile(OGRE, 'utf8'))
      .replace(/^sides:/m, 'unitsFile: my-units.yaml\nsides:')
      .replace('unit: sylvan-knight', 'unit: my-knight');
    const folder = path.join(session.directory(), 'own-units');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'my-units.yaml'), units);
    await writeFile(path.join(folder, 'my-ogre.yaml'), scenario);
    const fresh = await openPage(await linkTo(OGRE));
    await resultDone(fresh);
    // The scenario alone: the page says which file it lacks and how to give it.
    await fresh
      .locator('input[type="file"]')
      .setInputFiles({ name: 'my-ogre.yaml', mimeType: 'application/yaml', buffer: Buffer.from(scenario) });
    await fresh
      .getByRole('alert')
      .filter({ hasText: 'This scenario names a file the workbench does not have (my-units.yaml): import it together with the scenario' })
      .waitFor();
    await fresh.locator('input[type="file"]').setInputFiles([
      { name: 'my-units.yaml', mimeType: 'application/yaml', buffer: Buffer.from(units) },
      { name: 'my-ogre.yaml', mimeType: 'application/yaml', buffer: Buffer.from(scenario) },
    ]);
    await fresh.locator('.file-path', { hasText: 'data/heroic/scenarios/my-ogre.yaml' }).waitFor();
    await setField(fresh, 'trials', String(TRIALS));
    await fresh.locator('.odds .status[data-state="done"]', { hasText: `${TRIALS.toLocaleString('en')} trials` }).waitFor();
    const page = 'data/heroic/scenarios/my-ogre.yaml';
    const cli = (await cliJson([path.join(folder, 'my-ogre.yaml'), '--trials', String(TRIALS)])).replaceAll(
      path.join(folder, 'my-ogre.yaml'),
      page,
    );
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
    expect(session.consoleProblems).toEqual([]);
    expect(session.offOrigin).toEqual([]);
  });
});
