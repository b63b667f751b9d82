import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { installNodePlatform } from '../input/node-platform.js';
import { measureAnalysis } from './analysis.js';
import { measureEpic } from './epic.js';
import { runInWorker } from './in-worker.js';
import { formatRate, formatTable, type Measurement, measureThroughput, type ThroughputSettings, verdict } from './measure.js';
import { measureParallel, measureRss, type ParallelSettings, parallelVerdicts, type RssResult } from './parallel.js';
import { measureQueue, type QueueSettings, queueVerdicts } from './queue.js';
import { measureStartup, startupLines } from './startup.js';
import { measureTables } from './tables.js';
import { bundledScenarioFiles, issue20Lines, methodsByScenario, profileKernels, profileTable } from './profile.js';
import { measureWeb, webLines } from './web.js';
import { measureIssue35 } from './issue35.js';
import { loadNow, targetTable } from './targets.js';
import type { BenchScenario, HeapResult, HeapSample, Implementation } from './worker.js';

/**
 * `npm run bench [-- --quick] [-- --long]` (`-- --targets`: issue 35's table of targets alone): the heroic, warmaster and battleforge engines against naive implementations,
 * both measured in this run, a heap-growth check, and the worker pool's scaling and per-shard
 * overhead (bench/parallel.ts), and issue 9's table sampling vs per-die rows and exact answers
 * (bench/tables.ts), and start-up times from source and compiled against a bare node (bench/startup.ts); `--long` adds an RSS check over 10M- and 1G-trial pooled runs. Each measurement runs alone in a fresh worker thread (the
 * machine has few, shared cores), warms up, then times several repetitions; the table reports the
 * median rate and the spread; last, issue 35's table of every target (bench/targets.ts). See bench/README.md.
 */

installNodePlatform();

const TARGET_POOLED_ATTACKS_PER_SECOND = 12e6;
const TARGET_ENGINE_OVER_NAIVE = 20;
/** Issue 4: Warmaster engagements fought to the end of the chain, one core, per-die rolling. */
const TARGET_WARMASTER_ENGAGEMENTS_PER_SECOND = 3e6;
const TARGET_WARMASTER_OVER_NAIVE = 20;
/** Issue 5: six-round Battle Forge duels (test/battleforge/bench-scenario.ts), one core, per-die rolling. */
const TARGET_BATTLEFORGE_DUELS_PER_SECOND = 0.4e6;
const TARGET_BATTLEFORGE_OVER_NAIVE = 20;
/** "Flat": a few KB at most over the whole run. */
const TARGET_HEAP_GROWTH_BYTES = 8 * 1024;

interface Settings extends ThroughputSettings {
  readonly heapWarmupTrials: number;
  readonly heapTrials: number;
  readonly heapSampleEvery: number;
}

const FULL: Settings = {
  warmupSeconds: 1.5,
  repetitions: 7,
  repetitionSeconds: 1,
  heapWarmupTrials: 2_000_000,
  heapTrials: 10_000_000,
  heapSampleEvery: 1_000_000,
};

const QUICK: Settings = {
  warmupSeconds: 0.3,
  repetitions: 3,
  repetitionSeconds: 0.3,
  heapWarmupTrials: 200_000,
  heapTrials: 1_000_000,
  heapSampleEvery: 100_000,
};

const PARALLEL_FULL: ParallelSettings = { shards: 96, repetitions: 3 };
const PARALLEL_QUICK: ParallelSettings = { shards: 24, repetitions: 1 };
/** Issue 18: 2 crucible worker processes through a real Redis against the local pool, and the coordinator's merge rate. */
const QUEUE_FULL: QueueSettings = { shards: 96, repetitions: 3, mergeShards: 20_000 };
const QUEUE_QUICK: QueueSettings = { shards: 24, repetitions: 1, mergeShards: 5_000 };
/** `--long`: a 10M-trial then a 1G-trial pooled run (about 5 minutes on 2 cores). */
const RSS_TRIALS: readonly number[] = [10_000_000, 1_000_000_000];

/**
 * `warmaster` (one trial = one engagement) and `battleforge` (one trial = one six-round duel) are
 * reported beside the heroic rows, each with its own targets; the heroic ratio target is heroic's.
 */
