import { balance } from '../../documents/balance.js';
import type { Tolerance } from '../../analysis/price-verdict.js';
import { matchupsDocument } from '../../documents/matchups-document.js';
import { matchups } from '../../analysis/matchups.js';
import { checkRoster, loadRoster, type LoadedRoster } from '../../input/roster.js';
import { balancePage } from '../../reports/balance-page.js';
import { matchupsPage } from '../../reports/matchups-page.js';
import type { ReportPage } from '../../reports/page-model.js';
import { loadScenarioData } from '../../input/scenario-file.js';
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

/** A roster view's result: the page the CLI's --report writes, and the document its --json prints (the same text). */
export interface RosterResult {
  readonly page: ReportPage;
  readonly json: string;
}

const jsonText = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

export async function matchupsReport(roster: LoadedRoster, options: RosterRunOptions): Promise<RosterResult> {
  const result = await matchups(roster, {
    executor: options.executor,
    seating: 'both',
    precision: options.precision ?? 0.01,
    ...(options.seed === undefined ? {} : { seed: options.seed }),
    ...(options.onRun === undefined ? {} : { onRun: options.onRun }),
  });
  const document = matchupsDocument(result);
  return { page: matchupsPage(document), json: jsonText(document) };
}

/**
 * `crucible balance` for the page: the roster's price list (every entry), or one entry's price — by
 * count against the others at their published costs; fielded whole, its row of the round robin's
 * list. The same document, and so the same page sections, as `crucible balance --report`.
 */
export async function balanceReport(
  roster: LoadedRoster,
  unit: string | undefined,
  budget: number,
  options: RosterRunOptions & { readonly tolerance?: Tolerance },
): Promise<RosterResult> {
  const document = await balance(roster, { ...options, budget, ...(unit === undefined ? {} : { unit }) });
  return { page: balancePage(document), json: jsonText(document) };
}
