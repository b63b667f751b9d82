import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
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

/** Files whose committed text differs from `files` (missing or changed); also used by scripts/docs-tables.ts. */
export async function changedFiles(repository: string, files: GeneratedFiles): Promise<string[]> {
  const changed: string[] = [];
  for (const [file, text] of files) if ((await readIfPresent(path.join(repository, file))) !== text) changed.push(file);
  return changed;
}

/** Files that differ from what the conversion produces (missing, changed or stale). */
async function outdatedFiles(repository: string, directory: string, files: GeneratedFiles): Promise<string[]> {
  return [...(await changedFiles(repository, files)), ...(await staleFiles(repository, directory, files))];
}

/** Create a directory if missing (one level at a time: Node 20's recursive mkdir can spin under /proc). */
async function ensureDirectory(directory: string): Promise<void> {
  await mkdir(directory).catch((error: unknown) => {
    if ((error as { code?: unknown }).code !== 'EEXIST') throw error;
  });
}

/** Write every file (creating `directory` and its parent) and remove the stale ones. */
async function writeGeneratedFiles(repository: string, directory: string, files: GeneratedFiles): Promise<void> {
  await ensureDirectory(path.join(repository, path.dirname(directory)));
  await ensureDirectory(path.join(repository, directory));
  for (const [file, text] of files) await writeFile(path.join(repository, file), text);
  for (const file of await staleFiles(repository, directory, files)) await rm(path.join(repository, file));
}

/** A converter as the shared command line sees it. */
export interface Converter<Result extends { readonly files: GeneratedFiles }> {
  /** The script, e.g. `scripts/convert-warmaster.ts`. */
  readonly script: string;
  readonly repository: string;
  /** The one-file-per-entry output folder (stale files there are removed or reported). */
  readonly directory: string;
  readonly defaultSource: string;
  readonly convert: (source: string) => Promise<Result>;
  /** The converter's own error for bad source data: its message and how many problems. */
  readonly sourceProblems: (error: unknown) => { readonly message: string; readonly count: number } | undefined;
  /** Printed after `wrote` / `up to date:`, and warnings to print first. */
  readonly summary: (result: Result) => string;
  readonly alsoWrote: string;
  readonly warnings?: (result: Result) => readonly string[];
}

/** Why `directory` cannot be read as a folder, or undefined when it can. */
async function notADirectory(directory: string): Promise<string | undefined> {
  try {
    return (await stat(directory)).isDirectory() ? undefined : 'not a directory';
  } catch (error) {
    return (error as { code?: unknown }).code === 'ENOENT' ? 'no such directory' : (error as Error).message;
  }
}

/** Where a converter prints: the process's streams, or a test's capture. */
export interface ScriptIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: ScriptIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * `npx tsx <script> [--check] [source-directory]`: convert, then write the files, or with --check
 * exit 1 if the committed files differ. Returns the exit status.
 */
export async function runConverter<Result extends { readonly files: GeneratedFiles }>(
  converter: Converter<Result>,
  argv: readonly string[],
  io: ScriptIo = processIo,
): Promise<number> {
  const usage = `usage: npx tsx ${converter.script} [--check] [source-directory]`;
  const check = argv.includes('--check');
  const positional = argv.filter((argument) => !argument.startsWith('--'));
  const unknown = argv.filter((argument) => argument.startsWith('--') && argument !== '--check');
  if (argv.includes('--help')) {
    io.stdout(`${usage}\n`);
    return 0;
  }
  if (unknown.length > 0 || positional.length > 1) {
    io.stderr(`${usage}\n`);
    return 2;
  }
  const source = path.resolve(positional[0] ?? converter.defaultSource);
  const missing = await notADirectory(source);
  if (missing !== undefined) {
    io.stderr(`${source}: (root): ${missing}: give the folder of source files\n${usage}\n`);
    return 2;
  }
  let result: Result;
  try {
    result = await converter.convert(source);
  } catch (error) {
    const problems = converter.sourceProblems(error);
    if (problems === undefined) throw error;
    io.stderr(`${problems.message}\n${problems.count} problem(s): nothing written\n`);
    return 1;
  }
  for (const warning of converter.warnings?.(result) ?? []) io.stderr(`warning: ${warning}\n`);
  const summary = converter.summary(result);
  if (check) {
    const outdated = await outdatedFiles(converter.repository, converter.directory, result.files);
    if (outdated.length === 0) {
      io.stdout(`up to date: ${summary}\n`);
      return 0;
    }
    io.stderr(
      `${outdated.map((file) => `${file}: differs from what the converter writes`).join('\n')}\nrun: npx tsx ${converter.script}\n`,
    );
    return 1;
  }
  await writeGeneratedFiles(converter.repository, converter.directory, result.files);
  io.stdout(`wrote ${summary}, ${converter.alsoWrote}\n`);
  return 0;
}
