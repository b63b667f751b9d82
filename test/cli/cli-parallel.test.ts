import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.js';
import { capture, type CliRun, runCli } from '../helpers/capture.js';
import { ENGAGEMENT_FILE } from '../helpers/sharded.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * `crucible run` with workers, as a user runs it: the same numbers for any --workers, a Ctrl-C'd
 * run resumed to the very bytes of an uninterrupted one, the test fault switch, the progress bar
 * kept off stdout, and bad options refused with one line and exit 2.
 */

const repository = REPOSITORY;
const binary = path.join(repository, 'bin', 'crucible.js');
const STACK_LINE = /^ {4}at /m;

let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'crucible-cli-parallel-'));
});
afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** `crucible run` in this process: the same main() bin/crucible.js calls, without a process to start. */
const inProcess = runCli;

/** Runs whose output several tests compare against, each run once (every run with workers starts a pool). */
const reference = new Map<string, Promise<CliRun>>();
function referenceRun(args: readonly string[]): Promise<CliRun> {
  const key = args.join(' ');
  const cached = reference.get(key) ?? inProcess(args);
  reference.set(key, cached);
  return cached;
}
/** The uninterrupted run both interruption tests resume to. */
const LONG_RUN = ['run', ENGAGEMENT_FILE, '--trials', '1000000', '--seed', '5', '--workers', '2'];

describe('crucible run --workers', () => {
  it('--workers 0 (main thread), 1 and 2 print byte-identical output', async () => {
    const args = ['run', ENGAGEMENT_FILE, '--json', '--quiet', '--trials', '200000', '--seed', '3'];
    const results = [];
    for (const workers of ['0', '1', '2']) results.push(await referenceRun([...args, '--workers', workers]));
    const documents = results.map((result) => {
      expect(result).toMatchObject({ status: 0, stderr: '' });
      return JSON.parse(result.stdout) as Record<string, unknown>;
    });
    expect(documents.map((document) => document.trials)).toEqual([200000, 200000, 200000]);
    const [first, ...others] = results.map((result) => result.stdout);
    for (const other of others) expect(other).toBe(first);
  });

  it('a worker killed mid-shard (test fault switch) changes nothing; a shard failing twice names how to replay it', async () => {
    const args = ['run', ENGAGEMENT_FILE, '--json', '--quiet', '--trials', '200000', '--seed', '3', '--workers', '2'];
    const clean = await referenceRun(args);
    const killed = await inProcess(args, { CRUCIBLE_TEST_FAULT: 'exit:2' });
    const failing = await inProcess(args, { CRUCIBLE_TEST_FAULT: 'throw:1:2' });
    expect(clean.status).toBe(0);
    expect(killed).toMatchObject({ status: 0, stdout: clean.stdout });
    expect(failing).toMatchObject({ status: 1, stdout: '' });
    expect(failing.stderr).toContain(
      `shard 1 (trials 65,536–131,071) of "A regenerating Ogre against three Sylvan Knights in formation, to the end" (${ENGAGEMENT_FILE}), seed 3, failed 2 times`,
    );
    expect(failing.stderr).toContain(`replay its first trial with: crucible replay ${ENGAGEMENT_FILE} --seed 3 --trial 65536\n`);
    expect(failing.stderr).not.toMatch(STACK_LINE);
    expect((await inProcess(args, { CRUCIBLE_TEST_FAULT: 'explode' })).stderr).toMatch(
      /^error: CRUCIBLE_TEST_FAULT must look like exit:3, throw:3:2 or stall:3/,
    );
  });
});

