import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { PAGE_SOURCES } from './serving.js';

/**
 * Whether a build of the page is stale (Node side of web/vite.config.ts): each build leaves beside
 * the page a stamp holding a digest of its inputs — each file's path, size and modification time,
 * so checking costs a few hundred stat calls, not a read of every file. `crucible serve` builds
 * again when the stamp and the inputs disagree (cli/web-build.ts).
 */

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
/** In the build's folder: the inputs' digest at the build's start. */
export const STAMP_FILE = 'build-inputs.sha256';
/** Files outside PAGE_SOURCES that change the build: the dependencies' versions and the compiler's options. */
const ROOT_INPUTS = ['package-lock.json', 'tsconfig.json'];

/** Under web/ and data/ every file counts; elsewhere only source (reports/ also holds generated pages). */
const isInput = (folder: string, file: string): boolean => folder === 'web' || folder === 'data' || /\.tsx?$/.test(file);

async function filesUnder(folder: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const entries = await readdir(folder, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .map(async (entry) => {
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) return filesUnder(full);
        return entry.isFile() ? [full] : [];
      }),
  );
  return nested.flat();
}

/** The build's input files under `root`, as sorted paths relative to it. */
export async function buildInputs(root: string = REPOSITORY): Promise<string[]> {
  const found = await Promise.all(
    PAGE_SOURCES.map(async (folder) =>
      (await filesUnder(path.join(root, folder))).map((file) => path.relative(root, file)).filter((file) => isInput(folder, file)),
    ),
  );
  return [...found.flat(), ...ROOT_INPUTS.filter((file) => existsSync(path.join(root, file)))].sort();
}

/** SHA-256 over every input's path, size and modification time. */
export async function inputsDigest(root: string = REPOSITORY): Promise<string> {
  const lines = await Promise.all(
    (await buildInputs(root)).map(async (file) => {
      const { size, mtimeMs } = await stat(path.join(root, file));
      return `${file}\t${size}\t${mtimeMs}\n`;
    }),
  );
  return createHash('sha256').update(lines.join('')).digest('hex');
}

/** Whether `outDir` holds a page built from the inputs under `root` as they are now. */
export async function buildIsFresh(outDir: string, root: string = REPOSITORY): Promise<boolean> {
  if (!existsSync(path.join(outDir, 'index.html'))) return false;
  const stamp = await readFile(path.join(outDir, STAMP_FILE), 'utf8').catch(() => undefined);
  return stamp?.trim() === (await inputsDigest(root));
}

/**
 * Writes the stamp once the page is written (writeBundle: not after a failed build), with the
 * digest taken as the build started: an input edited meanwhile leaves the build stale, as it is.
 */
export function stampBuild(): Plugin {
  let digest: Promise<string> | undefined;
  return {
    name: 'crucible-build-stamp',
    apply: 'build',
    buildStart() {
      digest = inputsDigest();
    },
    async writeBundle(output) {
      if (digest === undefined || output.dir === undefined) return;
      await writeFile(path.join(output.dir, STAMP_FILE), `${await digest}\n`);
    },
  };
}
