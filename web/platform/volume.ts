/// <reference types="vite/client" />
import { normalize } from 'pathe';

/**
 * The workbench's files: the repository's data/ folder, bundled by the build (each file loaded
 * when first read), under the paths the CLI knows them by (`data/heroic/units.yaml`), plus the
 * files the designer edits or imports, which shadow a bundled file of the same path. The CLI's
 * readers (input/data-file.ts, input/scenario-file.ts, input/roster.ts) run unchanged on top: they
 * read through the platform (input/platform.ts), which the workbench's is this volume
 * (browser-platform.ts), so a scenario edited here is read, checked and loaded exactly as
 * `crucible run` reads it from disk.
 */

const bundledLoaders = import.meta.glob<string>('../../data/**/*.{yaml,yml,json}', { query: '?raw', import: 'default' });
const BUNDLED_PREFIX = '../../';

const bundled = new Map<string, () => Promise<string>>(
  Object.entries(bundledLoaders).map(([key, load]) => [key.slice(BUNDLED_PREFIX.length), load]),
);
const loadedText = new Map<string, string>();
const edited = new Map<string, string>();

/** A path as the volume keys it: relative, forward slashes, no `./` or `..` left. */
export function volumePath(file: string): string {
  const normalized = normalize(file).replace(/^\/+/, '').replace(/^\.\//, '');
  return normalized === '.' ? '' : normalized;
}

export class VolumeError extends Error {
  constructor(
    readonly code: 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EROFS',
    readonly path: string,
    message: string,
  ) {
    super(`${code}: ${message}, '${path}'`);
  }
}

export const isFile = (file: string): boolean => {
  const key = volumePath(file);
  return edited.has(key) || bundled.has(key);
};

/** A file the build bundled (the repository's data/), whether or not the designer's shadows it. */
export const isBundled = (file: string): boolean => bundled.has(volumePath(file));

/** Every file path and its ancestors are the volume's folders. */
export const isDirectory = (file: string): boolean => {
  const key = volumePath(file);
  if (key === '') return true;
  const prefix = `${key}/`;
  for (const name of edited.keys()) if (name.startsWith(prefix)) return true;
  for (const name of bundled.keys()) if (name.startsWith(prefix)) return true;
  return false;
};

export async function readText(file: string): Promise<string> {
  const key = volumePath(file);
  const own = edited.get(key);
  if (own !== undefined) return own;
  const known = loadedText.get(key);
  if (known !== undefined) return known;
  const load = bundled.get(key);
  if (load === undefined)
    throw new VolumeError(
      isDirectory(key) ? 'EISDIR' : 'ENOENT',
      file,
      isDirectory(key) ? 'illegal operation on a directory' : 'no such file or directory',
    );
  const text = await load();
  loadedText.set(key, text);
  return text;
}

/** The names directly inside `directory` and whether each is a folder, sorted. */
export function entries(directory: string): { name: string; folder: boolean }[] {
  const key = volumePath(directory);
  if (!isDirectory(key))
    throw new VolumeError(isFile(key) ? 'ENOTDIR' : 'ENOENT', directory, isFile(key) ? 'not a directory' : 'no such file or directory');
  const prefix = key === '' ? '' : `${key}/`;
  const found = new Map<string, boolean>();
  for (const name of [...bundled.keys(), ...edited.keys()]) {
    if (!name.startsWith(prefix)) continue;
    const rest = name.slice(prefix.length);
    const slash = rest.indexOf('/');
    found.set(slash < 0 ? rest : rest.slice(0, slash), slash >= 0 || found.get(rest) === true);
  }
  return [...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, folder]) => ({ name, folder }));
}

/** Write (or replace) a file of the designer's: it shadows a bundled file of the same path. */
export function writeText(file: string, text: string): void {
  edited.set(volumePath(file), text);
}

/** The bundled files under `directory` with one of `extensions`, sorted (for pickers). */
export function bundledFilesUnder(directory: string, extensions: readonly string[] = ['.yaml', '.yml', '.json']): string[] {
  const prefix = `${volumePath(directory)}/`;
  return [...bundled.keys()].filter((name) => name.startsWith(prefix) && extensions.some((extension) => name.endsWith(extension))).sort();
}

/** The size in bytes of a file's text (UTF-8), once read. */
export const byteLength = (text: string): number => new TextEncoder().encode(text).length;
