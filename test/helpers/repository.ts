import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The repository's root folder, wherever a test file sits below test/. */
export const REPOSITORY = path.resolve(import.meta.dirname, '../..');

/** Folders never walked (without git): installed packages, git's own, scratch and generated output. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', 'scratch', '.crucible-tmp', 'results']);
const TEXT_FILE = /\.(ts|mts|mjs|js|json|ya?ml|md|adoc|sh|tsv)$|^(run|LICENSE)$/;

export interface RepositoryTree {
  readonly folders: readonly string[];
  readonly files: readonly string[];
  /** The files whose text a person or a program reads (code, data, docs), as absolute paths. */
  readonly textFiles: readonly string[];
}

/**
 * Every folder and file of the repository: in a git checkout, the files git tracks and the new ones
 * it does not ignore (so the output of `npm start`, scratch/ and node_modules are left out); in a
 * copy without git, every file outside node_modules and the like.
 */
export function repositoryTree(): RepositoryTree {
  const files = gitFiles() ?? walkedFiles();
  const folders = new Set<string>([REPOSITORY]);
  for (const file of files)
    for (let folder = path.dirname(file); folder.startsWith(REPOSITORY) && !folders.has(folder); folder = path.dirname(folder))
      folders.add(folder);
  return { folders: [...folders], files, textFiles: files.filter((file) => TEXT_FILE.test(path.basename(file))) };
}

function gitFiles(): string[] | undefined {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: REPOSITORY,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return listed
      .split('\0')
      .filter((name) => name !== '')
      .map((name) => path.join(REPOSITORY, name))
      .filter((file) => existsSync(file));
  } catch {
    return undefined;
  }
}

function walkedFiles(): string[] {
  const files: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  walk(REPOSITORY);
  return files;
}
