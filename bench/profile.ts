import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DrawMethod } from '../engine/kernel.js';
import { allowancePercent, ISSUE_35 } from './issue35-targets.js';
import { formatTable } from './measure.js';
import type { TargetsJob, TargetsResult } from './profile-targets.js';
import type { ProfiledKernel } from './profile-kernels.js';
import type { ProfileJob, ProfileResult } from './profile-worker.js';

/**
 * `npm run bench:profile`: where a trial's time goes, kernel by kernel and method by method (issue
 * 20): the whole trial with its tally, the trial alone, its dice alone (the same calls replayed),
 * the rest of the trial (rules, state reset, row writing) and the tally. Each measurement runs in
 * a fresh worker thread, one at a time (bench/profile-worker.ts).
 */

const TSX_API = import.meta.resolve('tsx/esm/api');
const WORKER_MODULE = new URL('./profile-worker.ts', import.meta.url).href;
const BOOTSTRAP = `import(${JSON.stringify(TSX_API)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_MODULE)}); });`;

function profileInWorker(job: ProfileJob): Promise<ProfileResult>;
function profileInWorker(job: TargetsJob): Promise<TargetsResult>;
function profileInWorker(job: ProfileJob | TargetsJob): Promise<ProfileResult | TargetsResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(BOOTSTRAP, { eval: true, execArgv: [], workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const KERNELS: readonly ProfiledKernel[] = ['pooled', 'engagement', 'warmaster', 'battleforge', 'epic'];
const METHODS: readonly DrawMethod[] = ['tables', 'dice'];

export async function profileKernels(quick: boolean, log: (line: string) => void): Promise<ProfileResult[]> {
  const results: ProfileResult[] = [];
  for (const kernel of KERNELS) {
    for (const method of METHODS) {
      const result = await profileInWorker({ kernel, method, repetitionSeconds: quick ? 0.3 : 0.5, repetitions: quick ? 3 : 5 });
      log(`profiled ${kernel} (${method})`);
      results.push(result);
    }
  }
  return results;
}

/**
 * Every bundled scenario by both Monte Carlo methods (trial + tally): is the default, tables, ever
 * the slower? Both methods are timed in one worker per scenario, in alternating stretches after a
 * warm-up of each (tables are built on first use and must not count), so their ratio compares one
 * process at one moment: timed in separate fresh workers, the same code differed by up to 1.8×.
 */
export async function methodsByScenario(
  files: readonly string[],
  quick: boolean,
  log: (line: string) => void,
): Promise<{ file: string; tables: number; dice: number }[]> {
  const found: { file: string; tables: number; dice: number }[] = [];
  for (const file of files) {
    const both = await profileInWorker({
      kernel: 'scenario',
      file,
      method: 'tables',
      repetitionSeconds: quick ? 0.1 : 0.2,
      repetitions: quick ? 3 : 5,
    });
    found.push({ file, tables: 1e9 / both.whole, dice: 1e9 / (both.wholeDice ?? Number.NaN) });
    log(`timed ${file}`);
  }
  return found;
}

const ns = (value: number): string => (value < 10 ? value.toFixed(1) : value.toFixed(0));
const share = (part: number, whole: number): string => `${Math.round((part / whole) * 100)}%`;

export function profileTable(results: readonly ProfileResult[]): string[] {
  const rows = [
    ['kernel', 'method', 'trials/s', 'whole ns', 'dice ns', 'rules+state+row ns', 'tally ns', 'calls/trial', 'metrics', 'whole ÷ dice'],
  ];
  for (const result of results) {
    const rest = Math.max(0, result.trial - result.dice);
    rows.push([
      result.kernel,
      result.method,
      `${(1e9 / result.whole / 1e6).toFixed(2)} M`,
      ns(result.whole),
      `${ns(result.dice)} (${share(result.dice, result.whole)})`,
      `${ns(rest)} (${share(rest, result.whole)})`,
      `${ns(result.tally)} (${share(result.tally, result.whole)})`,
      result.callsPerTrial.toFixed(1),
      String(result.metrics),
      `${(result.whole / result.dice).toFixed(1)}×`,
    ]);
  }
  return formatTable(rows);
}

/** Issue 20's targets, per core: trial rates by kernel and method, the trial against its dice, and the default method never the slower. */
export const ISSUE_20_TARGETS = {
  pooledTables: 12e6,
  pooledDice: 10e6,
  warmasterTables: 3e6,
  epicTables: 5e6,
  battleforgeTables: 0.6e6,
  wholeOverDice: 3,
  // Two timings of 0.3 s apart differ by a few percent on this machine: within 5% counts as a tie.
  mcNotSlowerTie: 0.95,
} as const;

export function issue20Lines(
  profile: readonly ProfileResult[],
  scenarios: readonly { file: string; tables: number; dice: number }[],
  pass: (ok: boolean) => string,
): string[] {
  const rate = (kernel: ProfiledKernel, method: DrawMethod): number => {
    const found = profile.find((result) => result.kernel === kernel && result.method === method);
    return found === undefined ? 0 : 1e9 / found.whole;
  };
  const line = (label: string, value: number, target: number): string =>
    `  ${label}: ${(value / 1e6).toFixed(2)} M/s   target ≥ ${target / 1e6} M: ${pass(value >= target)}`;
  const tablesProfiles = profile.filter((result) => result.method === 'tables');
  const worstRatio = Math.max(...tablesProfiles.map((result) => result.whole / result.dice));
  const slower = scenarios.filter((scenario) => scenario.tables < ISSUE_20_TARGETS.mcNotSlowerTie * scenario.dice);
  return [
    'issue 20 targets (one core, trial + tally, bench/profile.ts):',
    line('heroic pooled attack by tables', rate('pooled', 'tables'), ISSUE_20_TARGETS.pooledTables),
    line('heroic pooled attack per die', rate('pooled', 'dice'), ISSUE_20_TARGETS.pooledDice),
    line('warmaster engagement by tables', rate('warmaster', 'tables'), ISSUE_20_TARGETS.warmasterTables),
    line('epic four-turn chain by tables', rate('epic', 'tables'), ISSUE_20_TARGETS.epicTables),
    line('battleforge six-round duel by tables', rate('battleforge', 'tables'), ISSUE_20_TARGETS.battleforgeTables),
    `  whole trial ÷ its dice alone, by tables, worst kernel: ${worstRatio.toFixed(1)}×   target ≤ ${ISSUE_20_TARGETS.wholeOverDice}×: ${pass(worstRatio <= ISSUE_20_TARGETS.wholeOverDice)}`,
    `  mc (tables) at least as fast as mc-dice (a tie within ${allowancePercent(ISSUE_20_TARGETS.mcNotSlowerTie)}%) on every bundled scenario: ${scenarios.length - slower.length} of ${scenarios.length}${slower.length === 0 ? '' : `; slower: ${slower.map((scenario) => `${scenario.file.split('/').at(-1)} ${(scenario.tables / scenario.dice).toFixed(2)}×`).join(', ')}`}   ${pass(slower.length === 0)}`,
  ];
}

/** The bundled scenarios of every rule system, sorted. */
export function bundledScenarioFiles(): string[] {
  return ['heroic', 'warmaster', 'battleforge', 'epic'].flatMap((ruleset) =>
    readdirSync(`data/${ruleset}/scenarios`)
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .map((name) => `data/${ruleset}/scenarios/${name}`),
  );
}

/** One method's costs, nanoseconds of CPU time per trial (medians of the stretches). */
export interface MethodTrialCost {
  readonly wholeNs: number;
  readonly diceNs: number;
  readonly tallyNs: number;
  readonly callsPerTrial: number;
  /** wholeNs ÷ diceNs. */
  readonly wholeOverDice: number;
  readonly trialsPerSecond: number;
}

export interface TrialTargetRow {
  /** A bench kernel (pooled, engagement, warmaster, battleforge, epic) or a bundled scenario file. */
  readonly name: string;
  readonly metrics: number;
  /** Method tables (`--method mc`, the default) and dice (`--method mc-dice`). */
  readonly mc: MethodTrialCost;
  readonly mcDice: MethodTrialCost;
  /** mc trials/s ÷ mc-dice trials/s. */
  readonly mcOverMcDice: number;
  readonly pass: { readonly mcDiceRatio: boolean; readonly mcRatio: boolean; readonly mcNotSlower: boolean };
}

function methodCost(costs: TargetsResult['tables']): MethodTrialCost {
  return {
    wholeNs: costs.whole.median,
    diceNs: costs.dice.median,
    tallyNs: costs.tally.median,
    callsPerTrial: costs.callsPerTrial,
    wholeOverDice: costs.whole.median / costs.dice.median,
    trialsPerSecond: 1e9 / costs.whole.median,
  };
}

/**
 * Issue 35's numbers for the bench's target table: every bench kernel and every bundled scenario
 * (or `files`), each in a fresh worker timing both methods in alternating stretches of CPU time
 * (bench/profile-targets.ts). `quick`: 3 stretches of 0.08 s after 2 of warm-up, else 5 of 0.15 s
 * (about 4 s or 9 s of CPU time a kernel).
 */
export async function measureTrialTargets(
  options: { readonly quick: boolean; readonly files?: readonly string[]; readonly kernels?: readonly ProfiledKernel[] },
  log: (line: string) => void = () => {},
): Promise<TrialTargetRow[]> {
  const settings = options.quick ? { stretchSeconds: 0.08, stretches: 3 } : { stretchSeconds: 0.15, stretches: 5 };
  const jobs: TargetsJob[] = [
    ...(options.kernels ?? KERNELS).map((kernel): TargetsJob => ({ targets: true, kernel, ...settings })),
    ...(options.files ?? bundledScenarioFiles()).map((file): TargetsJob => ({ targets: true, kernel: 'scenario', file, ...settings })),
  ];
  const rows: TrialTargetRow[] = [];
  for (const job of jobs) {
    const result = await profileInWorker(job);
    const mc = methodCost(result.tables);
    const mcDice = methodCost(result.dice);
    const mcOverMcDice = mcDice.wholeNs / mc.wholeNs;
    rows.push({
      name: result.file ?? result.kernel,
      metrics: result.metrics,
      mc,
      mcDice,
      mcOverMcDice,
      pass: {
        mcDiceRatio: mcDice.wholeOverDice <= ISSUE_35.wholeOverDiceByDice,
        mcRatio: mc.wholeOverDice <= ISSUE_35.wholeOverDiceByTables,
        mcNotSlower: mcOverMcDice >= ISSUE_35.mcNotSlowerTie,
      },
    });
    log(`timed ${result.file ?? result.kernel}`);
  }
  return rows;
}

/** The table of `measureTrialTargets` and issue 35's verdicts, `pass` printing PASS or MISS. */
export function trialTargetLines(rows: readonly TrialTargetRow[], pass: (ok: boolean) => string): string[] {
  const table = [
    ['kernel', 'mc-dice ns', 'dice ns', 'tally ns', 'whole ÷ dice', 'mc ns', 'dice ns', 'tally ns', 'whole ÷ dice', 'mc ÷ mc-dice speed'],
  ];
  for (const row of rows) {
    table.push([
      row.name.replace(/^data\/|\.yaml$/g, ''),
      ns(row.mcDice.wholeNs),
      ns(row.mcDice.diceNs),
      ns(row.mcDice.tallyNs),
      `${row.mcDice.wholeOverDice.toFixed(1)}×`,
      ns(row.mc.wholeNs),
      ns(row.mc.diceNs),
      ns(row.mc.tallyNs),
      `${row.mc.wholeOverDice.toFixed(1)}×`,
      `${row.mcOverMcDice.toFixed(2)}×`,
    ]);
  }
  const misses = (key: keyof TrialTargetRow['pass']) => rows.filter((row) => !row.pass[key]);
  const named = (found: readonly TrialTargetRow[], value: (row: TrialTargetRow) => string) =>
    found.length === 0 ? '' : `; not: ${found.map((row) => `${row.name.split('/').at(-1)} ${value(row)}`).join(', ')}`;
  const verdict = (label: string, key: keyof TrialTargetRow['pass'], value: (row: TrialTargetRow) => string) => {
    const missed = misses(key);
    return `  ${label}: ${rows.length - missed.length} of ${rows.length}${named(missed, value)}   ${pass(missed.length === 0)}`;
  };
  const pooled = rows.find((row) => row.name === 'pooled');
  const aosTarget = ISSUE_35.aosVolleysPerSecond * ISSUE_35.overAos;
  return [
    ...formatTable(table),
    'issue 35 targets (one core, CPU time, trial + tally through runWithDice, medians):',
    verdict(
      `whole trial ≤ ${ISSUE_35.wholeOverDiceByDice}× its dice by mc-dice`,
      'mcDiceRatio',
      (row) => `${row.mcDice.wholeOverDice.toFixed(1)}×`,
    ),
    verdict(`whole trial ≤ ${ISSUE_35.wholeOverDiceByTables}× its dice by mc`, 'mcRatio', (row) => `${row.mc.wholeOverDice.toFixed(1)}×`),
    verdict(
      `mc at least as fast as mc-dice (a tie within ${allowancePercent(ISSUE_35.mcNotSlowerTie)}%)`,
      'mcNotSlower',
      (row) => `${row.mcOverMcDice.toFixed(2)}×`,
    ),
    ...(pooled === undefined
      ? []
      : [
          `  heroic pooled trial ≥ ${ISSUE_35.overAos}× aos-statshammer (${aosTarget / 1e6} M/s): mc ${(pooled.mc.trialsPerSecond / 1e6).toFixed(2)} M/s (${(pooled.mc.trialsPerSecond / ISSUE_35.aosVolleysPerSecond).toFixed(1)}×), mc-dice ${(pooled.mcDice.trialsPerSecond / 1e6).toFixed(2)} M/s (${(pooled.mcDice.trialsPerSecond / ISSUE_35.aosVolleysPerSecond).toFixed(1)}×)   ${pass(pooled.mc.trialsPerSecond >= aosTarget)}`,
        ]),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick');
  const before = loadavg()[0] ?? 0;
  if (process.argv.includes('--targets')) {
    // `--targets [name…]`: issue 35's table alone, for the bench kernels and scenario files named (default: all).
    const names = process.argv.slice(process.argv.indexOf('--targets') + 1).filter((arg) => !arg.startsWith('--'));
    const kernels = KERNELS.filter((kernel) => names.length === 0 || names.includes(kernel));
    const files = names.length === 0 ? bundledScenarioFiles() : names.filter((name) => name.endsWith('.yaml'));
    const rows = await measureTrialTargets({ quick, kernels, files }, (line) => console.log(line));
    for (const line of trialTargetLines(rows, (ok) => (ok ? 'PASS' : 'MISS'))) console.log(line);
    console.log(`load average ${before.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after (2 shared cores; one core used)`);
    if (process.argv.includes('--json')) console.log(JSON.stringify(rows));
    process.exit(0);
  }
  const results = await profileKernels(quick, (line) => console.log(line));
  console.log('');
  for (const line of profileTable(results)) console.log(line);
  if (process.argv.includes('--scenarios')) {
    const rates = await methodsByScenario(bundledScenarioFiles(), quick, (line) => console.log(line));
    const rows = [['scenario', 'mc (tables) trials/s', 'mc-dice trials/s', 'mc ÷ mc-dice']];
    for (const rate of rates)
      rows.push([
        rate.file,
        `${(rate.tables / 1e6).toFixed(2)} M`,
        `${(rate.dice / 1e6).toFixed(2)} M`,
        `${(rate.tables / rate.dice).toFixed(2)}×`,
      ]);
    console.log('');
    for (const line of formatTable(rows)) console.log(line);
  }
  console.log(`load average ${before.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after (2 shared cores; one core used)`);
}
