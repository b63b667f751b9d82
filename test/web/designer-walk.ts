import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { balanceDocumentSchema } from '../../documents/balance-document.js';
import { compareDocumentSchema } from '../../documents/compare-document.js';
import { matchupsDocumentSchema } from '../../documents/matchups-document.js';
import { balancePage } from '../../reports/balance-page.js';
import { comparePage } from '../../reports/compare-page.js';
import { matchupsPage } from '../../reports/matchups-page.js';
import { runCli } from '../helpers/capture.js';
import {
  cliDocument,
  cliJson,
  finished,
  linkTo,
  reportTables,
  rerun,
  resultDone,
  SCREENSHOTS,
  setField,
  type WorkbenchSession,
} from './browser-session.js';
import type { DesignerPath } from './designer-paths.js';

/**
 * A designer's path through every view of the workbench on one rule system
 * (test/web/designer-paths.ts), for designer-walks-*.test.ts: each number shown is the CLI's on the
 * same files. Each view is photographed into $CRUCIBLE_SCREENSHOTS when it is set.
 */

/** The rule systems each designer-walks-*.test.ts walks (two files, run side by side). */
export const WALKED_IN = { 'battleforge-epic': ['battleforge', 'epic'], 'heroic-warmaster': ['heroic', 'warmaster'] } as const;

/** The designer paths' runs: equal bytes need no more. */
const WALK_TRIALS = 2_000;

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
      if (by !== null)
        return by
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ');
      const labels = (element as HTMLInputElement).labels;
      if (labels !== null && labels !== undefined && labels.length > 0)
        return [...labels].map((found) => found.textContent ?? '').join(' ');
      return element.textContent ?? '';
    };
    return [...document.querySelectorAll('button, input:not([type="file"]), select, textarea, summary, a[href]')]
      .filter(visible)
      .map((element) => nameOf(element).replaceAll(/\s+/g, ' ').trim());
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
export async function designerPath(session: WorkbenchSession, walk: DesignerPath): Promise<void> {
  const { openPage, downloadedText, pageTables, cliCopy } = session;
  const page = await openPage(await linkTo(walk.scenario, { trials: WALK_TRIALS }));
  // The view's result alone (the editors beside and below it are as long as the scenario); only
  // when photographs are asked for ($CRUCIBLE_SCREENSHOTS): a dozen tall pages cost seconds of the suite's CPU.
  const photograph = async (view: string): Promise<void> => {
    if (process.env.CRUCIBLE_SCREENSHOTS !== undefined)
      await page
        .locator(view === 'odds' || view === 'replay' ? `section.${view}` : `section.${view} .report`)
        .screenshot({ path: path.join(SCREENSHOTS, `designer-${walk.system}-${view}.png`) });
  };
  const namesApart = async (view: string): Promise<void> =>
    expect(await repeatedControlNames(page), `controls sharing a name in ${walk.system} ${view}`).toEqual([]);
  await resultDone(page);

  await rerun(page, () => setField(page, walk.form.field, walk.form.value));
  await rerun(page, async () => {
    await page.getByRole('group', { name: 'Scenario: edit as' }).getByRole('button', { name: 'YAML' }).click();
    const text = await page.locator('#a-yaml').inputValue();
    expect(text).toContain(walk.yaml.from);
    await page.locator('#a-yaml').fill(`${text.replace(walk.yaml.from, walk.yaml.to)}${walk.variant.text ?? ''}`);
  });
  expect(await downloadedText(page, 'Results as JSON (as crucible run --json)')).toBe(
    await cliJson([walk.scenario, '--trials', String(WALK_TRIALS), '--set', walk.form.set, '--set', walk.yaml.set]),
  );
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
  const declared = compareDocumentSchema.parse(
    await cliDocument(['compare', cliScenario, '--variant', walk.variant.name, '--trials', String(WALK_TRIALS)]),
  );
  expect(await pageTables(page, 'compare')).toEqual(reportTables(comparePage(declared)));
  await namesApart('compare');

  await page.locator('#compare-against').selectOption('edited-copy');
  await page.locator('.compare .status[data-state="failed"]', { hasText: 'The copy is the same as the scenario' }).waitFor();
  await setField(page, walk.copy.field, walk.copy.value);
  await page.locator('.compare .status:not([data-state="failed"])').waitFor();
  await finished(page, 'compare');
  const withCopy = `${withData(edited).replace(/^variants:[\s\S]*$/m, '')}variants:\n  - name: edited-copy\n    set: ${JSON.stringify(walk.copy.set)}\n`;
  const compared = compareDocumentSchema.parse(
    await cliDocument([
      'compare',
      await cliCopy(`${walk.system}-compare.yaml`, withCopy),
      '--variant',
      'edited-copy',
      '--trials',
      String(WALK_TRIALS),
    ]),
  );
  expect(await pageTables(page, 'compare')).toEqual(reportTables(comparePage(compared)));
  await namesApart('compare (edited copy)');
  await photograph('compare');

  await page.getByRole('button', { name: 'Replay a trial' }).click();
  await setField(page, 'replay-trial', '3');
  const replayed = await runCli(['replay', cliScenario, '--trial', '3']);
  expect(replayed.status, replayed.stderr).toBe(0);
  const withoutFile = (text: string): string => text.replace(/^ {2}file .*\n/m, '');
  await expect
    .poll(async () => withoutFile(`${(await page.locator('.event-log').textContent()) ?? ''}`), { timeout: 20_000 })
    .toBe(withoutFile(replayed.stdout));
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
  expect(await downloadedText(page, 'Results as JSON (as crucible matchups --json)')).toBe(
    matchupsJson.stdout.replaceAll(JSON.stringify(rosterFile), JSON.stringify(roster.file)),
  );
  await namesApart('matchups');
  await photograph('matchups');
  if (!roster.balance) return page.close();

  // The roster as edited stays with the Balance view.
  await page.getByRole('button', { name: 'Balance and cost' }).click();
  await expect.poll(() => page.locator('#roster-yaml').inputValue()).toBe(rosterText);
  if (roster.budget !== undefined) await setField(page, 'balance-budget', String(roster.budget));
  await page.getByRole('button', { name: 'Make the price list' }).click();
  await finished(page, 'balance');
  const balance = balanceDocumentSchema.parse(
    await cliDocument([
      'balance',
      '--against',
      rosterFile,
      '-p',
      '0.05',
      ...(roster.budget === undefined ? [] : ['--budget', String(roster.budget)]),
    ]),
  );
  expect(await pageTables(page, 'balance')).toEqual(reportTables(balancePage(balance)));
  await namesApart('balance');
  await photograph('balance');
  await page.close();
}
