import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';

/**
 * `npm run bench:round-robin -- [units] [precision] [--adaptive]`: a Warmaster round robin of `units`
 * troop units (default 100) from the bundled army lists, every ordered pair in both seatings at
 * ±precision (default 0.01), each seating stopped at its own precision with --adaptive, timed as a user runs it (`crucible matchups`, a child process with its worker
 * pool). The roster is data/warmaster/rosters/four-armies.yaml's template over every troop unit of
 * three stands that can fight (numeric Hits), taken evenly across the armies when `units` is fewer.
 * Prints runs, wall time, time per run, trials and the peak RSS (from /usr/bin/time when present).
 */

const root = path.join(import.meta.dirname, '..');
const positional = process.argv.slice(2).filter((argument) => !argument.startsWith('--'));
const adaptive = process.argv.includes('--adaptive');
const units = Number(positional[0] ?? 100);
const precision = positional[1] ?? '0.01';
const armiesFolder = path.join(root, 'data/warmaster/armies');

interface ArmyUnit {
  readonly id: string;
  readonly name?: string;
  readonly kind?: string;
  readonly type?: string;
  readonly hits?: unknown;
  readonly unitSize?: number;
  readonly points?: number;
}

const troops = readdirSync(armiesFolder)
  .filter((name) => name.endsWith('.yaml'))
  .sort()
  .flatMap((name) => {
    const army = name.slice(0, -'.yaml'.length);
    const list = parse(readFileSync(path.join(armiesFolder, name), 'utf8')) as { units: ArmyUnit[] };
    return list.units
      .filter(
        (unit) =>
          unit.kind === 'troop' &&
          (unit.unitSize ?? 3) === 3 &&
          typeof unit.hits === 'number' &&
          ['infantry', 'cavalry', 'chariot', 'monster'].includes(unit.type ?? ''),
      )
      .map((unit) => ({
        id: `${army}/${unit.id}`,
        name: `${unit.name ?? unit.id} (${army})`,
        ...(unit.points === undefined ? {} : { cost: unit.points }),
      }));
  });
if (!Number.isInteger(units) || units < 2 || units > troops.length)
  throw new Error(`units must be a whole number from 2 to ${troops.length} (the troop units of three stands in the bundled lists)`);
const step = troops.length / units;
const entries = Array.from({ length: units }, (_, i) => troops[Math.floor(i * step)]);

const template = parse(readFileSync(path.join(root, 'data/warmaster/rosters/four-armies.yaml'), 'utf8')) as {
  template: Record<string, unknown>;
};
const folder = mkdtempSync(path.join(tmpdir(), 'crucible-round-robin-'));
const rosterFile = path.join(folder, `warmaster-${units}.yaml`);
writeFileSync(
  rosterFile,
  stringify({
    name: `${units} Warmaster troop units`,
    fielded: 'whole',
    template: { ...template.template, armies: armiesFolder },
    entries,
  }),
);

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
rmSync(folder, { recursive: true, force: true });
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
