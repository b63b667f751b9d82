import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { writeWarmasterRoster } from './warmaster-roster.js';

/**
 * `npm run bench:round-robin -- [units] [precision] [--adaptive]`: a Warmaster round robin of `units`
 * troop units (default 100) from the bundled army lists, every ordered pair in both seatings at
 * ±precision (default 0.01), each seating stopped at its own precision with --adaptive, timed as a user runs it (`crucible matchups`, a child process with its worker
 * pool). The roster: bench/warmaster-roster.ts.
 * Prints runs, wall time, time per run, trials and the peak RSS (from /usr/bin/time when present).
 */

const root = path.join(import.meta.dirname, '..');
const positional = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const adaptive = process.argv.includes('--adaptive');
const units = Number(positional[0] ?? 100);
const precision = positional[1] ?? '0.01';
const roster = writeWarmasterRoster(units);
const rosterFile = roster.file;

const command = [
  path.join(root, 'bin/crucible.js'),
  'matchups',
  rosterFile,
  '-p',
  precision,
  '--json',
  ...(adaptive ? ['--adaptive'] : []),
];
const timed = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...command], { encoding: 'utf8', maxBuffer: 2 ** 31 });
const usedTime = timed.error === undefined;
const run = usedTime ? timed : spawnSync(process.execPath, command, { encoding: 'utf8', maxBuffer: 2 ** 31 });
roster.remove();
if (run.status !== 0) throw new Error(`crucible matchups failed:\n${run.stderr}`);
const stderrLines = run.stderr.split(/[\r\n]+/).filter((line) => line.trim() !== '');
const timing = stderrLines.find((line) => / runs in [\d.]+ s$/.test(line)) ?? '';
const seconds = Number(/ runs in ([\d.]+) s$/.exec(timing)?.[1] ?? Number.NaN);
const peakKilobytes = usedTime ? Number(stderrLines.at(-1)) : Number.NaN;
const document = JSON.parse(run.stdout) as { trialsPerSeat: number; trialsInAll: number };
const runs = units * units;
const trials = document.trialsInAll;
const [load] = loadavg();
console.log(
  [
    `${units} Warmaster troop units, every ordered pair at ±${precision} (both seatings${adaptive ? ', --adaptive' : ''}): ${runs.toLocaleString('en-US')} runs of ${adaptive ? 'up to ' : ''}${document.trialsPerSeat.toLocaleString('en-US')} trials, ${trials.toLocaleString('en-US')} in all (${(trials / (runs * document.trialsPerSeat)).toFixed(2)}× the worst case)`,
    `  ${seconds.toFixed(1)} s (the command's own count, start-up excluded): ${((seconds * 1000) / runs).toFixed(2)} ms a run, ${(trials / seconds / 1e6).toFixed(2)} M trials/s`,
    `  peak RSS ${Number.isNaN(peakKilobytes) ? 'not measured (no /usr/bin/time)' : `${Math.round(peakKilobytes / 1024)} MB`}; JSON document ${(run.stdout.length / 1e6).toFixed(1)} MB; load average ${load?.toFixed(2)} after`,
  ].join('\n'),
);
