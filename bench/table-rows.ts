import { OutcomeTable, PoolScorer, streamDice, sumOfDiceTable } from '../engine/dice/index.js';
import { woundFaceScore } from '../engine/heroic/compile.js';
import { compileHeroic } from '../engine/heroic/index.js';
import { type Scenario, scenarioSchema, type Unit, unitSchema } from '../engine/heroic/schema.js';
import type { Kernel } from '../engine/kernel.js';
import { EXACT_BUDGET, exactDistributions } from '../sim/exact.js';
import { benchUnits } from '../test/heroic/bench-scenarios.js';

/**
 * The worker side of the issue-9 rows (bench/tables.ts runs them, one fresh worker each): the pooled
 * attack alone, drawn whole from one table or rolled die by die, and exact single-action answers.
 */

/** The bench attack: 12 ATK dice vs DEF 4 (≥ 4: 1 Wound, a natural 6: 2) at one shielded model. */
const ATTACK_DICE = 12;
const ATTACK_DEF = 4;
/** Shield die on 5+: cancels one Wound when at least one was rolled (rulings §2). */
const SHIELD_SAVES = 2 / 6;
/** 12 dice score at most 24 Wounds; one bin per total. */
const HISTOGRAM_BINS = 2 * ATTACK_DICE + 1;
/** 12 · 2/3 Wounds rolled, less the Shield's 1/3 whenever any was rolled (P(none) = 2⁻¹²). */
const EXACT_MEAN_WOUNDS = 8 - (1 / 3) * (1 - 2 ** -12);

/**
 * The attack's final Wounds as one table: the 12-dice total (convolution), then the Shield moves
 * a third of every w ≥ 1 to w − 1. Built once at setup; checked against the exact mean so row (a)
 * cannot time a different attack from row (b).
 */
export function shieldedAttackTable(): OutcomeTable {
  const rolled = sumOfDiceTable(woundFaceScore(ATTACK_DEF), ATTACK_DICE);
  const final = new Float64Array(HISTOGRAM_BINS);
  for (let i = 0; i < rolled.values.length; i++) {
    const w = rolled.values[i] as number;
    const p = rolled.probabilities[i] as number;
    if (w === 0) {
      final[0] = (final[0] as number) + p;
      continue;
    }
    final[w] = (final[w] as number) + p * (1 - SHIELD_SAVES);
    final[w - 1] = (final[w - 1] as number) + p * SHIELD_SAVES;
  }
  const mean = final.reduce((sum, p, w) => sum + p * w, 0);
  if (Math.abs(mean - EXACT_MEAN_WOUNDS) > 1e-12) throw new Error(`shielded attack table: mean ${mean}, expected ${EXACT_MEAN_WOUNDS}`);
  return new OutcomeTable(
    Array.from(final, (_, w) => w),
    final,
  );
}

/** Σ w · histogram[w]: the batch's output, so no loop can be optimised away. */
function woundsIn(histogram: Int32Array): number {
  let total = 0;
  for (let w = 0; w < histogram.length; w++) total += w * (histogram[w] as number);
  return total;
}

/**
 * A batch of the bench attack alone into a histogram of final Wounds (allocated once here, cleared
 * per batch, so the loop allocates nothing): `table` is row (a), one `pick` per attack; `dice` is
 * row (b), the engine's PoolScorer on 12 dice (two packed draws) plus one d6 Shield die.
 */
export function attackBatch(method: 'table' | 'dice'): (trials: number, seed: number) => number {
  const histogram = new Int32Array(HISTOGRAM_BINS);
  if (method === 'table') {
    const table = shieldedAttackTable();
    return (trials, seed) => {
      const dice = streamDice(seed);
      histogram.fill(0);
      for (let t = 0; t < trials; t++) {
        const w = dice.pick(table);
        histogram[w] = (histogram[w] as number) + 1;
      }
      return woundsIn(histogram);
    };
  }
  const scorer = new PoolScorer(woundFaceScore(ATTACK_DEF));
  return (trials, seed) => {
    const dice = streamDice(seed);
    histogram.fill(0);
    for (let t = 0; t < trials; t++) {
      const rolled = scorer.roll(dice, ATTACK_DICE);
      const w = rolled > 0 && dice.d6() >= 5 ? rolled - 1 : rolled;
      histogram[w] = (histogram[w] as number) + 1;
    }
    return woundsIn(histogram);
  };
}

/** Attacking formations of the exact rows: N Knights × Lance ATK 3 (12, 30, 60 dice). */
export const EXACT_ATTACKERS: readonly number[] = [4, 10, 20];
const KNIGHT_ATK = 3;

