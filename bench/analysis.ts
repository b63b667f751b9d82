import { loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { compareVariants } from '../analysis/compare.js';
import { matchups } from '../analysis/matchups.js';
import { fileSystemData } from '../input/data-file.js';
import { installNodePlatform } from '../input/node-platform.js';
import { checkRoster, loadRoster } from '../input/roster.js';
import { loadScenarioData } from '../input/scenario-file.js';
import { ShardPool } from '../sim/shard-pool.js';
import { ISSUE_35 } from './issue35-targets.js';
import { LoopMeter } from './loop-meter.js';
import { median } from './measure.js';

/**
 * The analysis targets of issue 7, measured: a 20 × 20 heroic matchup matrix at ±1 percentage point
 * (data/heroic/rosters/twenty.yaml, one pool of 2 workers), and what common random numbers save on a
 * bundled tactic comparison (knights-vs-regenerating-ogre, variant least-damaged: the factor of
 * trials an unpaired comparison would need for the Ogre's win rate).
 */
export interface AnalysisBench {
  readonly matrixSeconds: number;
  readonly matrixPairings: number;
  readonly matrixTrials: number;
  readonly pairedFactor: number;
  readonly pairedOutcome: string;
}

const repository = path.join(import.meta.dirname, '..');

export async function measureAnalysis(workers: number, quick: boolean): Promise<AnalysisBench> {
  const roster = await loadRoster(path.join(repository, 'data/heroic/rosters/twenty.yaml'));
  const pool = new ShardPool(workers);
  const started = performance.now();
  let result: Awaited<ReturnType<typeof matchups>>;
  try {
    result = await matchups(roster, {
      executor: pool,
      precision: 0.01,
      seed: 1,
      ...(quick ? { only: roster.roster.entries.slice(0, 8).map((entry) => entry.id) } : {}),
    });
  } finally {
    await pool.close(false);
  }
  const matrixSeconds = (performance.now() - started) / 1000;
  const comparison = await compareVariants(
    path.join(repository, 'data/heroic/scenarios/knights-vs-regenerating-ogre.yaml'),
    undefined,
    'least-damaged',
    { trials: quick ? 20_000 : 100_000 },
  );
  const outcome = 'winner=Regenerating Ogre';
  const channel = comparison.outcomes.find((entry) => entry.metric === 'winner' && entry.label === 'Regenerating Ogre');
  return {
    matrixSeconds,
    matrixPairings: result.cells.length,
    // Each ordered pair is one run (its two seatings are two cells' halves).
    matrixTrials: result.entries.length ** 2 * result.trialsPerSeat,
    pairedFactor: channel?.unpairedTrialsFactor ?? Number.NaN,
    pairedOutcome: outcome,
  };
}

/**
 * Issue 35, item 2: does an analysis spend its time on trials? A 24 × 24 Warmaster matchup matrix
 * (data/warmaster/rosters/four-armies.yaml: 24 units, 4 situations, both seatings: 2,304 runs) at
 * ±0.01, on a pool of 2 workers started for it as `crucible matchups` starts its own, plain and
 * `--adaptive`, the two alternating. Per repetition: the wall time of `matchups()` (the roster loaded
 * and checked before, as the command does before its clock starts), the trial time (Σ of the loop
 * time each run or shard reports: ShardResult / OutcomeResult `loopMilliseconds`), the share of the
 * workers' wall time that was not trials, 1 − trial time / (wall × workers), the trials run, and
 * this process's CPU time (all threads). Targets (bench/issue35-targets.ts): not trials ≤ 25% of
 * the wall time, and `--adaptive` saving time in proportion to the trials it saves.
 */
export interface MatchupTrialShare {
  readonly adaptive: boolean;
  readonly runs: number;
  readonly trials: number;
  /** Medians over the repetitions. */
  readonly wallSeconds: number;
  readonly trialSeconds: number;
  readonly notTrialShare: number;
  readonly cpuSeconds: number;
  readonly repetitions: readonly { readonly wallSeconds: number; readonly trialSeconds: number; readonly cpuSeconds: number }[];
}

export interface MatchupTrialShares {
  readonly roster: string;
  readonly precision: number;
  readonly workers: number;
  readonly plain: MatchupTrialShare;
  readonly adaptive: MatchupTrialShare;
  /**
   * Adaptive over plain: of the wall time, of the trials (in proportion: the first no larger than
   * the second, give or take noise), of the trial time (the floor: the trials it saves are the
   * lopsided pairings' short games, cheaper than the average trial) and of the CPU time.
   */
  readonly wallRatio: number;
  readonly trialRatio: number;
  readonly trialTimeRatio: number;
  readonly cpuRatio: number;
  /** One-minute load average before and after. */
  readonly load: { readonly before: number; readonly after: number };
}

export async function measureMatchupTrialShare(
  options: { readonly precision?: number; readonly workers?: number; readonly repetitions?: number } = {},
): Promise<MatchupTrialShares> {
  const { precision = 0.01, workers = 2, repetitions = 3 } = options;
  const file = path.join(repository, 'data/warmaster/rosters/four-armies.yaml');
  const roster = await loadRoster(file);
  await checkRoster(roster, (at, data) => loadScenarioData(at, data, fileSystemData));
  const loadBefore = loadavg()[0] ?? 0;
  const samples = { plain: [] as Sample[], adaptive: [] as Sample[] };
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const adaptive of [false, true]) {
      const meter = new LoopMeter(new ShardPool(workers));
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      try {
        const result = await matchups(roster, { executor: meter, precision, seed: 1, ...(adaptive ? { adaptive: true } : {}) });
        const wall = performance.now() - started;
        const cpu = process.cpuUsage(cpuBefore);
        (adaptive ? samples.adaptive : samples.plain).push({
          runs: result.entries.length ** 2 * result.situations.length,
          trials: result.trialsInAll,
          wallSeconds: wall / 1000,
          trialSeconds: meter.loopMilliseconds / 1000,
          cpuSeconds: (cpu.user + cpu.system) / 1e6,
        });
      } finally {
        await meter.close(false);
      }
    }
  }
  const plain = summary(samples.plain, false, workers);
  const adaptive = summary(samples.adaptive, true, workers);
  return {
    roster: path.relative(repository, file),
    precision,
    workers,
    plain,
    adaptive,
    wallRatio: adaptive.wallSeconds / plain.wallSeconds,
    trialRatio: adaptive.trials / plain.trials,
    trialTimeRatio: adaptive.trialSeconds / plain.trialSeconds,
    cpuRatio: adaptive.cpuSeconds / plain.cpuSeconds,
    load: { before: loadBefore, after: loadavg()[0] ?? 0 },
  };
}

