import { isDirectory, isFile } from './volume.js';

/** `node:fs` in the browser build: the synchronous checks, over the workbench's volume. */

export const existsSync = (file: string): boolean => isFile(file) || isDirectory(file);

export function statSync(file: string): { isFile(): boolean; isDirectory(): boolean } {
  return { isFile: () => isFile(file), isDirectory: () => isDirectory(file) };
}

export default { existsSync, statSync };