const SCENARIOS: readonly BenchScenario[] = ['pooled', 'engagement', 'warmaster', 'battleforge'];
const IMPLEMENTATIONS: readonly Implementation[] = ['engine', 'naive'];

function formatBytes(bytes: number): string {
  const sign = bytes < 0 ? '−' : '+';
  const size = Math.abs(bytes);
  return size >= 1024 ? `${sign}${(size / 1024).toFixed(1)} KB` : `${sign}${size} B`;
}

function findMeasurement(measurements: readonly Measurement[], scenario: BenchScenario, implementation: Implementation): Measurement {
  const found = measurements.find((m) => m.scenario === scenario && m.implementation === implementation);
  if (found === undefined) throw new Error(`no ${implementation} measurement of ${scenario}`);
  return found;
}

function heapReport(heap: HeapResult): { growthBytes: number; rangeBytes: number; samples: readonly HeapSample[] } {
  const used = heap.samples.map((sample) => sample.heapUsed);
  const first = used[0] ?? 0;
  const last = used[used.length - 1] ?? 0;
  return { growthBytes: last - first, rangeBytes: Math.max(...used) - Math.min(...used), samples: heap.samples };
}

/**
 * `npm run bench -- --targets`: issue 35's table alone, measured as quickly as it honestly can be
 * (bench/issue35.ts), written to bench/results/latest.json like a full run's report.
 */
async function targetsOnly(): Promise<void> {
  const started = performance.now();
  const loadBefore = loadNow();
  const date = new Date().toISOString();
  console.log(
    `crucible bench --targets: issue 35's targets · Node ${process.version} · ${cpus().length} cores · ${date} · load average ${loadBefore.toFixed(2)}`,
  );
  const { rows, measurements, seconds } = await measureIssue35(true, (line) => console.log(line));
  const elapsedSeconds = (performance.now() - started) / 1000;
  const loadAfter = loadNow();
  console.log('');
  for (const line of targetTable(rows)) console.log(line);
  console.log(
    `\nbench --targets took ${elapsedSeconds.toFixed(1)} s · load average ${loadBefore.toFixed(2)} at the start, ${loadAfter.toFixed(2)} at the end`,
  );
  writeResults({
    date,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    loadAverage: { before: loadBefore, after: loadAfter },
    targetsOnly: true,
    issue35: { rows, measurements, seconds },
    elapsedSeconds,
  });
}

