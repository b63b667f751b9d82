import { byteLength, entries, isDirectory, isFile, readText, VolumeError } from './volume.js';

/**
 * `node:fs/promises` in the browser build, over the workbench's volume (web/platform/volume.ts):
 * the calls the CLI's readers make (stat, readFile, readdir), with Node's error codes, so their
 * messages ("file not found", "is a directory") read the same.
 */

interface Stats {
  readonly size: number;
  isFile(): boolean;
  isDirectory(): boolean;
}

export interface VolumeDirent {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

export async function stat(file: string): Promise<Stats> {
  if (isFile(file)) {
    const size = byteLength(await readText(file));
    return { size, isFile: () => true, isDirectory: () => false };
  }
  if (isDirectory(file)) return { size: 0, isFile: () => false, isDirectory: () => true };
  throw new VolumeError('ENOENT', file, 'no such file or directory');
}

export async function readFile(file: string): Promise<string> {
  return readText(file);
}

export async function readdir(directory: string, options?: { withFileTypes?: boolean }): Promise<string[] | VolumeDirent[]> {
  const found = entries(directory);
  if (options?.withFileTypes !== true) return found.map((entry) => entry.name);
  return found.map(({ name, folder }) => ({ name, isFile: () => !folder, isDirectory: () => folder }));
}

const readOnly = (file: string): VolumeError => new VolumeError('EROFS', file, 'the workbench writes no files (download them instead)');

export async function writeFile(file: string): Promise<never> {
  throw readOnly(file);
}

/** The CLI's atomic writer (sim/atomic-write.ts) opens, renames and removes: all refused, as writeFile is. */
export async function open(file: string): Promise<never> {
  throw readOnly(file);
}

export async function rename(file: string): Promise<never> {
  throw readOnly(file);
}

export async function rm(file: string): Promise<never> {
  throw readOnly(file);
}

export default { stat, readFile, readdir, writeFile, open, rename, rm };
