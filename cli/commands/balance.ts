import { type Command, InvalidArgumentError, Option } from 'commander';
import { balance } from '../../documents/balance.js';
import type { BalanceDocument } from '../../documents/balance-document.js';
import { curvesTable, curveTable, opponentTable, priceList, priceListLegend, situationTable } from '../../documents/balance-tables.js';
import { matchupTable } from '../../documents/matchup-tables.js';
import { type DataTable, type OutputDocument, printDocument } from '../../documents/table-model.js';
import { parseTolerance, type Tolerance, toleranceProblem } from '../../analysis/price-verdict.js';
import { checkRoster, loadRoster } from '../../input/roster.js';
import { InputError } from '../../input/errors.js';
import { loadScenarioData } from '../../input/scenario-file.js';
import { type Common, common, inSession, sessionOf, withPool, writeReport } from './analysis-common.js';
import type { Io } from './io.js';
import { parseBudget, parsePrecision } from './options.js';
import { trustOf } from './plugins.js';
import { fileSystemData, nameInputs } from '../../input/data-file.js';
import { checkOut, writeOut } from './table-out.js';
import { listOption } from '../list-options.js';

/** `crucible balance`: a price list — what each unit of a roster deserves to cost, checked. */

interface BalanceCliOptions extends Common {
  readonly against: string;
  readonly budget?: number;
  readonly all?: boolean;
  readonly only?: string[];
  readonly precision?: number;
  readonly tolerance?: Tolerance;
  readonly check: boolean;
  readonly report?: string;
}

function parseToleranceOption(text: string): Tolerance {
  const tolerance = parseTolerance(text);
  if (tolerance === undefined) throw new InvalidArgumentError(toleranceProblem(text));
  return tolerance;
}

/** Every table of the document, in print order: the price list (whose legend says what every column means), by situation, each unit's curve and opponents, the round robin. */
function tables(document: BalanceDocument): DataTable[] {
  const out = [situationless(priceList(document)), ...(document.situations.length > 1 ? [situationTable(document)] : [])];
  if (document.fielded === 'by-count' && document.scope === 'unit') {
    for (const unit of document.units) out.push(curveTable(document, unit.id), opponentTable(document, unit.id));
  }
  return out;
}

/** The price list's legend is said once, after every table (it explains the situations' columns too). */
const situationless = (table: DataTable): DataTable => ({ ...table, notes: [] });

function title(document: BalanceDocument): string {
  if (document.fielded === 'whole')
    return `${document.roster}: prices from a round robin at published points (Bradley–Terry with draws, the list's cost line fitted robustly)`;
  if (document.scope === 'unit')
    return `${document.roster}: what ${document.units[0]?.name ?? 'the unit'} should cost at ${document.budget} points a side, the others at their published costs`;
  return `${document.roster}: a price list at ${document.budget} points a side (every unit even with the list at the new prices)`;
}

/**
 * The printout (terminal, .md, .html): every table, then the legend; --out .csv and .json write the
 * price list, and beside it each unit's curve (by count, x.curves.csv) or the round robin's matrix
 * (fielded whole, x.matchups.csv). Printed to a file, a round robin's matrix follows the legend.
 */
function printout(document: BalanceDocument, roster: string, file = false): OutputDocument {
  const matrix = document.fielded === 'whole' && file ? [matchupTable(document.matchups, 'score', 'wide')] : [];
  return {
    title: title(document),
    lead: [`  file ${roster}`],
    tables: [...tables(document), ...matrix],
    after: priceListLegend(document),
    data: priceList(document),
  };
}

function sideTables(document: BalanceDocument): { name: string; table: DataTable }[] {
  return document.fielded === 'whole'
    ? [{ name: 'matchups', table: matchupTable(document.matchups, 'score', 'wide') }]
    : [{ name: 'curves', table: curvesTable(document) }];
}

export function registerBalance(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  common(
    program
      .command('balance')
      .description(
        'a price list: what each unit of a roster deserves to cost, with its 95% interval and a verdict, checked — by count, from games at equal points; fielded whole, from a round robin at published points',
      )
      .argument(
        '[unit]',
        'price this entry only (by count: against the others at their published costs); default: every entry, a price list',
      )
      .requiredOption('--against <roster>', 'the roster file: entries, their published costs, the template and its situations')
      .addOption(new Option('--budget <points>', 'points each side spends (rosters fielded by count)').argParser(parseBudget))
      .option('--all', 'every entry: the whole price list (the default when no unit is named)')
      .addOption(listOption('--only <id>', 'the entries of the list (default: all)'))
      .addOption(
        new Option(
          '--tolerance <t>',
          'how far a price may be off before it is worth changing: a percentage of the published cost ("10%") or points ("5"); default 10%',
        ).argParser(parseToleranceOption),
      )
      .option('--no-check', 'skip the check (by count: playing the proposed prices again on fresh dice)')
      .option('--json', 'print the whole result as JSON (every number at full precision; `crucible report` reads it)')
      .option('--report <dir>', 'also write an HTML page (price list, charts, tables, provenance) into this folder')
      .addOption(
        new Option('-p, --precision <e>', 'every score near the answer within ±e (default 0.01); sets the trials of each run').argParser(
          parsePrecision,
        ),
      ),
  ).action(async (unit: string | undefined, options: BalanceCliOptions) => {
    // The roster may be standard input or a pipe, as a command's file argument (input/data-file.ts).
    nameInputs([options.against]);
    const trusted = { plugins: trustOf(options) };
    const roster = await loadRoster(options.against, trusted);
    // Every entry checked in the template before any run: a typo fails at once, not after an hour.
    await checkRoster(roster, (at, data) => loadScenarioData(at, data, fileSystemData, trusted));
    checkOut(options);
    if (unit !== undefined && options.all === true) throw new InvalidArgumentError('name a unit or give --all, not both');
    if (roster.roster.fielded === 'whole' && options.budget !== undefined)
      throw InputError.at(
        options.against,
        'fielded',
        'this roster fields each entry whole, at its published points: --budget does not apply (leave it out)',
      );
    const session = sessionOf(io, env, options, { command: 'balance', file: options.against, unit: 'runs' });
    const outcome = await inSession(session, () =>
      withPool(options, io.stderr, session, (pool) =>
        balance(roster, {
          ...(unit === undefined ? {} : { unit }),
          ...(options.budget === undefined ? {} : { budget: options.budget }),
          ...(options.precision === undefined ? {} : { precision: options.precision }),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          ...(options.only === undefined ? {} : { only: options.only }),
          ...(options.tolerance === undefined ? {} : { tolerance: options.tolerance }),
          check: options.check,
          executor: pool,
          onRun: session.progress,
        }),
      ),
    );
    if ('status' in outcome) {
      setStatus(outcome.status);
      return;
    }
    const document = outcome.result;
    const printed = await writeOut(options, printout(document, roster.file, true), io, sideTables(document));
    if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
    if (!printed)
      io.stdout(options.json === true ? `${JSON.stringify(document, null, 2)}\n` : printDocument(printout(document, roster.file), 'text'));
  });
}
