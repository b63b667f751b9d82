import { closestNames } from '../engine/validation.js';
import { InputError } from '../input/errors.js';
import type { ShardExecutor } from '../sim/shard-task.js';
import { type BalanceDocument, countBalanceDocument, wholeBalanceDocument } from './balance-document.js';
import { countCosts } from '../analysis/count-costs.js';
import type { Tolerance } from '../analysis/price-verdict.js';
import type { LoadedRoster } from '../input/roster.js';
import { wholeUnitCosts } from '../analysis/whole-unit-costs.js';

/**
 * `crucible balance` as one job, the path the CLI, the API and the workbench all take: a roster's
 * price list (every entry), or one entry's price. By count (analysis/count-costs.ts): that entry
 * against the others at their published costs, at `budget` points a side. Fielded whole
 * (analysis/whole-unit-costs.ts): the round robin's whole list is fitted, and the document keeps
 * that entry's row.
 */

export interface BalanceOptions {
  /** Price this entry alone; default: every entry, a price list. */
  readonly unit?: string;
  /** Points each side spends: needed where units are bought by count, not read where they are fielded whole. */
  readonly budget?: number;
  /** ± on each score near the answer (default 0.01). */
  readonly precision?: number;
  readonly seed?: number;
  readonly tolerance?: Tolerance;
  /** The entries of the list (default: all). */
  readonly only?: readonly string[];
  /** By count: play the proposed prices again on fresh dice (default true). */
  readonly check?: boolean;
  readonly executor?: ShardExecutor;
  /** Runs done, and the runs planned where they are known in advance (0 where not). */
  readonly onRun?: (done: number, total: number) => void;
}

export async function balance(roster: LoadedRoster, options: BalanceOptions = {}): Promise<BalanceDocument> {
  const head = { roster: roster.roster.name, file: roster.file };
  const { unit, budget, check, onRun, ...shared } = options;
  if (unit !== undefined && !roster.roster.entries.some((entry) => entry.id === unit)) {
    const ids = roster.roster.entries.map((entry) => entry.id);
    const [near] = closestNames(unit, ids, 1);
    throw InputError.at(
      roster.file,
      'entries',
      `no entry ${JSON.stringify(unit)}${near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`}; a unit is named by its id: ${ids.join(', ')}`,
    );
  }
  const precision = shared.precision ?? 0.01;
  if (roster.roster.fielded === 'whole') {
    const full = wholeBalanceDocument(
      head,
      await wholeUnitCosts(roster, { ...shared, precision, ...(onRun === undefined ? {} : { onRun }) }),
    );
    // One unit asked for: the round robin is the whole roster's, the list that unit's row.
    return unit === undefined ? full : { ...full, units: full.units.filter((entry) => entry.id === unit) };
  }
  if (budget === undefined)
    throw InputError.at(roster.file, '--budget', 'give --budget <points>: the points each side spends (this roster fields units by count)');
  const costs = await countCosts(roster, {
    ...shared,
    precision,
    budget,
    ...(check === undefined ? {} : { check }),
    ...(unit === undefined ? {} : { unit }),
    onRun: (runs) => onRun?.(runs, 0),
  });
  return countBalanceDocument(head, costs);
}
