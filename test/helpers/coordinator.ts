import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { REPOSITORY } from './repository.js';

/**
 * A `crucible run … --queue` coordinator as a real process (its stderr is a pipe, not a terminal),
 * for tests that signal it, run two at once or read what it says while it waits.
 */
export interface Coordinator {
  readonly child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Its exit status (128 + n for signal n). */
  readonly exited: Promise<number>;
}

const BINARY = path.join(REPOSITORY, 'bin', 'crucible.js');

export function startCoordinator(args: readonly string[], env: NodeJS.ProcessEnv = {}): Coordinator {
  const child = spawn(process.execPath, [BINARY, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, CRUCIBLE_DEBUG: '', CRUCIBLE_TEST_QUEUE_FAST: '1', ...env },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : 15))),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

export async function until(condition: () => boolean | Promise<boolean>, what: string, seconds = 60): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
