import { loadavg } from 'node:os';
import type { MatchupTrialShares } from './analysis.js';
import type { LoadFallbackResult } from './load-fallback.js';
import type { ParallelResult } from './parallel.js';
import type { TrialTargetRow } from './profile.js';
import { allowancePercent, ISSUE_35 } from './issue35-targets.js';
import { median } from './measure.js';
import type { StartupResult, StartupTiming } from './startup.js';

/**
 * Issue 35 (the speed of the designer's loop): every target, its measured value and a verdict, in
 * one table (bench/README.md says what each row measures). The measurements are the bench's own:
 * start-up (bench/startup.ts), the pool's scaling and its fallback under load (bench/parallel.ts,
 * bench/load-fallback.ts), a Warmaster round robin (bench/analysis.ts), and where a trial's time goes
 * (bench/profile.ts). Each row records the load average when its measurement began.
 */

export interface TargetRow {
  /** The issue's item (1–4). */
  readonly item: number;
  readonly target: string;
  readonly measured: string;
  /** undefined: not measured in this run (the reason is in `measured`). */
  readonly pass: boolean | undefined;
  /** 1-minute load average when the measurement began. */
  readonly load: number;
}

/** What the table is made from; a part left out (undefined) gives rows that say it was not measured. */
export interface TargetMeasurements {
  readonly startup?: StartupResult & { readonly load: number };
  readonly scaling?: ParallelResult & { readonly load: number };
  readonly underLoad?: LoadFallbackResult & { readonly load: number };
  readonly matchups?: { readonly shares: MatchupTrialShares; readonly load: number };
  /** Item 3: the bench kernels and every bundled scenario, both methods (bench/profile.ts measureTrialTargets). */
  readonly trials?: { readonly rows: readonly TrialTargetRow[]; readonly load: number };
}

/** The 1-minute load average now. */
export const loadNow = (): number => loadavg()[0] ?? 0;

const ratio = (value: number): string => `${value.toFixed(2)}×`;
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const notMeasured = (item: number, target: string, why: string): TargetRow => ({
  item,
  target,
  measured: why,
  pass: undefined,
  load: Number.NaN,
});

function startupRows(startup: TargetMeasurements['startup']): TargetRow[] {
  const version = `\`crucible --version\` (compiled) ≤ ${ISSUE_35.versionOverNode}× bare \`node -e 0\``;
  const run = `1,000-trial heroic run (compiled) ≤ ${ISSUE_35.runOverNode}× bare \`node -e 0\``;
  const exact = '`run --method exact`, a 20-dice attack (compiled), answers sooner than Python with Icepool';
  if (startup === undefined) return [version, run, exact].map((target) => notMeasured(1, target, 'not measured'));
  const timing = (name: string): StartupTiming | undefined => startup.timings.find((found) => found.name === name);
  // Judged on CPU time (steadier on a shared machine, and no kinder: it counts V8's background threads too); wall time beside it.
  const overNode = (target: string, name: string, limit: number): TargetRow => {
    const found = timing(name);
    if (found === undefined) return notMeasured(1, target, `no "${name}" timing`);
    const byCpu = Number.isFinite(found.cpuOverBareNode);
    const value = byCpu ? found.cpuOverBareNode : found.overBareNode;
    return {
      item: 1,
      target,
      measured: `${byCpu ? `CPU ${ratio(found.cpuOverBareNode)} (${ms(found.medianCpuMs)})` : 'CPU not measured (no python3)'}; wall ${ratio(found.overBareNode)} (${ms(found.medianMs)})`,
      pass: value <= limit,
      load: startup.load,
    };
  };
  const crucible = timing('compiled: exact, 20 dice');
  const python = startup.timings.find((found) => found.name.startsWith('python:'));
  const exactRow: TargetRow =
    crucible === undefined || python === undefined
      ? notMeasured(1, exact, python === undefined ? 'no python3 on this machine' : 'not measured')
      : {
          item: 1,
          target: exact,
          measured: `${ms(crucible.medianMs)} against ${startup.icepool === true ? 'Icepool' : 'bare `python3 -c 0` (Icepool not installable here: the floor its start adds to)'} ${ms(python.medianMs)} (wall, medians)`,
          pass: crucible.medianMs < python.medianMs,
          load: startup.load,
        };
  return [
    overNode(version, 'compiled: --version', ISSUE_35.versionOverNode),
    overNode(run, 'compiled: run 1,000 trials', ISSUE_35.runOverNode),
    exactRow,
  ];
}

