import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Download, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { startWorkbench, type Workbench } from '../../cli/commands/serve.js';
import { tableCsv } from '../../documents/table-model.js';
import { pageTableData, type ReportPage } from '../../reports/page-model.js';
import { encodeSetup, type Setup } from '../../web/app/share.js';
import { runCli } from '../helpers/capture.js';
import { chromiumPath } from '../helpers/installed.js';

/**
 * What the workbench's browser tests share (test/web/workbench.test.ts, designer-walks-*.test.ts):
 * the static build in dist/web (test/global-setup.ts made or found it fresh), served on loopback as
 * `crucible serve` serves it (its Content-Security-Policy header included), Debian's Chromium driven
 * by playwright-core, and the steps a person takes — open a link, change a field, download what a
 * button gives — beside the CLI's own output for the same files. Every page's console errors and
 * requests beyond its origin are collected for the file's last test. One session per test file.
 */

export const SCREENSHOTS = process.env.CRUCIBLE_SCREENSHOTS ?? path.join(os.tmpdir(), 'crucible-screenshots');
/** Trials of the Monte Carlo runs here: enough to compare bytes, few enough to keep the tests short. */
export const TRIALS = 20_000;

export interface WorkbenchSession {
  /** A temporary folder for downloads and the CLI's copies of edited files. */
  readonly directory: () => string;
  readonly consoleProblems: string[];
  readonly offOrigin: string[];
  openPage(hash?: string, width?: number): Promise<Page>;
  /** What a download button gives, as text. */
  downloadedText(page: Page, button: string): Promise<string>;
  /** Every table of a view's report, as its CSV downloads give them, in page order. */
  pageTables(page: Page, view: string): Promise<string[]>;
  /** The CLI's copy of a file the page edited (its relative data path made absolute by the caller: the numbers depend on the games, not on where the file lies). */
  cliCopy(name: string, text: string): Promise<string>;
}

/** Starts the server and the browser before the file's tests, and ends them after. */
export function useWorkbench(): WorkbenchSession {
  let directory = '';
  let server: Workbench | undefined;
  let origin = '';
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const consoleProblems: string[] = [];
  const offOrigin: string[] = [];
  beforeAll(async () => {
    directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-workbench-'));
    server = await startWorkbench({ port: 0, host: '127.0.0.1' }, { logLevel: 'error' });
    origin = server.url.replace(/\/$/, '');
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
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
    if (directory !== '') await rm(directory, { recursive: true, force: true });
  });
  return {
    directory: () => directory,
    consoleProblems,
    offOrigin,
    async openPage(hash = '', width = 1280) {
      if (context === undefined) throw new Error('the browser is not started');
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') consoleProblems.push(`${message.type()}: ${message.text()}`);
      });
      page.on('pageerror', (error) => consoleProblems.push(`page error: ${error.message}`));
      await page.goto(`${origin}/${hash}`);
      return page;
    },
    async downloadedText(page, button) {
      const [download] = (await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()])) as [
        Download,
        void,
      ];
      const file = path.join(directory, download.suggestedFilename());
      await download.saveAs(file);
      return readFile(file, 'utf8');
    },
    async pageTables(page, view) {
      const buttons = page.locator(`.${view} .report button.csv`);
      const tables: string[] = [];
      for (let index = 0; index < (await buttons.count()); index++) {
        const [download] = (await Promise.all([page.waitForEvent('download'), buttons.nth(index).click()])) as [Download, void];
        const file = path.join(directory, `table-${index}-${download.suggestedFilename()}`);
        await download.saveAs(file);
        tables.push(await readFile(file, 'utf8'));
      }
      return tables;
    },
    async cliCopy(name, text) {
      const file = path.join(directory, name);
      await writeFile(file, text);
      return file;
    },
  };
}

/** A link opening `file` (as a shared link does), with the tests' trials. */
export async function linkTo(file: string, setup: Partial<Setup> = {}): Promise<string> {
  return encodeSetup({ file, text: await readFile(file, 'utf8'), view: 'odds', method: 'auto', trials: TRIALS, ...setup });
}

export async function resultDone(page: Page): Promise<void> {
  // Generous: with the other browser files and the queue tests beside it, a loaded 2-core machine is slow to start a page.
  await page.locator('.odds .status[data-state="done"]').waitFor({ timeout: 45_000 });
}

/** The same tables from the CLI's JSON document, through the page its --report writes. */
export const reportTables = (report: ReportPage): string[] =>
  report.sections.flatMap((section) => {
    if (section.table === undefined) return [];
    return [tableCsv(pageTableData(section.table))];
  });

/** `crucible run <args> --json --quiet`'s output (the run must succeed). */
export const cliJson = async (args: readonly string[]): Promise<string> => {
  const run = await runCli(['run', ...args, '--json', '--quiet']);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
};

/** A command's --json document (the command must succeed). */
export async function cliDocument(args: readonly string[]): Promise<unknown> {
  const run = await runCli([...args, '--json']);
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

/** A field of the form changed as a person does: typed and left, or a box unticked. */
export async function setField(page: Page, id: string, value: string): Promise<void> {
  const field = page.locator(`#${id}`);
  if (value === 'untick') return field.uncheck();
  await field.fill(value);
  await field.press('Tab');
}

/** Waits, after `change`, for the odds of a run other than the one shown before it. */
export async function rerun(page: Page, change: () => Promise<void>): Promise<void> {
  const shown = await page.locator('.odds .status').getAttribute('data-run');
  await change();
  await page.locator(`.odds .status[data-state="done"]:not([data-run="${shown}"])`).waitFor({ timeout: 30_000 });
}

/** Waits for a view's run to end; a failed one fails the test with what the page says. */
export async function finished(page: Page, view: string): Promise<void> {
  const status = page.locator(`.${view} .status:is([data-state="done"], [data-state="failed"])`);
  await status.waitFor({ timeout: 60_000 });
  expect(await status.getAttribute('data-state'), (await page.locator(`.${view}`).textContent()) ?? '').toBe('done');
}
