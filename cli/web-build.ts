import { fileURLToPath } from 'node:url';
import { buildIsFresh } from '../web/build-stamp.js';

/** The workbench's build in dist/web, made again only when what it is built from changed (web/build-stamp.ts). */

export const WEB_CONFIG = fileURLToPath(new URL('../web/vite.config.ts', import.meta.url));
export const WEB_BUILD = fileURLToPath(new URL('../dist/web', import.meta.url));

export interface WebBuild {
  /** False when the build in dist/web was fresh and kept. */
  readonly built: boolean;
  readonly seconds: number;
}

/** Builds the page into dist/web when it is missing or stale, saying so through `report`. */
export async function ensureWebBuild(report: (text: string) => void = () => undefined): Promise<WebBuild> {
  const start = performance.now();
  if (await buildIsFresh(WEB_BUILD)) return { built: false, seconds: (performance.now() - start) / 1000 };
  report('building the workbench page (dist/web)…\n');
  // Vite is loaded only here: every other command's start-up pays nothing for it.
  const { build } = await import('vite');
  // 'error': the build's warnings (Node modules the page never calls, left out of the bundle) are expected.
  await build({ configFile: WEB_CONFIG, logLevel: 'error', build: { outDir: WEB_BUILD, emptyOutDir: true, reportCompressedSize: false } });
  const seconds = (performance.now() - start) / 1000;
  report(`built in ${seconds.toFixed(1)} s\n`);
  return { built: true, seconds };
}
