import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { comparePaired } from '../statistics/paired.js';
import type { Kernel } from '../engine/kernel.js';
import { EXACT_BUDGET, exactDistributions } from '../sim/exact.js';
import { compileSpec, kernelSpecOf } from '../sim/kernel-spec.js';
import { runPaired } from '../sim/paired-run.js';
import { installNodePlatform } from '../input/node-platform.js';
import { loadScenarioChanged } from '../input/scenario-file.js';

/**
 * How well `crucible compare`'s paired t test is calibrated, measured over many seeds (issue 29):
 *
 * - **null**: 4 ATK dice on one model against the same 4 dice on two models of 2, at a MIGHT 100
 *   target (no Shield): Wounds dealt has the same distribution either way, so p < 0.05 should come
 *   in 5% of seeds. Both ways round: the split side draws two table picks, the single one one, so
 *   the variant draws more, then fewer, than the baseline.
 * - **coverage**: data/heroic/scenarios/sylvan-knights-formation.yaml against its variant `singly`
 *   (which draws more): how often the 95% interval holds the exact difference (both sides
 *   enumerated by `--method exact`'s engine path) of Wounds dealt and of P(Ogre vanquished).
 * - the lag-1 autocorrelation of the paired differences of Wounds dealt on that comparison, over
 *   one long run: 0 when trials are independent.
 *
 *   node --import tsx bench/compare-calibration.ts [seeds=600] [null trials=200] [coverage trials=2000]
 *
 * Seeds are 20261122 + i. Not part of `npm run bench`: a measurement to quote, not a speed.
 */

installNodePlatform();

const [seedsArg, nullTrialsArg, coverageTrialsArg] = process.argv.slice(2);
const SEEDS = Number(seedsArg ?? 600);
const NULL_TRIALS = Number(nullTrialsArg ?? 200);
const COVERAGE_TRIALS = Number(coverageTrialsArg ?? 2000);
const FIRST_SEED = 20261122;
const SYLVAN = path.join(import.meta.dirname, '..', 'data/heroic/scenarios/sylvan-knights-formation.yaml');

const UNITS = `units:
  - { id: four, name: Four dice, def: 3, might: 100, will: 4, weapons: [{ name: Club, type: melee, atk: 4 }] }
  - { id: two, name: Two dice, def: 3, might: 100, will: 4, weapons: [{ name: Club, type: melee, atk: 2 }] }
  - { id: wall, name: Wall, def: 4, might: 100, will: 4, weapons: [{ name: Fist, type: melee, atk: 1 }] }
`;

const NULL_SCENARIO = `ruleset: heroic
name: Four dice on one model or two
unitsFile: units.yaml
mode: attack
sides:
  - name: Attackers
    groups: [{ id: attackers, unit: four, models: 1, target: wall }]
  - name: Wall
    groups: [{ id: wall, unit: wall, models: 1 }]
variants:
  - name: split
    set: { "sides[0].groups[0].unit": two, "sides[0].groups[0].models": 2 }
`;

async function kernel(file: string, variant?: string): Promise<Kernel> {
  return compileSpec(kernelSpecOf(await loadScenarioChanged(file, variant === undefined ? {} : { variant }), 'tables'));
}

function channelIndex(baseline: Kernel, variant: Kernel, name: string): number {
  const tally = runPaired(baseline, variant, { seed: 1, trials: 1 });
  const index = tally.channels.findIndex((channel) => channel.name === name);
  if (index < 0) throw new Error(`no channel ${name}`);
  return index;
}

/** Share of seeds whose paired t test of `channel` gives p < 0.05. */
function falsePositiveRate(baseline: Kernel, variant: Kernel, channel: string): number {
  const c = channelIndex(baseline, variant, channel);
  let rejected = 0;
  for (let i = 0; i < SEEDS; i++) {
    const result = comparePaired(runPaired(baseline, variant, { seed: FIRST_SEED + i, trials: NULL_TRIALS }))[c];
    if ((result?.difference.pValue ?? 1) < 0.05) rejected++;
  }
  return rejected;
}

function exactMean(kernel: Kernel, metric: string): number {
  const exact = exactDistributions(kernel, EXACT_BUDGET);
  const m = kernel.metrics.findIndex((spec) => spec.name === metric);
  if (exact === undefined || m < 0) throw new Error(`no exact ${metric}`);
  return (exact.probabilities[m] as Float64Array).reduce((sum, p, value) => sum + p * value, 0);
}

