import { runInWorker } from './in-worker.js';
import {
  formatRate,
  formatTable,
  type Measurement,
  measureThroughput,
  type RateSummary,
  type ThroughputSettings,
  verdict,
} from './measure.js';
import { EXACT_BUDGET, type ExactBudget } from '../sim/exact.js';
import { EXACT_ATTACKERS, type ExactResult } from './table-rows.js';

/**
 * Issue 9: drawing each action's outcome whole from its exact table (method `tables`) against
 * rolling every die (method `dice`), and exact single-action answers. Every row runs in its own
 * fresh worker, like the rest of the bench; the per-die rows it compares with are bench/run.ts's
 * own (`pooled dice`, `pooled engine`, `warmaster engine`), measured earlier in the same run.
 */

/** Issue 9: pooled 12-die attacks with shield saves by table sampling, one core — judged on row (a). */
const TARGET_TABLE_ATTACKS_PER_SECOND = 80e6;
/** Issue 9: Warmaster engagements to the end of the chain, method tables, one core. */
const TARGET_WARMASTER_TABLES_PER_SECOND = 10e6;
/** Issue 9: an exact single-action answer for pools up to 60 dice. */
const TARGET_EXACT_MS = 10;

/** The per-die rows of bench/run.ts that the table rows are compared with. */
export interface PerDieRows {
  /** Row (b): PoolScorer on the 12 dice + a d6 Shield die, into a histogram (`pooled dice`). */
  readonly attack: Measurement;
  /** Row (c), per die: the heroic kernel's `pooled` trial + tally (`pooled engine`). */
  readonly pooledTrial: Measurement;
  /** The Warmaster engagement per die (`warmaster engine`). */
  readonly warmaster: Measurement;
}

interface Target {
  readonly target: number;
  readonly value: number;
  readonly pass: boolean;
}

export interface TablesBench {
  readonly rows: {
    readonly attackTable: Measurement;
    readonly attackPerDie: Measurement;
    readonly pooledTrialTables: Measurement;
    readonly pooledTrialDice: Measurement;
    readonly warmasterTables: Measurement;
    readonly warmasterDice: Measurement;
  };
  /** Median over median, tables / per-die. */
  readonly ratios: { readonly attack: number; readonly pooledTrial: number; readonly warmaster: number };
  readonly exact: readonly ExactResult[];
  /** `--method exact`'s budget (sim/exact.ts), which each call ran under. */
  readonly exactBudget: ExactBudget;
  readonly targets: {
    /** Row (a) only. */
    readonly tableAttacksPerSecond: Target;
    readonly warmasterTablesEngagementsPerSecond: Target;
    /** The slowest first call (fresh worker: cold JIT, tables built in the call) over every pool size. */
    readonly exactFirstCallMs: Target;
    /** The slowest median call on a freshly compiled kernel (tables built again, JIT warm). */
    readonly exactFreshKernelMs: Target;
  };
  /** The report, printed by bench/run.ts with the other targets. */
  readonly lines: readonly string[];
}

