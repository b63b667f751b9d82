import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { decode } from 'fast-png';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type MatchupsDocument, matchupsDocumentSchema } from '../../documents/matchups-document.js';
import { analysisPage } from '../../reports/analysis-pages.js';
import { writePage } from '../../reports/page.js';
import { PRINT_BLOCK_COLUMNS } from '../../reports/page-model.js';
import { printPdfs } from '../../reports/pdf.js';
import { outcomeFromCounts } from '../../statistics/outcome.js';
import { chromiumPath } from '../helpers/installed.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * A report page on paper: the four-armies Warmaster roster's 24×24 matrix (its real names, made-up
 * scores) printed on landscape A4 and Letter in headless Chromium (Debian's, installed by
 * test/global-setup.ts). Every column of the matrix is on paper: the matrix prints in blocks of
 * columns, each with the row labels and the header row, none reaching past the paper's edge or
 * taller than a page; each block's picture (PNG) shows text up to its right edge. `crucible report
 * --pdf`'s printer (reports/pdf.ts) writes a PDF of the page on the paper asked. The PNGs are saved
 * for a person to look at ($CRUCIBLE_SCREENSHOTS or the system's temp folder).
 */

/** The printable area of a landscape page at 96 px an inch, 10 mm margins: width × height. */
const PAPERS = {
  a4: { width: 1047, height: 718, points: [841.89, 595.28] },
  letter: { width: 980, height: 740, points: [792, 612] },
} as const;
const SCREENSHOTS = process.env.CRUCIBLE_SCREENSHOTS ?? path.join(os.tmpdir(), 'crucible-screenshots');

let directory: string;
let html: string;
let names: string[];
let browser: Browser;

/** The four-armies roster's 24 entries, each against each, scores spread from 5% to 95%. */
async function fourArmiesMatrix(): Promise<MatchupsDocument> {
  const roster = parse(await readFile(path.join(REPOSITORY, 'data/warmaster/rosters/four-armies.yaml'), 'utf8')) as {
    name: string;
    entries: { id: string; name: string; cost: number }[];
  };
  const entries = roster.entries.map((entry) => ({ id: entry.id, name: entry.name, count: 1, cost: entry.cost, points: entry.cost }));
  const cells = entries.flatMap((row, r) =>
    entries.map((column, c) => {
      const wins = r === c ? 50 : 5 + ((r * 7 + c * 13) % 91);
      return {
        row: row.id,
        column: column.id,
        combined: JSON.parse(JSON.stringify(outcomeFromCounts(wins, 0, 100 - wins))) as MatchupsDocument['cells'][number]['combined'],
      };
    }),
  );
  return matchupsDocumentSchema.parse({
    kind: 'matchups',
    roster: roster.name,
    file: 'data/warmaster/rosters/four-armies.yaml',
    ruleset: 'warmaster',
    engineVersion: 'warmaster-1.0.0',
    seating: 'both',
    seed: 1,
    trialsPerSeat: 50,
    precision: 0.14,
    entries,
    cells,
  });
}

beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-print-'));
  const document = await fourArmiesMatrix();
  names = document.entries.map((entry) => entry.name);
  html = await writePage(analysisPage(document, { slug: 'four-armies' }), directory);
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'] });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await rm(directory, { recursive: true, force: true });
});

interface Block {
  readonly headers: string[];
  readonly rowLabels: string[];
  readonly right: number;
  readonly height: number;
}

/** The matrix's print blocks as laid out on paper: headers, row labels, right edge and height. */
async function printedBlocks(page: Page): Promise<Block[]> {
  return page.$$eval('.print-block', (blocks) =>
    blocks.map((block) => {
      const box = block.getBoundingClientRect();
      const right = Math.max(...[...block.querySelectorAll('th, td')].map((cell) => cell.getBoundingClientRect().right));
      return {
        headers: [...block.querySelectorAll('thead th')].map((cell) => cell.textContent ?? ''),
        rowLabels: [...block.querySelectorAll('tbody tr td:first-child')].map((cell) => cell.textContent ?? ''),
        right,
        height: box.height,
      };
    }),
  );
}

/** Dark pixels (text) in the rightmost `share` of a PNG: a column cut off at the paper's edge would leave none. */
function inkAtRight(png: Buffer, share = 0.08): number {
  const image = decode(png);
  const channels = image.channels;
  let ink = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = Math.floor(image.width * (1 - share)); x < image.width; x++) {
      const i = (y * image.width + x) * channels;
      if ((image.data[i] as number) < 128 && (image.data[i + 1] as number) < 128 && (image.data[i + 2] as number) < 128) ink++;
    }
  }
  return ink;
}

describe('a report page printed', () => {
  it.each(['a4', 'letter'] as const)(
    'on landscape %s: the 24×24 matrix in blocks of columns, every column on paper, headers and row labels in each block',
    async (paper) => {
      const { width, height } = PAPERS[paper];
      const page = await browser.newPage();
      try {
        await page.emulateMedia({ media: 'print' });
        await page.setViewportSize({ width, height });
        await page.goto(pathToFileURL(html).href);
        await page.waitForFunction(
          () => [...document.querySelectorAll('figure.chart')].every((figure) => figure.getAttribute('data-render') !== 'static'),
          undefined,
          { timeout: 30_000 },
        );
        // The question and the answer print; the screen's wide table does not (its blocks do).
        expect(await page.isVisible('p.question')).toBe(true);
        const blocks = (await printedBlocks(page)).filter((block) => block.headers.length > 1 && block.rowLabels.length === names.length);
        expect(blocks.length).toBe(Math.ceil(names.length / PRINT_BLOCK_COLUMNS));
        const columns = blocks.flatMap((block) => block.headers.slice(1));
        expect(columns).toEqual(names.map((name) => `vs ${name}`));
        for (const block of blocks) {
          expect(block.headers[0]).toBe('Unit');
          expect(block.rowLabels).toEqual(names);
          expect(block.right).toBeLessThanOrEqual(width + 1);
          // A block fits one page: its header is never far from its rows.
          expect(block.height).toBeLessThanOrEqual(height);
        }
        // No table, chart or picture reaches past the paper's edge.
        const beyond = await page.$$eval(
          'table, figure.chart svg, figure.chart img',
          (elements, edge) => elements.filter((element) => element.getBoundingClientRect().right > edge).map((element) => element.tagName),
          width + 1,
        );
        expect(beyond).toEqual([]);
        // As pictures: each block shows text up to its right edge (its last column is there, not cut).
        const pictures = await page.$$('.print-block');
        for (const [b, picture] of pictures.entries()) {
          const png = await picture.screenshot({ path: path.join(SCREENSHOTS, `print-${paper}-block-${b + 1}.png`) });
          expect(decode(png).width).toBeLessThanOrEqual(width + 1);
          expect(inkAtRight(png)).toBeGreaterThan(50);
        }
        await page.screenshot({ path: path.join(SCREENSHOTS, `print-${paper}.png`), fullPage: true });
      } finally {
        await page.close();
      }
    },
    60_000,
  );

  it('crucible report --pdf: the page as a PDF on the paper asked, landscape, a few pages (not one per column strip)', async () => {
    for (const paper of ['a4', 'letter'] as const) {
      const [pdf] = await printPdfs([html], paper);
      expect(pdf).toBe(html.replace(/\.html$/, '.pdf'));
      const bytes = await readFile(pdf as string, 'latin1');
      const pages = bytes.match(/\/Type\s*\/Page(?!s)/g)?.length ?? 0;
      // The text, the heatmap, the matrix's two blocks, the points and the pairings: a handful of pages.
      expect(pages).toBeGreaterThanOrEqual(3);
      expect(pages).toBeLessThanOrEqual(8);
      const [long, short] = PAPERS[paper].points;
      const box = /\/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]/.exec(bytes);
      // (Chromium rounds A4 to whole hundredths of an inch: 842.88 × 595.92 points.)
      expect(Math.abs(Number(box?.[1]) - long)).toBeLessThan(2);
      expect(Math.abs(Number(box?.[2]) - short)).toBeLessThan(2);
      await writeFile(path.join(SCREENSHOTS, `four-armies-${paper}.pdf`), bytes, 'latin1');
    }
  });
});
