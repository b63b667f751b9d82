import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { redisServerPath } from './installed.js';

/**
 * A real Redis server for a test file: Debian's redis-server (installed before the tests by
 * test/global-setup.ts) on a free port of 127.0.0.1, saving nothing to disk, stopped by `stop()`.
 */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
  /** Killed (SIGKILL) and started again on the same port, empty: what a crash without persistence leaves. */
  restart(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function spawnRedis(port: number): Promise<ChildProcess> {
  const executable = redisServerPath();
  const server: ChildProcess = spawn(
    executable,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    server.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${output}`));
    });
  }).then(() => server);
}

const killed = (server: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) return resolve();
    server.once('exit', () => resolve());
    server.kill('SIGKILL');
  });

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let server = await spawnRedis(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => killed(server),
    async restart() {
      await killed(server);
      server = await spawnRedis(port);
    },
  };
}

const BINARY = path.join(import.meta.dirname, '..', '..', 'bin', 'crucible.js');

/** A real `crucible worker` process on `url` (one thread, plus `options`), resolved once it takes shards. */
export function startCrucibleWorker(url: string, options: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BINARY, 'worker', url, '--workers', '1', ...options], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, CRUCIBLE_DEBUG: '', ...env },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('taking shards')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`crucible worker exited (${code}): ${output}`)));
  });
}