/** Runs the table rows and the exact rows (logging each as it is measured) and reports them. */
export async function measureTables(
  settings: ThroughputSettings,
  quick: boolean,
  perDie: PerDieRows,
  log: (line: string) => void,
): Promise<TablesBench> {
  const measured = async (scenario: 'pooled' | 'warmaster', implementation: 'engine' | 'table', label: string): Promise<Measurement> => {
    const { measurement } = await measureThroughput(scenario, implementation, settings, 'tables');
    const rate = measurement.trialsPerSecond;
    const unit = implementation === 'table' ? 'attacks/s' : 'trials/s';
    log(`  measured ${label} ${formatRate(rate.median).padStart(9)} ${unit} (spread ${(rate.spread * 100).toFixed(1)}%)`);
    return measurement;
  };
  const attackTable = await measured('pooled', 'table', 'pooled      table  ');
  const pooledTrialTables = await measured('pooled', 'engine', 'pooled      engine (tables)');
  const warmasterTables = await measured('warmaster', 'engine', 'warmaster   engine (tables)');

  const exact: ExactResult[] = [];
  for (const attackers of EXACT_ATTACKERS) {
    // One fresh worker per pool size, so each first call is truly cold. The JIT takes ~10–15 calls
    // to settle, hence untimed warm-up calls before the timed ones (odd, for a plain median).
    const result = (await runInWorker({
      kind: 'exact',
      attackers,
      warmupCalls: quick ? 15 : 30,
      repetitions: quick ? 21 : 51,
    })) as ExactResult;
    log(
      `  measured exact ${String(result.dice).padStart(2)} dice  first ${result.firstMs.toFixed(2)} ms, fresh kernel ${result.freshKernelMs.toFixed(2)} ms, ${result.paths} paths`,
    );
    exact.push(result);
  }

  const rate = (m: Measurement): number => m.trialsPerSecond.median;
  const ratios = {
    attack: rate(attackTable) / rate(perDie.attack),
    pooledTrial: rate(pooledTrialTables) / rate(perDie.pooledTrial),
    warmaster: rate(warmasterTables) / rate(perDie.warmaster),
  };
  const slowestFirst = Math.max(...exact.map((e) => e.firstMs));
  const slowestFresh = Math.max(...exact.map((e) => e.freshKernelMs));
  const targets = {
    tableAttacksPerSecond: {
      target: TARGET_TABLE_ATTACKS_PER_SECOND,
      value: rate(attackTable),
      pass: rate(attackTable) >= TARGET_TABLE_ATTACKS_PER_SECOND,
    },
    warmasterTablesEngagementsPerSecond: {
      target: TARGET_WARMASTER_TABLES_PER_SECOND,
      value: rate(warmasterTables),
      pass: rate(warmasterTables) >= TARGET_WARMASTER_TABLES_PER_SECOND,
    },
    exactFirstCallMs: { target: TARGET_EXACT_MS, value: slowestFirst, pass: slowestFirst < TARGET_EXACT_MS },
    exactFreshKernelMs: { target: TARGET_EXACT_MS, value: slowestFresh, pass: slowestFresh < TARGET_EXACT_MS },
  };

  const spread = (s: RateSummary): string => `${(s.spread * 100).toFixed(1)}%`;
  const pair = (name: string, tables: Measurement, dice: Measurement, ratio: number): string[] => {
    const [t, d] = [tables.trialsPerSecond, dice.trialsPerSecond];
    return [
      name,
      formatRate(t.median),
      formatRate(t.max),
      spread(t),
      formatRate(d.median),
      formatRate(d.max),
      spread(d),
      `${ratio.toFixed(1)}×`,
    ];
  };
  const lines: string[] = [
    'issue 9: outcomes drawn from exact tables vs rolled die by die (one core, /s; ratio = tables median / per-die median)',
    ...formatTable([
      ['row', 'tables', 'best', 'spread', 'per-die', 'best', 'spread', 'tables/per-die'],
      pair('a/b  12-die attack + shield, histogram', attackTable, perDie.attack, ratios.attack),
      pair('c    heroic pooled trial + tally', pooledTrialTables, perDie.pooledTrial, ratios.pooledTrial),
      pair('     warmaster engagement + tally', warmasterTables, perDie.warmaster, ratios.warmaster),
    ]).map((line) => `  ${line}`),
    `pooled 12-die attacks with shield saves by table sampling (row a: one pick into a histogram, no rules, no tally): ${formatRate(rate(attackTable))}   target ≥ ${formatRate(TARGET_TABLE_ATTACKS_PER_SECOND)}: ${verdict(targets.tableAttacksPerSecond.pass)}`,
    `  the target is judged on row a only; the whole kernel trial with tables (row c) runs ${formatRate(rate(pooledTrialTables))} trials/s`,
    `warmaster engagements/s by tables (to the end, trial + tally): ${formatRate(rate(warmasterTables))} (per-die ${formatRate(rate(perDie.warmaster))}, ${ratios.warmaster.toFixed(1)}×)   target ≥ ${formatRate(TARGET_WARMASTER_TABLES_PER_SECOND)}: ${verdict(targets.warmasterTablesEngagementsPerSecond.pass)}`,
    `exact single-action answers (exactDistributions under --method exact's budget, ≤ ${EXACT_BUDGET.paths.toLocaleString('en')} paths and ${EXACT_BUDGET.draws.toLocaleString('en')} draws; N knights × ATK 3 attack 10 shielded models, DEF 4, MIGHT 2):`,
    ...formatTable([
      ['dice', 'paths', 'first call', 'fresh kernel', 'reused kernel', 'compile', 'mean Wounds'],
      ...exact.map((e) => [
        String(e.dice),
        String(e.paths),
        ms(e.firstMs),
        ms(e.freshKernelMs),
        ms(e.reusedKernelMs),
        ms(e.compileMs),
        e.meanWounds.toFixed(4),
      ]),
    ]).map((line) => `  ${line}`),
    `  first call (fresh worker, cold JIT, tables built in the call), slowest: ${ms(slowestFirst)}   target < ${TARGET_EXACT_MS} ms: ${verdict(targets.exactFirstCallMs.pass)}`,
    `  fresh kernel (median, tables built again in each call), slowest: ${ms(slowestFresh)}   target < ${TARGET_EXACT_MS} ms: ${verdict(targets.exactFreshKernelMs.pass)}`,
  ];
  return {
    rows: {
      attackTable,
      attackPerDie: perDie.attack,
      pooledTrialTables,
      pooledTrialDice: perDie.pooledTrial,
      warmasterTables,
      warmasterDice: perDie.warmaster,
    },
    ratios,
    exact,
    exactBudget: EXACT_BUDGET,
    targets,
    lines,
  };
}

const ms = (value: number): string => `${value.toFixed(2)} ms`;