/** Seeds whose 95% interval of baseline − variant (the tally's a − b) holds the exact difference, per channel. */
function coverage(baseline: Kernel, variant: Kernel, channels: readonly [name: string, exact: number][]): number[] {
  const indices = channels.map(([name]) => channelIndex(baseline, variant, name));
  const covered = channels.map(() => 0);
  for (let i = 0; i < SEEDS; i++) {
    const results = comparePaired(runPaired(baseline, variant, { seed: FIRST_SEED + i, trials: COVERAGE_TRIALS }));
    channels.forEach(([, exact], k) => {
      const interval = results[indices[k] as number]?.difference.interval;
      if (interval !== undefined && interval.low <= exact && exact <= interval.high) covered[k] = (covered[k] as number) + 1;
    });
  }
  return covered;
}

/** Lag-1 autocorrelation of the per-trial differences of metric `metric` over `trials` paired trials. */
function lagOneAutocorrelation(baseline: Kernel, variant: Kernel, metric: string, trials: number): number {
  const a: number[] = [];
  const b: number[] = [];
  const recording = (kernel: Kernel, into: number[]): Kernel => {
    const m = kernel.metrics.findIndex((spec) => spec.name === metric);
    return { ...kernel, trial: (dice, row) => (kernel.trial(dice, row), into.push(row[m] as number)) };
  };
  runPaired(recording(baseline, a), recording(variant, b), { seed: FIRST_SEED, trials });
  const d = a.map((x, t) => x - (b[t] as number));
  const mean = d.reduce((sum, x) => sum + x, 0) / d.length;
  let numerator = 0;
  let denominator = 0;
  for (let t = 0; t < d.length; t++) {
    denominator += ((d[t] as number) - mean) ** 2;
    if (t > 0) numerator += ((d[t] as number) - mean) * ((d[t - 1] as number) - mean);
  }
  return numerator / denominator;
}

const percentOf = (count: number): string => `${count}/${SEEDS} = ${((100 * count) / SEEDS).toFixed(1)}%`;

const folder = await mkdtemp(path.join(tmpdir(), 'crucible-calibration-'));
try {
  await writeFile(path.join(folder, 'units.yaml'), UNITS);
  const nullFile = path.join(folder, 'null.yaml');
  await writeFile(nullFile, NULL_SCENARIO);
  const single = await kernel(nullFile);
  const split = await kernel(nullFile, 'split');
  const started = performance.now();
  console.log(`seeds ${FIRST_SEED}…${FIRST_SEED + SEEDS - 1}; null: ${NULL_TRIALS} trials a seed, coverage: ${COVERAGE_TRIALS}`);
  console.log(
    `null, variant draws more  (single → split), p < 0.05 on A.woundsDealt: ${percentOf(falsePositiveRate(single, split, 'A.woundsDealt'))}`,
  );
  console.log(
    `null, variant draws fewer (split → single), p < 0.05 on A.woundsDealt: ${percentOf(falsePositiveRate(split, single, 'A.woundsDealt'))}`,
  );
  const formation = await kernel(SYLVAN);
  const singly = await kernel(SYLVAN, 'singly');
  const wounds = exactMean(formation, 'A.woundsDealt') - exactMean(singly, 'A.woundsDealt');
  const vanquished = exactMean(formation, 'ogre.vanquished') - exactMean(singly, 'ogre.vanquished');
  const [coveredWounds, coveredVanquished] = coverage(formation, singly, [
    ['A.woundsDealt', wounds],
    ['ogre.vanquished', vanquished],
  ]);
  console.log(
    `coverage, sylvan formation → singly, exact differences ${wounds.toFixed(6)} wounds, ${vanquished.toFixed(6)} P(vanquished):`,
  );
  console.log(`  A.woundsDealt: ${percentOf(coveredWounds ?? 0)}; ogre.vanquished: ${percentOf(coveredVanquished ?? 0)}`);
  console.log(
    `lag-1 autocorrelation of the differences of A.woundsDealt (200,000 trials): ${lagOneAutocorrelation(formation, singly, 'A.woundsDealt', 200_000).toFixed(4)}`,
  );
  console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
