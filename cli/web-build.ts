import { existsSync } from 'node:fs';
import path from 'node:path';
import { InputError, ROOT_PATH } from '../input/errors.js';
import { PACKAGE_ROOT } from '../input/package-info.js';
import { buildIsFresh } from '../web/build-stamp.js';

/**
 * The workbench's build in dist/web. In a clone it is made again only when what it is built from
 * changed (web/build-stamp.ts); the published package ships the build without its sources or Vite,
 * and serves it as it is.
 */

export const WEB_CONFIG = path.join(PACKAGE_ROOT, 'web', 'vite.config.ts');
export const WEB_BUILD = path.join(PACKAGE_ROOT, 'dist', 'web');

/** Whether the page's sources are here to build from (a clone), not only its build (the published package). */
export const hasWebSources = (): boolean => existsSync(WEB_CONFIG);

export interface WebBuild {
  /** False when the build in dist/web was fresh (or, in the published package, shipped) and kept. */
  readonly built: boolean;
  readonly seconds: number;
}

/** Builds the page into dist/web when it is missing or stale, saying so through `report`. */
export async function ensureWebBuild(report: (text: string) => void = () => undefined): Promise<WebBuild> {
  const start = performance.now();
  if (!hasWebSources()) {
    if (existsSync(path.join(WEB_BUILD, 'index.html'))) return { built: false, seconds: (performance.now() - start) / 1000 };
    throw new InputError([
      {
        file: WEB_BUILD,
        path: ROOT_PATH,
        message:
          'the workbench page is not in this installation, nor its sources to build it from (npm run build:web in a clone of the repository makes it)',
      },
    ]);
  }
  if (await buildIsFresh(WEB_BUILD, PACKAGE_ROOT)) return { built: false, seconds: (performance.now() - start) / 1000 };
  report('building the workbench page (dist/web)…\n');
  // Vite is loaded only here: every other command's start-up pays nothing for it.
  const { build } = await import('vite');
  // 'error': the build's warnings (Node modules the page never calls, left out of the bundle) are expected.
  await build({ configFile: WEB_CONFIG, logLevel: 'error', build: { outDir: WEB_BUILD, emptyOutDir: true, reportCompressedSize: false } });
  const seconds = (performance.now() - start) / 1000;
  report(`built in ${seconds.toFixed(1)} s\n`);
  return { built: true, seconds };
}