function analysesRows(matchups: TargetMeasurements['matchups']): TargetRow[] {
  const overhead = `analyses overhead ≤ ${ISSUE_35.analysesOverhead * 100}% of wall time: 24 × 24 Warmaster matchups at ±0.01`;
  const adaptive = '`--adaptive` saves time in proportion to the trials it saves (same round robin)';
  if (matchups === undefined) return [notMeasured(2, overhead, 'not measured'), notMeasured(2, adaptive, 'not measured')];
  const { shares, load } = matchups;
  const { plain } = shares;
  return [
    {
      item: 2,
      target: overhead,
      measured: `${(plain.notTrialShare * 100).toFixed(0)}% (${plain.wallSeconds.toFixed(1)} s on ${shares.workers} workers, ${plain.trialSeconds.toFixed(1)} s in trial loops, ${plain.trials.toLocaleString('en-US')} trials; ${shares.roster}, medians of ${plain.repetitions.length})`,
      pass: plain.notTrialShare <= ISSUE_35.analysesOverhead,
      load,
    },
    {
      item: 2,
      target: adaptive,
      measured: `time ${ratio(shares.wallRatio)} for trials ${ratio(shares.trialRatio)} (${shares.adaptive.wallSeconds.toFixed(1)} s vs ${plain.wallSeconds.toFixed(1)} s); within ${allowancePercent(ISSUE_35.adaptiveProportion)}%: ≤ ${ratio(shares.trialRatio * ISSUE_35.adaptiveProportion)}`,
      pass: shares.wallRatio <= shares.trialRatio * ISSUE_35.adaptiveProportion,
      load,
    },
  ];
}

function trialRows(trials: TargetMeasurements['trials']): TargetRow[] {
  const notSlower = `default method (mc) never slower than mc-dice on any bench kernel or bundled scenario (a tie within ${allowancePercent(ISSUE_35.mcNotSlowerTie)}%)`;
  const byDice = `every whole trial ≤ ${ISSUE_35.wholeOverDiceByDice}× its own dice by mc-dice`;
  const byTables = `every whole trial ≤ ${ISSUE_35.wholeOverDiceByTables}× its own dice by mc`;
  const aosTarget = ISSUE_35.aosVolleysPerSecond * ISSUE_35.overAos;
  const aos = `≥ ${ISSUE_35.overAos}× aos-statshammer's ${ISSUE_35.aosVolleysPerSecond / 1e3} k volleys/s (${(aosTarget / 1e6).toFixed(2)} M/s): heroic pooled attack by mc`;
  if (trials === undefined) return [notSlower, byDice, byTables, aos].map((target) => notMeasured(3, target, 'not measured'));
  const { rows, load } = trials;
  const name = (row: TrialTargetRow): string =>
    row.name
      .split('/')
      .at(-1)
      ?.replace(/\.yaml$/, '') ?? row.name;
  /** How many rows meet a target, and the worst row by `value` (larger is worse). */
  const worstOf = (
    target: string,
    value: (row: TrialTargetRow) => number,
    ok: (row: TrialTargetRow) => boolean,
    detail: (row: TrialTargetRow) => string,
  ): TargetRow => {
    const worst = [...rows].sort((a, b) => value(b) - value(a))[0];
    const met = rows.filter(ok).length;
    return worst === undefined
      ? notMeasured(3, target, 'not measured')
      : { item: 3, target, measured: `${met} of ${rows.length}; worst ${name(worst)} ${detail(worst)}`, pass: met === rows.length, load };
  };
  const pooled = rows.find((row) => row.name === 'pooled');
  return [
    worstOf(
      notSlower,
      (row) => -row.mcOverMcDice,
      (row) => row.pass.mcNotSlower,
      (row) => `mc ÷ mc-dice speed ${ratio(row.mcOverMcDice)}`,
    ),
    worstOf(
      byDice,
      (row) => row.mcDice.wholeOverDice,
      (row) => row.pass.mcDiceRatio,
      (row) => `${ratio(row.mcDice.wholeOverDice)} (${row.mcDice.wholeNs.toFixed(0)} ns ÷ ${row.mcDice.diceNs.toFixed(0)} ns)`,
    ),
    worstOf(
      byTables,
      (row) => row.mc.wholeOverDice,
      (row) => row.pass.mcRatio,
      (row) => `${ratio(row.mc.wholeOverDice)} (${row.mc.wholeNs.toFixed(0)} ns ÷ ${row.mc.diceNs.toFixed(0)} ns)`,
    ),
    pooled === undefined
      ? notMeasured(3, aos, 'not measured')
      : {
          item: 3,
          target: aos,
          measured: `${(pooled.mc.trialsPerSecond / 1e6).toFixed(2)} M/s (${(pooled.mc.trialsPerSecond / ISSUE_35.aosVolleysPerSecond).toFixed(1)}×), one core, CPU time`,
          pass: pooled.mc.trialsPerSecond >= aosTarget,
          load,
        },
  ];
}