function writeResults(report: object): void {
  const resultsDirectory = new URL('./results/', import.meta.url);
  mkdirSync(resultsDirectory, { recursive: true });
  const resultsFile = new URL('latest.json', resultsDirectory);
  writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`results: ${resultsFile.pathname}`);
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const settings = quick ? QUICK : FULL;
  const started = performance.now();
  const cpuModel = cpus()[0]?.model ?? 'unknown';
  const date = new Date().toISOString();
  console.log(
    `crucible bench${quick ? ' (--quick)' : ''}${process.argv.includes('--long') ? ' (--long)' : ''}: heroic, warmaster and battleforge engines vs naive, worker pool scaling, measured in this run`,
  );
  const loadBefore = loadavg()[0] ?? 0;
  console.log(`Node ${process.version} · ${cpuModel} · ${cpus().length} cores · ${date} · load average ${loadBefore.toFixed(2)}`);
  console.log(
    `each: fresh worker, ${settings.warmupSeconds} s warm-up, ${settings.repetitions} × ~${settings.repetitionSeconds} s; median (spread = (max − min) / median)\n`,
  );

  // First, while nothing of this run's own is in the background: process start-ups are short and easily disturbed.
  const startupLoad = loadNow();
  const startup = measureStartup(quick ? 5 : 10, (line) => console.log(line));

  const measurements: Measurement[] = [];
  let engineVersion: string | null = null;
  let warmasterEngineVersion: string | null = null;
  let battleforgeEngineVersion: string | null = null;
  for (const scenario of SCENARIOS) {
    for (const implementation of IMPLEMENTATIONS) {
      const { measurement, engineVersion: version } = await measureThroughput(scenario, implementation, settings);
      if (scenario === 'warmaster') warmasterEngineVersion ??= version;
      else if (scenario === 'battleforge') battleforgeEngineVersion ??= version;
      else engineVersion ??= version;
      measurements.push(measurement);
      const rate = measurement.trialsPerSecond;
      console.log(
        `  measured ${scenario.padEnd(11)} ${implementation.padEnd(6)} ${formatRate(rate.median).padStart(9)} trials/s (spread ${(rate.spread * 100).toFixed(1)}%)`,
      );
    }
  }

  const diceRow = (await measureThroughput('pooled', 'dice', settings)).measurement;
  const diceFloor = diceRow.trialsPerSecond;
  console.log(
    `  measured pooled      dice   ${formatRate(diceFloor.median).padStart(9)} attacks/s (spread ${(diceFloor.spread * 100).toFixed(1)}%)`,
  );
  // Issue 9: the same rows drawn from tables, beside these per-die ones; and exact answers.
  const tables = await measureTables(
    settings,
    quick,
    {
      attack: diceRow,
      pooledTrial: findMeasurement(measurements, 'pooled', 'engine'),
      warmaster: findMeasurement(measurements, 'warmaster', 'engine'),
    },
    (line) => console.log(line),
  );

  console.log(`  heap: ${settings.heapTrials.toLocaleString('en')} engagement trials…`);
  const heapResult = (await runInWorker({
    kind: 'heap',
    scenario: 'engagement',
    warmupTrials: settings.heapWarmupTrials,
    trials: settings.heapTrials,
    sampleEvery: settings.heapSampleEvery,
  })) as HeapResult;
  const heap = heapReport(heapResult);

  const parallelLoad = loadNow();
  const parallel = await measureParallel(quick ? PARALLEL_QUICK : PARALLEL_FULL, (line) => console.log(line));
  const long = process.argv.includes('--long');
  let rss: RssResult | undefined;
  if (long) rss = await measureRss(RSS_TRIALS, (line) => console.log(line));
  const parallelSummary = parallelVerdicts(parallel, rss);
  const queueSummary = queueVerdicts(await measureQueue(quick ? QUEUE_QUICK : QUEUE_FULL, (line) => console.log(line)));
  // Issue 19: the workbench's bundle and its time to first result in headless Chromium.
  const web = webLines(await measureWeb(quick ? 1 : 3, (line) => console.log(line)));

  const ratios: Record<BenchScenario, number> = { pooled: 0, engagement: 0, warmaster: 0, battleforge: 0 };
  // "best" is the fastest repetition: on a busy machine the least disturbed one.
  const rows: string[][] = [
    ['scenario (engine: per die)', 'engine trials/s', 'best', 'spread', 'naive trials/s', 'best', 'spread', 'engine/naive'],
  ];
  for (const scenario of SCENARIOS) {
    const engine = findMeasurement(measurements, scenario, 'engine').trialsPerSecond;
    const naive = findMeasurement(measurements, scenario, 'naive').trialsPerSecond;
    ratios[scenario] = engine.median / naive.median;
    rows.push([
      scenario,
      formatRate(engine.median),
      formatRate(engine.max),
      `${(engine.spread * 100).toFixed(1)}%`,
      formatRate(naive.median),
      formatRate(naive.max),
      `${(naive.spread * 100).toFixed(1)}%`,
      `${ratios[scenario].toFixed(1)}×`,
    ]);
  }
  console.log('');
  for (const line of formatTable(rows)) console.log(line);

  const pooledAttacksPerSecond = findMeasurement(measurements, 'pooled', 'engine').trialsPerSecond.median;
  const slowestRatio = Math.min(ratios.pooled, ratios.engagement);
  const warmasterEngine = findMeasurement(measurements, 'warmaster', 'engine').trialsPerSecond.median;
  const warmasterNaive = findMeasurement(measurements, 'warmaster', 'naive').trialsPerSecond.median;
  const battleforgeEngine = findMeasurement(measurements, 'battleforge', 'engine').trialsPerSecond.median;
  const battleforgeNaive = findMeasurement(measurements, 'battleforge', 'naive').trialsPerSecond.median;
  const targets = {
    warmasterEngagementsPerSecond: {
      target: TARGET_WARMASTER_ENGAGEMENTS_PER_SECOND,
      value: warmasterEngine,
      pass: warmasterEngine >= TARGET_WARMASTER_ENGAGEMENTS_PER_SECOND,
    },
    warmasterOverNaive: {
      target: TARGET_WARMASTER_OVER_NAIVE,
      value: ratios.warmaster,
      pass: ratios.warmaster >= TARGET_WARMASTER_OVER_NAIVE,
    },
    battleforgeDuelsPerSecond: {
      target: TARGET_BATTLEFORGE_DUELS_PER_SECOND,
      value: battleforgeEngine,
      pass: battleforgeEngine >= TARGET_BATTLEFORGE_DUELS_PER_SECOND,
    },
    battleforgeOverNaive: {
      target: TARGET_BATTLEFORGE_OVER_NAIVE,
      value: ratios.battleforge,
      pass: ratios.battleforge >= TARGET_BATTLEFORGE_OVER_NAIVE,
    },
    pooledAttacksPerSecond: {
      target: TARGET_POOLED_ATTACKS_PER_SECOND,
      value: pooledAttacksPerSecond,
      pass: pooledAttacksPerSecond >= TARGET_POOLED_ATTACKS_PER_SECOND,
    },
    engineOverNaive: { target: TARGET_ENGINE_OVER_NAIVE, value: slowestRatio, pass: slowestRatio >= TARGET_ENGINE_OVER_NAIVE },
    heapGrowthBytes: { target: TARGET_HEAP_GROWTH_BYTES, value: heap.growthBytes, pass: heap.growthBytes <= TARGET_HEAP_GROWTH_BYTES },
    ...parallelSummary.targets,
    ...queueSummary.targets,
    ...tables.targets,
  };
  console.log('');
  console.log(
    `pooled 12-die attacks/s (per die, trial + tally): ${formatRate(pooledAttacksPerSecond)}   target ≥ ${formatRate(TARGET_POOLED_ATTACKS_PER_SECOND)}: ${verdict(targets.pooledAttacksPerSecond.pass)}`,
  );
  console.log(
    `  dice alone, per die (12 dice as 2 packed draws scored by look-up + Shield die, into a histogram; no rules or tally): ${formatRate(diceFloor.median)} attacks/s`,
  );
  console.log(
    `engine/naive (lowest of both scenarios): ${slowestRatio.toFixed(1)}×   target ≥ ${TARGET_ENGINE_OVER_NAIVE}×: ${verdict(targets.engineOverNaive.pass)}`,
  );
  console.log(
    `warmaster engagements/s (per die; 3 knights charge 3 orc warriors, to the end, trial + tally): ${formatRate(warmasterEngine)}   target ≥ ${formatRate(TARGET_WARMASTER_ENGAGEMENTS_PER_SECOND)}: ${verdict(targets.warmasterEngagementsPerSecond.pass)}`,
  );
  console.log(
    `warmaster engine/naive: ${ratios.warmaster.toFixed(1)}× (naive ${formatRate(warmasterNaive)})   target ≥ ${TARGET_WARMASTER_OVER_NAIVE}×: ${verdict(targets.warmasterOverNaive.pass)}`,
  );
  console.log(
    `battleforge six-round duels/s (per die; 10 men-at-arms vs 10 orc warriors, shoot then charge, trial + tally): ${formatRate(battleforgeEngine)}   target ≥ ${TARGET_BATTLEFORGE_DUELS_PER_SECOND / 1e6} M: ${verdict(targets.battleforgeDuelsPerSecond.pass)}`,
  );
  console.log(
    `battleforge engine/naive: ${ratios.battleforge.toFixed(1)}× (naive ${formatRate(battleforgeNaive)})   target ≥ ${TARGET_BATTLEFORGE_OVER_NAIVE}×: ${verdict(targets.battleforgeOverNaive.pass)}`,
  );
  const perSample = heap.samples.map((sample) => `${(sample.trials / 1e6).toFixed(1)}M:${(sample.heapUsed / 1024).toFixed(1)}`).join(' ');
  console.log(
    `heap after gc() over ${settings.heapTrials.toLocaleString('en')} engagement trials (${heapResult.seconds.toFixed(1)} s): growth ${formatBytes(heap.growthBytes)}, max − min ${formatBytes(heap.rangeBytes).slice(1)}   target ≤ ${TARGET_HEAP_GROWTH_BYTES / 1024} KB: ${verdict(targets.heapGrowthBytes.pass)}`,
  );
  console.log(`  heapUsed KB by trials: ${perSample}`);
  for (const line of tables.lines) console.log(line);
  for (const line of parallelSummary.lines) console.log(line);
  for (const line of queueSummary.lines) console.log(line);
  for (const line of web) console.log(line);
  for (const line of startupLines(startup)) console.log(line);
  // Issue 6: Epic four-turn chains; issue 7: the 20 × 20 matchup matrix and what pairing saves.
  const epic = await measureEpic(quick);
  console.log(
    `epic four-turn chains/s (per die; two formations, marines vs orks, trial + tally, main thread): ${formatRate(epic.chainsPerSecond)}   target ≥ 10 M: ${verdict(epic.chainsPerSecond >= 10e6)}`,
  );
  // Issue 20: where a trial's time goes, and its targets.
  const profile = await profileKernels(quick, () => {});
  const methods = await methodsByScenario(bundledScenarioFiles(), quick, () => {});
  console.log('');
  for (const line of profileTable(profile)) console.log(line);
  for (const line of issue20Lines(profile, methods, verdict)) console.log(line);
  const analysis = await measureAnalysis(2, quick);
  console.log(
    `heroic matchup matrix (${Math.round(Math.sqrt(analysis.matrixPairings))} × ${Math.round(Math.sqrt(analysis.matrixPairings))}, ±1 point, 2 workers): ${analysis.matrixSeconds.toFixed(1)} s, ${analysis.matrixTrials.toLocaleString('en')} trials   target (20 × 20) < 60 s: ${quick ? 'n/a (quick: 8 × 8)' : verdict(analysis.matrixSeconds < 60)}`,
  );
  console.log(
    `paired comparison (knights vs regenerating ogre, allocation reading, ${analysis.pairedOutcome}): an unpaired one needs ${analysis.pairedFactor.toFixed(1)}× the trials   target ≥ 5×: ${verdict(analysis.pairedFactor >= 5)}`,
  );
  // Issue 35: one table of every target, from the parts above and what only it measures (a round robin, the pool under load).
  const issue35 = await measureIssue35(quick, (line) => console.log(line), {
    startup: { ...startup, load: startupLoad },
    scaling: { ...parallel, load: parallelLoad },
  });
  console.log('\nissue 35 targets:');
  for (const line of targetTable(issue35.rows)) console.log(line);
  const elapsedSeconds = (performance.now() - started) / 1000;
  const loadAfter = loadavg()[0] ?? 0;
  // Other processes on this 2-core machine skew every number: say how busy it was.
  console.log(
    `\nengine ${engineVersion ?? '?'} · warmaster engine ${warmasterEngineVersion ?? '?'} · battleforge engine ${battleforgeEngineVersion ?? '?'} · bench took ${elapsedSeconds.toFixed(1)} s · load average ${loadAfter.toFixed(2)} at the end`,
  );

  const report = {
    date,
    node: process.version,
    cpu: cpuModel,
    cores: cpus().length,
    loadAverage: { before: loadBefore, after: loadAfter },
    quick,
    engineVersion,
    warmasterEngineVersion,
    battleforgeEngineVersion,
    settings,
    measurements,
    ratios,
    pooledAttacksPerSecond,
    warmasterEngagementsPerSecond: { engine: warmasterEngine, naive: warmasterNaive, ratio: ratios.warmaster },
    battleforgeDuelsPerSecond: { engine: battleforgeEngine, naive: battleforgeNaive, ratio: ratios.battleforge },
    diceOnlyAttacksPerSecond: diceFloor.median,
    tables: { rows: tables.rows, ratios: tables.ratios, exact: tables.exact, exactBudget: tables.exactBudget },
    heap: {
      scenario: 'engagement',
      trials: settings.heapTrials,
      seconds: heapResult.seconds,
      warmupSeconds: heapResult.warmupSeconds,
      ...heap,
    },
    parallel,
    ...(rss === undefined ? {} : { rss }),
    long,
    targets,
    epic,
    profile,
    methods,
    analysis,
    startup,
    issue35: {
      rows: issue35.rows,
      matchups: issue35.measurements.matchups,
      trials: issue35.measurements.trials,
      underLoad: issue35.measurements.underLoad,
      seconds: issue35.seconds,
    },
    elapsedSeconds,
  };
  writeResults(report);
}

if (process.argv.includes('--targets')) await targetsOnly();
else await main();
