import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { median } from './measure.js';

/**
 * Issue 33: what every `crucible` command pays before it does anything — `--version`, and a
 * 1,000-trial heroic run (on the main thread: start-up, loading, one short run, the report) — from
 * source (bin/crucible.js in a clone: tsx compiles while loading) and compiled (dist/lib, what the
 * published package runs; built first by scripts/build-lib.mjs), each as a multiple of a bare
 * `node -e 0` measured in the same run. The commands take turns, round after round, so a burst of
 * load from other processes falls on all of them alike (hyperfine-like: median and best of N).
 */

const REPOSITORY = path.resolve(import.meta.dirname, '..');
const SCENARIO = 'data/heroic/scenarios/sylvan-knights-formation.yaml';
const RUN_ARGS = ['run', SCENARIO, '--trials', '1000'];
/** Issue 35: ten Sylvan Knights in formation pool 20 dice (Sylvan spear ATK 2 each) into one Attack Action, by exact enumeration. */
const EXACT_ARGS = ['run', SCENARIO, '--method', 'exact', '--set', 'sides[0].groups[0].models=10'];
/**
 * The same attack's Wounds with Icepool (each die: 4–5 one Wound, 6 two; the sum of 20), where
 * Python can import it — installed, or a checkout of its source named by PYTHONPATH (it is pure
 * Python: `PYTHONPATH=/path/to/icepool/src npm run bench`); PyPI is not reachable from every
 * machine the bench runs on, so without it the Python row is a bare `python3 -c 0`: the floor
 * Icepool's own start would add to.
 */
const ICEPOOL_SCRIPT = 'import icepool; print((20 @ icepool.d6.map({1: 0, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2})))';

export interface StartupCommand {
  readonly name: string;
  /** The program, when not this Node. */
  readonly program?: string;
  readonly args: readonly string[];
}

/** Whether `python3` can import Icepool here (undefined: no python3 at all). */
function icepoolAvailable(): boolean | undefined {
  const found = spawnSync('python3', ['-c', 'import icepool'], { stdio: 'ignore' });
  return found.error !== undefined ? undefined : found.status === 0;
}

/**
 * Every start-up command; `compiledOnly` leaves out the source ones (tsx), which no issue 35 target
 * reads. `icepool`: icepoolAvailable(), asked once by the caller (each asking starts a Python).
 */
function startupCommands(compiledOnly: boolean, icepool: boolean | undefined): StartupCommand[] {
  return [
    { name: 'bare node -e 0', args: ['-e', '0'] },
    ...(compiledOnly
      ? []
      : [
          { name: 'source: --version', args: ['bin/crucible.js', '--version'] },
          { name: 'source: run 1,000 trials', args: ['bin/crucible.js', ...RUN_ARGS] },
        ]),
    { name: 'compiled: --version', args: ['dist/lib/cli/bin.js', '--version'] },
    { name: 'compiled: run 1,000 trials', args: ['dist/lib/cli/bin.js', ...RUN_ARGS] },
    { name: 'compiled: exact, 20 dice', args: ['dist/lib/cli/bin.js', ...EXACT_ARGS] },
    ...(icepool === true
      ? [{ name: 'python: Icepool, 20 dice', program: 'python3', args: ['-c', ICEPOOL_SCRIPT] }]
      : icepool === false
        ? [{ name: 'python: bare python3 -c 0', program: 'python3', args: ['-c', '0'] }]
        : []),
  ];
}

export interface StartupTiming {
  readonly name: string;
  readonly medianMs: number;
  readonly bestMs: number;
  /** Median over the bare node's median, measured in the same rounds. */
  readonly overBareNode: number;
  /** CPU time (user + system, every thread), median; NaN without python3 to measure it. */
  readonly medianCpuMs: number;
  /** Median CPU time over the bare node's. */
  readonly cpuOverBareNode: number;
}

export interface StartupResult {
  readonly repetitions: number;
  /** 0 when dist/lib was already built from the same sources (its stamp matched). */
  readonly buildSeconds: number;
  readonly timings: readonly StartupTiming[];
  /** Whether the Python row is Icepool's (else a bare python3, or none). */
  readonly icepool: boolean | undefined;
}

/**
 * Runs a command and reports its wall time and CPU time (user + system, all its threads), through a
 * few lines of Python (os.wait4 gives a child's resource usage; Node has no way to): CPU time is the
 * steadier measure on a shared machine, where another process's burst lengthens the wall time of
 * whatever runs beside it. Without python3, CPU time is not measured (NaN).
 */
const RUNNER = [
  'import os, sys, time',
  'start = time.perf_counter()',
  'child = os.fork()',
  'if child == 0:',
  '    null = os.open(os.devnull, os.O_WRONLY)',
  '    os.dup2(null, 1)',
  '    os.execvp(sys.argv[1], sys.argv[1:])',
  '_, status, usage = os.wait4(child, 0)',
  'wall = time.perf_counter() - start',
  'print(f"{wall * 1000:.3f} {(usage.ru_utime + usage.ru_stime) * 1000:.3f} {os.waitstatus_to_exitcode(status)}")',
].join('\n');

const hasPython = spawnSync('python3', ['-c', '0'], { stdio: 'ignore' }).status === 0;

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/**
 * The environment of every timed command: this one's, less PYTHONDONTWRITEBYTECODE (set on some
 * machines), so Python keeps Icepool's compiled bytecode from the unmeasured first round, as an
 * installed package has it; without it each start compiles Icepool's source again (measured here:
 * 200 ms a start instead of 130 ms).
 */
const { PYTHONDONTWRITEBYTECODE: _noBytecode, ...TIMED_ENVIRONMENT } = process.env;