function scalingRows(scaling: TargetMeasurements['scaling'], underLoad: TargetMeasurements['underLoad']): TargetRow[] {
  const quiet = `2 workers ≥ ${ISSUE_35.twoWorkersOverOne}× one worker on a quiet machine`;
  const loaded =
    'never slower than one worker under load: the pool `crucible run` starts without --workers, every core kept busy by other processes';
  const rows: TargetRow[] = [];
  if (scaling === undefined) rows.push(notMeasured(4, quiet, 'not measured'));
  else {
    const one = median(scaling.pooled.find((measurement) => measurement.workers === 1)?.trialsPerSecond ?? []);
    const two = median(scaling.pooled.find((measurement) => measurement.workers === 2)?.trialsPerSecond ?? []);
    const raw = median(scaling.raw.two) / median(scaling.raw.one);
    rows.push({
      item: 4,
      target: quiet,
      measured: `${ratio(two / one)} (raw threads ${ratio(raw)}: the machine's ceiling now)${scaling.load >= 0.5 ? `; not quiet: load ${scaling.load.toFixed(2)}` : ''}`,
      pass: two / one >= ISSUE_35.twoWorkersOverOne,
      load: scaling.load,
    });
  }
  if (underLoad === undefined) rows.push(notMeasured(4, loaded, 'not measured'));
  else
    rows.push({
      item: 4,
      target: loaded,
      measured: `${ratio(underLoad.fitted / underLoad.one)} of one worker, running ${underLoad.fittedWorkers} (2 not fitted: ${ratio(underLoad.two / underLoad.one)}); ${underLoad.busyProcesses} spinning processes`,
      pass: underLoad.fitted / underLoad.one >= ISSUE_35.underLoadOverOne,
      load: underLoad.load,
    });
  return rows;
}

export function issue35Rows(measured: TargetMeasurements): TargetRow[] {
  return [
    ...startupRows(measured.startup),
    ...analysesRows(measured.matchups),
    ...trialRows(measured.trials),
    ...scalingRows(measured.scaling, measured.underLoad),
  ];
}

const rowVerdict = (row: TargetRow): string => (row.pass === undefined ? 'n/a' : row.pass ? 'PASS' : 'MISS');

/** The table as printed: item, target, measured, verdict, load average. */
export function targetTable(rows: readonly TargetRow[]): string[] {
  const table = [
    ['item', 'target', 'measured', 'verdict', 'load'],
    ...rows.map((row) => [`35.${row.item}`, row.target, row.measured, rowVerdict(row), Number.isNaN(row.load) ? '–' : row.load.toFixed(2)]),
  ];
  const widths = (table[0] ?? []).map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  // Left-aligned text columns (formatTable right-aligns all but the first).
  const lines = table.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const passed = rows.filter((row) => row.pass === true).length;
  const measuredRows = rows.filter((row) => row.pass !== undefined).length;
  return [
    ...lines,
    `${passed} of ${measuredRows} measured targets met${measuredRows < rows.length ? ` (${rows.length - measuredRows} not measured)` : ''}`,
  ];
}
