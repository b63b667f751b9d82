import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The repository's root folder, wherever a test file sits below test/. */
export const REPOSITORY = path.resolve(import.meta.dirname, '../..');

/** Folders never walked: installed packages, git's own, scratch output. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'scratch', '.crucible-tmp']);
const TEXT_FILE = /\.(ts|mts|mjs|js|json|ya?ml|md|adoc|sh|tsv)$|^(run|LICENSE)$/;

export interface RepositoryTree {
  readonly folders: readonly string[];
  readonly files: readonly string[];
  /** The files whose text a person or a program reads (code, data, docs), as absolute paths. */
  readonly textFiles: readonly string[];
}

/** Every folder and file of the repository (outside node_modules and the like). */
export function repositoryTree(): RepositoryTree {
  const folders: string[] = [];
  const files: string[] = [];
  const walk = (directory: string): void => {
    folders.push(directory);
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(REPOSITORY);
  return { folders, files, textFiles: files.filter((file) => TEXT_FILE.test(path.basename(file))) };
}
