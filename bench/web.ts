import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { WEB_CONFIG } from '../cli/commands/serve.js';
// @ts-expect-error: a plain .mjs script, no types
import { ensureChromium } from '../scripts/setup-browser.mjs';
import { encodeSetup } from '../web/app/share.js';
import { median } from './measure.js';

/**
 * The workbench (issue 19), from its static build in headless Chromium on this machine: the bytes
 * a first visit loads before its first result shows (raw and gzipped; vega follows, for the
 * charts) beside the whole build, and the time from navigation to the
 * first result on screen — an exact answer (a single attack) and a 100,000-trial Monte Carlo run
 * (an engagement to the end, on the page's Web Workers) — the median of fresh page loads.
 */

export interface WebResult {
  readonly firstLoadBytes: number;
  readonly firstLoadGzipBytes: number;
  readonly buildBytes: number;
  readonly buildGzipBytes: number;
  readonly exactMilliseconds: number[];
  readonly monteCarloMilliseconds: number[];
}

const EXACT = 'data/heroic/scenarios/uldar-splits-dice.yaml';

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

export async function measureWeb(repetitions: number, log: (line: string) => void): Promise<WebResult> {
  const executablePath = ensureChromium() as string;
  const directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-bench-web-'));
  const outDir = path.join(directory, 'web');
  try {
    await build({ configFile: WEB_CONFIG, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    let buildBytes = 0;
    let buildGzipBytes = 0;
    for (const file of await filesUnder(outDir)) {
      buildBytes += (await stat(file)).size;
      buildGzipBytes += gzipSync(await readFile(file)).length;
    }
    const server = await preview({
      configFile: WEB_CONFIG,
      logLevel: 'error',
      build: { outDir },
      preview: { port: 0, host: '127.0.0.1', strictPort: false, open: false },
    });
    const origin = server.resolvedUrls?.local[0] ?? '';
    const browser = await chromium.launch({
      executablePath,
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
    const exactLink = await encodeSetup({ file: EXACT, text: await readFile(EXACT, 'utf8'), view: 'odds', method: 'auto' });
    const exactMilliseconds: number[] = [];
    const monteCarloMilliseconds: number[] = [];
    let firstLoadBytes = 0;
    let firstLoadGzipBytes = 0;
    try {
      for (let repetition = 0; repetition < repetitions; repetition++) {
        for (const kind of ['exact', 'mc'] as const) {
          // A new context each time: nothing cached, as a first visit.
          const context = await browser.newContext();
          const page = await context.newPage();
          // The files asked for before the first numbers showed (a page script reports that moment
          // on the console): vega, for the charts, is asked for by the charts drawn with those
          // numbers, so it never counts, however soon it arrives.
          const requested = new Set<string>();
          let numbersShown = false;
          page.on('request', (request) => {
            if (!numbersShown) requested.add(new URL(request.url()).pathname);
          });
          page.on('console', (message) => {
            if (message.text() === 'bench: first numbers') numbersShown = true;
          });
          await page.addInitScript(() => {
            const observer = new MutationObserver(() => {
              if (document.querySelector('.odds table.results') === null) return;
              observer.disconnect();
              console.debug('bench: first numbers');
            });
            observer.observe(document, { childList: true, subtree: true });
          });
          const started = performance.now();
          // The exact case opens on a link to its scenario, as a shared link would.
          await page.goto(kind === 'exact' ? `${origin}${exactLink}` : origin);
          await page.locator('.odds .status[data-state="done"]').waitFor({ timeout: 60_000 });
          (kind === 'exact' ? exactMilliseconds : monteCarloMilliseconds).push(performance.now() - started);
          if (repetition === 0 && kind === 'mc') {
            if (!numbersShown) throw new Error('the page never reported its first numbers');
            for (const pathname of requested) {
              const file = path.join(outDir, pathname === '/' ? 'index.html' : pathname);
              const bytes = await readFile(file).catch(() => undefined);
              if (bytes === undefined) continue;
              firstLoadBytes += bytes.length;
              firstLoadGzipBytes += gzipSync(bytes).length;
            }
          }
          await context.close();
        }
      }
    } finally {
      await browser.close();
      await server.close();
    }
    log(
      `workbench: a first visit loads ${(firstLoadBytes / 1e6).toFixed(2)} MB (${(firstLoadGzipBytes / 1e6).toFixed(2)} MB gzipped) before its first result, of a ${(buildBytes / 1e6).toFixed(2)} MB build (${(buildGzipBytes / 1e6).toFixed(2)} MB gzipped)`,
    );
    return { firstLoadBytes, firstLoadGzipBytes, buildBytes, buildGzipBytes, exactMilliseconds, monteCarloMilliseconds };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

export function webLines(result: WebResult): string[] {
  const ms = (values: number[]): string => `${Math.round(median(values))} ms (${values.map((value) => Math.round(value)).join(', ')})`;
  return [
    `workbench bundle: a first visit loads ${(result.firstLoadGzipBytes / 1e3).toFixed(0)} KB gzipped (${(result.firstLoadBytes / 1e3).toFixed(0)} KB raw) before its first result (vega, for the charts, follows); the whole build ${(result.buildGzipBytes / 1e3).toFixed(0)} KB gzipped (${(result.buildBytes / 1e3).toFixed(0)} KB raw, every bundled data file included)`,
    `workbench time to first result, fresh page load: exact (a single attack) ${ms(result.exactMilliseconds)}; 100,000-trial engagement by Monte Carlo on the page's workers ${ms(result.monteCarloMilliseconds)}`,
  ];
}