function timeOnce(command: StartupCommand): Sample {
  const program = command.program ?? process.execPath;
  if (hasPython) {
    const result = spawnSync('python3', ['-c', RUNNER, program, ...command.args], {
      cwd: REPOSITORY,
      env: TIMED_ENVIRONMENT,
      stdio: ['ignore', 'pipe', 'pipe'],
      encoding: 'utf8',
    });
    const [wallMs = Number.NaN, cpuMs = Number.NaN, status = Number.NaN] = result.stdout.trim().split(' ').map(Number);
    if (result.status !== 0 || status !== 0) throw new Error(`${command.name}: exit ${status}: ${result.stderr}`);
    return { wallMs, cpuMs };
  }
  const start = performance.now();
  const result = spawnSync(program, command.args, {
    cwd: REPOSITORY,
    env: TIMED_ENVIRONMENT,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const wallMs = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command.name}: exit ${result.status}: ${result.stderr}`);
  return { wallMs, cpuMs: Number.NaN };
}

/** The files dist/lib is compiled from (tracked by git, with the uncommitted edits), hashed: the build's stamp. */
function sourcesDigest(): string {
  const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPOSITORY, encoding: 'utf8' });
  const compiled = (file: string): boolean => /\.(ts|mts|mjs|json)$/.test(file) && !/^(test|data|bench|notebooks)\//.test(file);
  const files = listed.status === 0 ? listed.stdout.split('\0').filter(compiled) : [];
  const hash = createHash('sha256');
  for (const file of files.sort())
    if (existsSync(path.join(REPOSITORY, file)))
      hash
        .update(`${file}\0`)
        .update(readFileSync(path.join(REPOSITORY, file)))
        .update('\0');
  return files.length === 0 ? `unknown ${Date.now()}` : hash.digest('hex');
}

/**
 * Builds dist/lib unless the bench built it from these very sources and nothing rebuilt it since:
 * the stamp (beside dist/lib, so never packed with it) holds the sources' digest and the build's
 * bin.js modification time.
 */
function buildCompiled(log: (line: string) => void): number {
  const stampFile = path.join(REPOSITORY, 'dist', 'bench-lib-sources.json');
  const binFile = path.join(REPOSITORY, 'dist', 'lib', 'cli', 'bin.js');
  const digest = sourcesDigest();
  const stamp = (): string => JSON.stringify({ digest, built: statSync(binFile).mtimeMs });
  if (existsSync(stampFile) && existsSync(binFile) && readFileSync(stampFile, 'utf8') === stamp()) {
    log('  start-up: dist/lib is built from these sources (its stamp matches): not rebuilt');
    return 0;
  }
  log('  start-up: building dist/lib (scripts/build-lib.mjs)…');
  const buildStart = performance.now();
  const build = spawnSync(process.execPath, ['scripts/build-lib.mjs'], {
    cwd: REPOSITORY,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`scripts/build-lib.mjs failed: ${build.stderr}`);
  writeFileSync(stampFile, stamp());
  return (performance.now() - buildStart) / 1000;
}

/** Builds dist/lib if needed, then times each command `repetitions` times, in turns after one unmeasured warm-up round. */
export function measureStartup(repetitions: number, log: (line: string) => void, compiledOnly = false): StartupResult {
  const buildSeconds = buildCompiled(log);
  const icepool = icepoolAvailable();
  const commands = startupCommands(compiledOnly, icepool);
  // The first start of each reads its files from disk and fills tsx's cache: not what a user waits for after that.
  for (const command of commands) timeOnce(command);
  const samples = commands.map((): Sample[] => []);
  for (let round = 0; round < repetitions; round++) commands.forEach((command, index) => samples[index]?.push(timeOnce(command)));
  const bare = samples[0] ?? [];
  const bareWall = median(bare.map((sample) => sample.wallMs));
  const bareCpu = median(bare.map((sample) => sample.cpuMs));
  const timings = commands.map((command, index) => {
    const walls = (samples[index] ?? []).map((sample) => sample.wallMs);
    const cpus = (samples[index] ?? []).map((sample) => sample.cpuMs);
    return {
      name: command.name,
      medianMs: median(walls),
      bestMs: Math.min(...walls),
      overBareNode: median(walls) / bareWall,
      medianCpuMs: median(cpus),
      cpuOverBareNode: median(cpus) / bareCpu,
    };
  });
  log(`  start-up: measured ${commands.length} commands × ${repetitions}`);
  return { repetitions, buildSeconds, timings, icepool };
}

/** The table of the report: each command's median and best wall time, and its median as a multiple of bare node's. */
export function startupLines(result: StartupResult): string[] {
  const built =
    result.buildSeconds > 0 ? `dist/lib built in ${result.buildSeconds.toFixed(1)} s` : 'dist/lib already built from these sources';
  const lines = [`start-up (wall and CPU time, ${result.repetitions} runs each, in turns; ${built}):`];
  for (const timing of result.timings)
    lines.push(
      `  ${timing.name.padEnd(28)} median ${timing.medianMs.toFixed(0).padStart(5)} ms   best ${timing.bestMs.toFixed(0).padStart(5)} ms   ${timing.overBareNode.toFixed(1).padStart(5)}× bare node   CPU ${timing.medianCpuMs.toFixed(0).padStart(5)} ms ${timing.cpuOverBareNode.toFixed(1).padStart(5)}×`,
    );
  return lines;
}

if (process.argv[1] === import.meta.filename) {
  const repetitions = Number(process.argv[2] ?? 10);
  for (const line of startupLines(measureStartup(repetitions, (line) => console.log(line)))) console.log(line);
}