/** The attacked formation: 10 shielded models (one Shield die each), DEF 4, MIGHT 2. */
const shieldedFormation: Unit = unitSchema.parse({
  id: 'shielded-formation',
  name: 'Shielded Formation',
  madeUp: true,
  def: 4,
  shield: true,
  might: 2,
  will: 3,
  weapons: [{ name: 'Spear', type: 'melee', atk: 1 }],
});

const exactUnits: readonly Unit[] = [...benchUnits, shieldedFormation];

/** One Attack Action: N Knights in formation pool 3N dice at a formation of 10 shielded models. */
export function exactAttackScenario(attackers: number): Scenario {
  return scenarioSchema.parse({
    ruleset: 'heroic',
    name: `bench: ${attackers} knights attack 10 shielded models`,
    mode: 'attack',
    rounds: 1,
    sides: [
      { name: 'Knights', groups: [{ id: 'knights', unit: 'sylvan-knight', models: attackers, formation: true }] },
      { name: 'Shields', groups: [{ id: 'shields', unit: 'shielded-formation', models: 10, formation: true }] },
    ],
  });
}

/** Worker side: not bench/measure.ts's, which would load the worker launcher into the worker. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

export interface ExactJob {
  readonly kind: 'exact';
  readonly attackers: number;
  /** Untimed calls on fresh kernels after the first, so the timed ones run on a warm JIT. */
  readonly warmupCalls: number;
  /** Timed calls of each kind after the warm-up. */
  readonly repetitions: number;
}

export interface ExactResult {
  readonly kind: 'exact';
  readonly attackers: number;
  readonly dice: number;
  readonly paths: number;
  /** Compiling the first kernel (not part of the exact call; tables are built lazily, in the call). */
  readonly compileMs: number;
  /** First call in this fresh worker: cold JIT, the kernel's tables built inside the call. */
  readonly firstMs: number;
  /** Median over `repetitions` calls after the warm-up, each on a freshly compiled kernel (its tables built again). */
  readonly freshKernelMs: number;
  /** Median over `repetitions` calls on one kernel whose tables are already built. */
  readonly reusedKernelMs: number;
  /** Mean Wounds dealt (a sanity check: 3N dice · 2/3 less saves, capped by the target's MIGHT). */
  readonly meanWounds: number;
}

/**
 * `exactDistributions` on the scenario of `attackers`, in this fresh worker: the first call cold,
 * then (after untimed warm-up calls) fresh kernels, honest about table building, and one reused
 * kernel (tables cached).
 * Compiling is timed apart: it builds no tables (they are built on the first roll of each size).
 */
export function measureExact(job: ExactJob): ExactResult {
  const scenario = exactAttackScenario(job.attackers);
  const exact = (kernel: Kernel): { ms: number; paths: number; meanWounds: number } => {
    const start = performance.now();
    // `--method exact`'s budget: these single actions stay far below it.
    const result = exactDistributions(kernel, EXACT_BUDGET);
    const ms = performance.now() - start;
    if (result === undefined) throw new Error(`exact: over budget (${JSON.stringify(EXACT_BUDGET)}) for ${job.attackers} attackers`);
    const wounds = result.probabilities[kernel.metrics.findIndex((metric) => metric.name === 'A.woundsDealt')];
    if (wounds === undefined) throw new Error('exact: the kernel has no A.woundsDealt metric');
    return { ms, paths: result.paths, meanWounds: wounds.reduce((sum, p, w) => sum + p * w, 0) };
  };
  const compileStart = performance.now();
  const firstKernel = compileHeroic(scenario, exactUnits, 'tables');
  const compileMs = performance.now() - compileStart;
  const first = exact(firstKernel);
  for (let w = 0; w < job.warmupCalls; w++) exact(compileHeroic(scenario, exactUnits, 'tables'));
  const fresh: number[] = [];
  for (let r = 0; r < job.repetitions; r++) fresh.push(exact(compileHeroic(scenario, exactUnits, 'tables')).ms);
  const reused: number[] = [];
  for (let r = 0; r < job.repetitions; r++) reused.push(exact(firstKernel).ms);
  return {
    kind: 'exact',
    attackers: job.attackers,
    dice: job.attackers * KNIGHT_ATK,
    paths: first.paths,
    compileMs,
    firstMs: first.ms,
    freshKernelMs: median(fresh),
    reusedKernelMs: median(reused),
    meanWounds: first.meanWounds,
  };
}
