import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
// @ts-expect-error: a plain .mjs script (no types); the one place that names the browser's path
import { CHROMIUM } from '../scripts/setup-browser.mjs';

/**
 * A report page as PDF (`crucible report … --pdf`), printed by the project's own headless Chromium
 * (Debian's, at $CRUCIBLE_CHROMIUM or /usr/bin/chromium: scripts/setup-browser.mjs installs it)
 * through playwright-core: the page's print stylesheet on landscape A4 or Letter — its question,
 * answer, charts (once rendered) and tables, a wide matrix in blocks of columns.
 */
export const PAPERS = ['a4', 'letter'] as const;
export type Paper = (typeof PAPERS)[number];

/** Why no PDF can be made here, said as the fix; undefined when Chromium is there. */
export function pdfProblem(): string | undefined {
  const executable = CHROMIUM as string;
  return existsSync(executable)
    ? undefined
    : `--pdf prints with Chromium, which is not at ${executable}: install it with \`node scripts/setup-browser.mjs\` (Debian's chromium), or name another with $CRUCIBLE_CHROMIUM`;
}

/** Each page (an .html file) printed to a PDF beside it; returns the PDFs' paths. */
export async function printPdfs(pages: readonly string[], paper: Paper): Promise<string[]> {
  const problem = pdfProblem();
  if (problem !== undefined) throw new Error(problem);
  let playwright: typeof import('playwright-core');
  try {
    playwright = await import('playwright-core');
  } catch {
    throw new Error(
      '--pdf drives Chromium with playwright-core, a development dependency of crucible: run `npm install` (with dev dependencies) first',
    );
  }
  const browser = await playwright.chromium.launch({ executablePath: CHROMIUM as string, args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext();
    const written: string[] = [];
    for (const html of pages) {
      const page = await context.newPage();
      try {
        await page.goto(pathToFileURL(html).href);
        // Every chart interactive (or failed: its static image stays): what a reader's browser would print.
        await page.waitForFunction(
          () => [...document.querySelectorAll('figure.chart')].every((figure) => figure.getAttribute('data-render') !== 'static'),
          undefined,
          { timeout: 60_000 },
        );
        const pdf = html.replace(/\.html$/, '.pdf');
        await page.pdf({
          path: pdf,
          format: paper === 'a4' ? 'A4' : 'Letter',
          landscape: true,
          printBackground: true,
          margin: { top: '10mm', right: '10mm', bottom: '10mm', left: '10mm' },
        });
        written.push(pdf);
      } finally {
        await page.close();
      }
    }
    return written;
  } finally {
    await browser.close();
  }
}
