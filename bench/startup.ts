import { spawnSync } from 'node:child_process';
import path from 'node:path';

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

export interface StartupCommand {
  readonly name: string;
  readonly args: readonly string[];
}

export const STARTUP_COMMANDS: readonly StartupCommand[] = [
  { name: 'bare node -e 0', args: ['-e', '0'] },
  { name: 'source: --version', args: ['bin/crucible.js', '--version'] },
  { name: 'source: run 1,000 trials', args: ['bin/crucible.js', ...RUN_ARGS] },
  { name: 'compiled: --version', args: ['dist/lib/cli/bin.js', '--version'] },
  { name: 'compiled: run 1,000 trials', args: ['dist/lib/cli/bin.js', ...RUN_ARGS] },
];

export interface StartupTiming {
  readonly name: string;
  readonly medianMs: number;
  readonly bestMs: number;
  /** Median over the bare node's median, measured in the same rounds. */
  readonly overBareNode: number;
}

export interface StartupResult {
  readonly repetitions: number;
  readonly buildSeconds: number;
  readonly timings: readonly StartupTiming[];
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function timeOnce(command: StartupCommand): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, command.args, { cwd: REPOSITORY, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const milliseconds = performance.now() - start;
  if (result.status !== 0) throw new Error(`${command.name}: exit ${result.status}: ${result.stderr}`);
  return milliseconds;
}

/** Builds dist/lib, then times each command `repetitions` times, in turns after one unmeasured warm-up round. */
export function measureStartup(repetitions: number, log: (line: string) => void): StartupResult {
  log('  start-up: building dist/lib (scripts/build-lib.mjs)…');
  const buildStart = performance.now();
  const build = spawnSync(process.execPath, ['scripts/build-lib.mjs'], {
    cwd: REPOSITORY,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`scripts/build-lib.mjs failed: ${build.stderr}`);
  const buildSeconds = (performance.now() - buildStart) / 1000;
  // The first start of each reads its files from disk and fills tsx's cache: not what a user waits for after that.
  for (const command of STARTUP_COMMANDS) timeOnce(command);
  const samples = STARTUP_COMMANDS.map((): number[] => []);
  for (let round = 0; round < repetitions; round++) STARTUP_COMMANDS.forEach((command, index) => samples[index]?.push(timeOnce(command)));
  const bare = median(samples[0] ?? []);
  const timings = STARTUP_COMMANDS.map((command, index) => {
    const times = samples[index] ?? [];
    return { name: command.name, medianMs: median(times), bestMs: Math.min(...times), overBareNode: median(times) / bare };
  });
  log(`  start-up: measured ${STARTUP_COMMANDS.length} commands × ${repetitions}`);
  return { repetitions, buildSeconds, timings };
}

/** The table of the report: each command's median and best wall time, and its median as a multiple of bare node's. */
export function startupLines(result: StartupResult): string[] {
  const lines = [`start-up (wall time, ${result.repetitions} runs each, in turns; dist/lib built in ${result.buildSeconds.toFixed(1)} s):`];
  for (const timing of result.timings)
    lines.push(
      `  ${timing.name.padEnd(28)} median ${timing.medianMs.toFixed(0).padStart(5)} ms   best ${timing.bestMs.toFixed(0).padStart(5)} ms   ${timing.overBareNode.toFixed(1).padStart(5)}× bare node`,
    );
  return lines;
}

if (process.argv[1] === import.meta.filename) {
  const repetitions = Number(process.argv[2] ?? 10);
  for (const line of startupLines(measureStartup(repetitions, (line) => console.log(line)))) console.log(line);
}
