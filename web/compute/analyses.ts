import { countBalanceDocument, wholeBalanceDocument } from '../../analysis/balance-document.js';
import { balance } from '../../analysis/balance.js';
import { matchupsDocument } from '../../analysis/matchups-document.js';
import { matchups } from '../../analysis/matchups.js';
import { checkRoster, loadRoster, type LoadedRoster } from '../../analysis/roster.js';
import { wholeUnitCosts } from '../../analysis/whole-unit-costs.js';
import { balancePage } from '../../reports/balance-page.js';
import { matchupsPage } from '../../reports/matchups-page.js';
import type { ReportPage } from '../../reports/page-model.js';
import { loadScenarioData } from '../../sim/scenario-file.js';
import type { ShardExecutor } from '../../sim/shard-task.js';

/**
 * `crucible matchups` and `crucible balance` for the workbench: the same analysis functions on the
 * page's Web Worker pool, turned into the same report page sections the CLI's `--report` writes.
 */

export interface RosterRunOptions {
  readonly executor: ShardExecutor;
  /** ± on each expected score (default 0.01, as the CLI). */
  readonly precision?: number;
  readonly seed?: number;
  readonly onRun?: (done: number, total: number) => void;
}

export async function openRoster(file: string): Promise<LoadedRoster> {
  const roster = await loadRoster(file);
  await checkRoster(roster, loadScenarioData);
  return roster;
}

export async function matchupsReport(roster: LoadedRoster, options: RosterRunOptions): Promise<ReportPage> {
  const result = await matchups(roster, {
    executor: options.executor,
    seating: 'both',
    precision: options.precision ?? 0.01,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.onRun === undefined ? {} : { onRun: options.onRun }),
  });
  return matchupsPage(matchupsDocument(result));
}

/**
 * A roster fielded by count: `unit`'s balance curve and fitted cost at `budget` points a side. A
 * roster fielded whole: the round robin's fitted costs (every entry; `unit` picks its row).
 */
export async function balanceReport(roster: LoadedRoster, unit: string, budget: number, options: RosterRunOptions): Promise<ReportPage> {
  const precision = options.precision ?? 0.01;
  const head = { roster: roster.roster.name, file: roster.file, precision, seating: 'both' as const };
  if (roster.roster.fielded === 'whole') {
    const costs = await wholeUnitCosts(roster, { executor: options.executor, precision, ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.onRun === undefined ? {} : { onRun: options.onRun }) });
    const full = wholeBalanceDocument({ ...head, ruleset: costs.matchups.ruleset, engineVersion: costs.matchups.engineVersion, seed: costs.matchups.seed }, costs);
    return balancePage(full.fielded === 'whole' ? { ...full, units: full.units.filter((entry) => entry.id === unit) } : full);
  }
  let runs = 0;
  const result = await balance(roster, unit, {
    budget,
    executor: options.executor,
    precision,
    seating: 'both',
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    onRun: (done) => {
      runs = done;
      options.onRun?.(runs, 0);
    },
  });
  return balancePage(countBalanceDocument({ ...head, ruleset: result.ruleset, engineVersion: result.engineVersion, seed: result.seed }, budget, [result]));
}
