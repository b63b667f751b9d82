import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { ScriptIo } from '../../scripts/generated-files.js';
import { capture, type CliRun } from './capture.js';

/** What a converter script did: its exit status and what it printed. */
export type ScriptRun = CliRun;

/** The script in a child process, as CI runs it (`npm run check:data`). */
export function runScript(repository: string, script: string, ...args: string[]): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(repository, script), ...args],
      { cwd: repository },
      (error, stdout, stderr) => {
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
      },
    );
  });
}

/** The script's command line run in this process, its output captured (no process to start). */
export async function runInProcess(
  main: (argv: readonly string[], io: ScriptIo) => Promise<number>,
  ...args: string[]
): Promise<ScriptRun> {
  const { io, output } = capture();
  const status = await main(args, io);
  return { status, ...output() };
}

/** A copy (under `scratch`) of the source directory with one file's text changed; the change must change something. */
export async function copyWithChange(
  scratch: string,
  sourceDirectory: string,
  file: string,
  change: (text: string) => string,
): Promise<string> {
  const directory = await mkdtemp(path.join(scratch, 'source-'));
  await cp(sourceDirectory, directory, { recursive: true });
  const target = path.join(directory, file);
  const text = await readFile(target, 'utf8');
  const changed = change(text);
  expect(changed, `the test's change to ${file} changes nothing`).not.toBe(text);
  await writeFile(target, changed);
  return directory;
}
