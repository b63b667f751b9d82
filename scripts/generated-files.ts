import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Generated data files, for the converters (convert-warmaster.ts, convert-battleforge.ts): a map of
 * repository-relative path → text, written in place or checked against what is committed (`--check`).
 * `directory` is the folder of one-file-per-entry outputs (army or faction files), where a file no
 * entry produces any more is stale.
 */
export type GeneratedFiles = Map<string, string>;

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Files in `directory` that the conversion no longer produces. */
async function staleFiles(repository: string, directory: string, files: GeneratedFiles): Promise<string[]> {
  const present = await readdir(path.join(repository, directory)).catch(() => [] as string[]);
  return present.map((name) => `${directory}/${name}`).filter((file) => file.endsWith('.yaml') && !files.has(file));
}

/** Files that differ from what the conversion produces (missing, changed or stale). */
export async function outdatedFiles(repository: string, directory: string, files: GeneratedFiles): Promise<string[]> {
  const outdated: string[] = [];
  for (const [file, text] of files) if ((await readIfPresent(path.join(repository, file))) !== text) outdated.push(file);
  return [...outdated, ...(await staleFiles(repository, directory, files))];
}

/** Create a directory if missing (one level at a time: Node 20's recursive mkdir can spin under /proc). */
async function ensureDirectory(directory: string): Promise<void> {
  await mkdir(directory).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  });
}

/** Write every file (creating `directory` and its parent) and remove the stale ones. */
export async function writeGeneratedFiles(repository: string, directory: string, files: GeneratedFiles): Promise<void> {
  await ensureDirectory(path.join(repository, path.dirname(directory)));
  await ensureDirectory(path.join(repository, directory));
  for (const [file, text] of files) await writeFile(path.join(repository, file), text);
  for (const file of await staleFiles(repository, directory, files)) await rm(path.join(repository, file));
}