/** Resolves once `file` holds a checkpoint with some trials in it. */
async function checkpointWithTrials(file: string, child: ChildProcess): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error('the run ended before it could be interrupted');
    try {
      const trials = (JSON.parse(await readFile(file, 'utf8')) as { trials: number }).trials;
      if (trials > 0) return trials;
    } catch {
      // Not written yet (or being replaced): look again.
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('Ctrl-C and resume (spawned)', () => {
  it('SIGINT saves the checkpoint and prints a resume command whose output equals an uninterrupted run', async () => {
    const checkpoint = path.join(directory, 'interrupted.ckpt');
    const args = LONG_RUN;
    // Shard 4 stalls for seconds, so the run cannot end before the signal however slow this test
    // process is to notice the first checkpoint (it did once on a loaded machine).
    const child = spawn(process.execPath, [binary, ...args, '--checkpoint', checkpoint], {
      cwd: repository,
      env: { ...process.env, CRUCIBLE_DEBUG: '', CRUCIBLE_TEST_FAULT: 'stall:4' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await checkpointWithTrials(checkpoint, child);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toBe('');
    const saved = (JSON.parse(await readFile(checkpoint, 'utf8')) as { trials: number }).trials;
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(1_000_000);
    const resumeLine = /^resume with: crucible (.+)$/m.exec(stderr);
    expect(resumeLine, stderr).not.toBeNull();
    const resumeArgs = (resumeLine?.[1] ?? '').split(' ');
    expect(resumeArgs).toEqual([
      'run',
      ENGAGEMENT_FILE,
      '--seed',
      '5',
      '--trials',
      '1000000',
      '--checkpoint',
      checkpoint,
      '--workers',
      '2',
    ]);

    // Resumed in this process: what is tested is the checkpoint a killed process left behind.
    const resumed = await inProcess(resumeArgs);
    const uninterrupted = await referenceRun(args);
    expect(resumed.status).toBe(0);
    expect(uninterrupted.status).toBe(0);
    expect(resumed.stdout).toBe(uninterrupted.stdout);
  });
});

describe('progress bar and options (in process)', () => {
  /** A stream that says it is a terminal, as process.stderr does on a console. */
  function fakeTerminal(): { stream: NodeJS.WritableStream; written: () => string } {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
    let written = '';
    stream.on('data', (chunk: Buffer) => {
      written += chunk.toString();
    });
    return { stream, written: () => written };
  }

  it('draws on the terminal stream, never on stdout, and not at all with --json or --quiet', async () => {
    const args = ['run', ENGAGEMENT_FILE, '--trials', '150000', '--workers', '0'];
    const terminal = fakeTerminal();
    const text = capture();
    expect(await main(args, { ...text.io, progressStream: terminal.stream }, {})).toBe(0);
    expect(terminal.written()).toMatch(/trials\/s/);
    expect(text.output().stdout).not.toMatch(/trials\/s|\[=|\r/);

    for (const flag of ['--json', '--quiet']) {
      const silent = fakeTerminal();
      const output = capture();
      expect(await main([...args, flag], { ...output.io, progressStream: silent.stream }, {})).toBe(0);
      expect(silent.written()).toBe('');
      if (flag === '--json') expect(() => JSON.parse(output.output().stdout) as unknown).not.toThrow();
    }
  });

  it.each([
    [['--workers', '-1'], /--workers.*Workers must be a whole number from 0/],
    [['--workers', '1000'], /Workers must be a whole number from 0 \(run on the main thread\) to 256/],
    [['--precision', '2'], /--precision.*The precision must be a probability from 0.00001 to below 0\.5/],
    [['--precision', 'fine'], /The precision must be a probability/],
    [['--precision', '0.01', '--trials', '5'], /'--precision <epsilon>' cannot be used with option '-n, --trials <count>'/],
    [['--max-trials', '5000'], /^error: --max-trials only applies with --precision/],
    [
      ['--checkpoint', '/no/such/directory/x.ckpt'],
      /^\/no\/such\/directory\/x\.ckpt: \(root\): --checkpoint: cannot write the checkpoint: its directory does not exist$/m,
    ],
  ])('%j is refused: exit 2, no stack', async (extra, message) => {
    const run = capture();
    expect(await main(['run', ENGAGEMENT_FILE, '--quiet', ...extra], run.io, {})).toBe(2);
    expect(run.output().stderr).toMatch(message);
    expect(run.output().stderr).not.toMatch(STACK_LINE);
    expect(run.output().stdout).toBe('');
  });

  it('SIGTERM (in process, through the Io signal hook) stops the run, saves and exits 143; the resumed run equals an uninterrupted one', async () => {
    const checkpoint = path.join(directory, 'terminated.ckpt');
    const args = LONG_RUN;
    let signal: ((name: NodeJS.Signals) => void) | undefined;
    const terminal = fakeTerminal();
    // Terminate once the bar shows a completed shard: the run is under way, far from its end.
    terminal.stream.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('65,536/')) signal?.('SIGTERM');
    });
    const stopped = capture();
    const onInterrupt = (listener: (name: NodeJS.Signals) => void) => {
      signal = listener;
      return () => {
        signal = undefined;
      };
    };
    expect(await main([...args, '--checkpoint', checkpoint], { ...stopped.io, progressStream: terminal.stream, onInterrupt }, {})).toBe(
      143,
    );
    expect(stopped.output().stdout).toBe('');
    expect(stopped.output().stderr).toContain(
      `resume with: crucible run ${ENGAGEMENT_FILE} --seed 5 --trials 1000000 --checkpoint ${checkpoint} --workers 2`,
    );
    const saved = (JSON.parse(await readFile(checkpoint, 'utf8')) as { trials: number }).trials;
    expect(saved).toBeGreaterThan(0);
    expect(saved).toBeLessThan(1_000_000);
    const resumed = await inProcess([...args, '--checkpoint', checkpoint]);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toBe((await referenceRun(args)).stdout);
  });

  it('--checkpoint may not name an input file', async () => {
    const run = capture();
    expect(await main(['run', ENGAGEMENT_FILE, '--checkpoint', ENGAGEMENT_FILE], run.io, {})).toBe(2);
    expect(run.output().stderr).toBe(
      `error: --checkpoint ${ENGAGEMENT_FILE} is one of the run's input files; name a new file for the checkpoint\n`,
    );
  });

  it('--checkpoint takes one scenario', async () => {
    const run = capture();
    const scenarios = path.dirname(ENGAGEMENT_FILE);
    expect(await main(['run', scenarios, '--checkpoint', path.join(directory, 'many.ckpt')], run.io, {})).toBe(2);
    expect(run.output().stderr).toMatch(/^error: --checkpoint .*many\.ckpt holds one run: give one scenario file, not \d+\n$/);
  });

  it('--precision reports the trials it took and the widest interval reached', async () => {
    const run = capture();
    expect(await main(['run', ENGAGEMENT_FILE, '--precision', '0.005', '--json', '--workers', '0'], run.io, {})).toBe(0);
    const document = JSON.parse(run.output().stdout) as {
      trials: number;
      precision: { target: number; reached: boolean; widestHalfWidth: number };
    };
    expect(document.precision).toMatchObject({ target: 0.005, reached: true });
    expect(document.precision.widestHalfWidth).toBeLessThanOrEqual(0.005);
    expect(document.trials % 65536).toBe(0);
    const text = capture();
    expect(await main(['run', ENGAGEMENT_FILE, '--precision', '0.005', '--workers', '0'], text.io, {})).toBe(0);
    expect(text.output().stdout).toMatch(/precision ±0\.500% reached: widest 95% interval ±0\.\d+% \(cap 1,000,000,000 trials\)/);
  });
});