interface Sample {
  readonly runs: number;
  readonly trials: number;
  readonly wallSeconds: number;
  readonly trialSeconds: number;
  readonly cpuSeconds: number;
}

function summary(samples: readonly Sample[], adaptive: boolean, workers: number): MatchupTrialShare {
  const [first] = samples;
  return {
    adaptive,
    runs: first?.runs ?? 0,
    trials: first?.trials ?? 0,
    wallSeconds: median(samples.map((sample) => sample.wallSeconds)),
    trialSeconds: median(samples.map((sample) => sample.trialSeconds)),
    notTrialShare: median(samples.map((sample) => 1 - sample.trialSeconds / (sample.wallSeconds * workers))),
    cpuSeconds: median(samples.map((sample) => sample.cpuSeconds)),
    repetitions: samples.map(({ wallSeconds, trialSeconds, cpuSeconds }) => ({ wallSeconds, trialSeconds, cpuSeconds })),
  };
}

const percent = (ratio: number): string => `${(100 * ratio).toFixed(0)}%`;

/** The lines bench/run.ts (or this script) prints. */
export function matchupTrialShareLines(shares: MatchupTrialShares): string[] {
  const line = (share: MatchupTrialShare) =>
    `  ${share.adaptive ? '--adaptive' : 'plain     '}  wall ${share.wallSeconds.toFixed(2)} s · trials ${share.trialSeconds.toFixed(2)} s (${share.trials.toLocaleString('en')} trials) · not trials ${(100 * share.notTrialShare).toFixed(0)}% of ${shares.workers} workers' wall · CPU ${share.cpuSeconds.toFixed(2)} s`;
  const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');
  return [
    `issue 35: ${shares.plain.runs.toLocaleString('en')}-run Warmaster matchups (${shares.roster}, ±${shares.precision}, ${shares.workers} workers; medians of ${shares.plain.repetitions.length})`,
    line(shares.plain),
    line(shares.adaptive),
    `  not trials ≤ ${percent(ISSUE_35.analysesOverhead)} of the wall time: ${verdict(shares.plain.notTrialShare <= ISSUE_35.analysesOverhead)} · --adaptive takes ${percent(shares.wallRatio)} of the time (${percent(shares.cpuRatio)} of the CPU) for ${percent(shares.trialRatio)} of the trials, ${percent(shares.trialTimeRatio)} of the trial time (in proportion, the time share within ${percent(ISSUE_35.adaptiveProportion - 1)} of the trials share: ${verdict(shares.wallRatio <= shares.trialRatio * ISSUE_35.adaptiveProportion)})`,
    `  load average ${shares.load.before.toFixed(2)} → ${shares.load.after.toFixed(2)}: on a loaded machine a process gets CPU by its runnable threads, so compare CPU, and the shares, rather than wall times`,
  ];
}

// `node --import tsx bench/analysis.ts [precision] [repetitions]`: issue 35's analysis numbers alone.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  installNodePlatform();
  const [precision, repetitions] = process.argv.slice(2).map(Number);
  const shares = await measureMatchupTrialShare({
    ...(precision === undefined ? {} : { precision }),
    ...(repetitions === undefined ? {} : { repetitions }),
  });
  for (const text of matchupTrialShareLines(shares)) console.log(text);
}
