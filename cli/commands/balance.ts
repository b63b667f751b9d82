import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { balance } from '../../documents/balance.js';
import type { BalanceDocument } from '../../documents/balance-document.js';
import { curveTable, opponentTable, priceListLegend, priceListNumbers, priceListTable, situationTable } from '../../documents/balance-tables.js';
import { matchupMarkdown, matrixNumbers } from '../../documents/matchup-tables.js';
import { parseTolerance, type Tolerance, toleranceProblem } from '../../analysis/price-verdict.js';
import { checkRoster, loadRoster } from '../../input/roster.js';
import { writeTextFile } from '../../documents/table-files.js';
import { formatOfFile, formatTable, tableOf, textTable, wrapText } from '../../documents/tables.js';
import { InputError } from '../../input/errors.js';
import { loadScenarioData } from '../../input/scenario-file.js';
import { type Common, common, progressLine, withPool, writeReport } from './analysis-common.js';
import type { Io } from './io.js';
import { parseBudget, parsePrecision } from './options.js';
import { trustOf } from './plugins.js';
import { fileSystemData } from '../../input/data-file.js';

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

/** Every table of the document, each under a heading. */
function sections(document: BalanceDocument): { heading: string; table: ReturnType<typeof tableOf> }[] {
  const out = [{ heading: 'Price list (under-costed first, then over-costed, uncertain and fair; each by how far its price is off)', table: priceListTable(document) }];
  if (document.situations.length > 1) out.push({ heading: 'Deserved cost in each situation (its share of the games), with its 95% interval', table: situationTable(document) });
  if (document.fielded === 'by-count' && document.scope === 'unit') {
    for (const unit of document.units) {
      out.push({ heading: `${unit.name}: expected score against the list by models fielded (the others at their published costs)`, table: curveTable(document, unit.id) });
      out.push({ heading: `${unit.name}: against each opponent alone`, table: opponentTable(document, unit.id) });
    }
  }
  return out;
}

function title(document: BalanceDocument): string {
  if (document.fielded === 'whole') return `${document.roster}: prices from a round robin at published points (Bradley–Terry with draws, the list's cost line fitted robustly)`;
  if (document.scope === 'unit') return `${document.roster}: what ${document.units[0]?.name ?? 'the unit'} should cost at ${document.budget} points a side, the others at their published costs`;
  return `${document.roster}: a price list at ${document.budget} points a side (every unit even with the list at the new prices)`;
}

function markdown(document: BalanceDocument): string {
  const parts = [`**${title(document)}**`, ''];
  for (const { heading, table } of sections(document)) parts.push(`*${heading}*`, '', table.toMarkdown(), '');
  parts.push(...priceListLegend(document).flatMap((line) => [line, '']));
  // A round robin: the matrix it was fitted from, with its own caption.
  if (document.fielded === 'whole') parts.push(matchupMarkdown(document.matchups, 'score'));
  return parts.join('\n');
}

async function writeOut(file: string, document: BalanceDocument): Promise<void> {
  const format = formatOfFile(file);
  if (format === 'json') return writeTextFile(file, `${JSON.stringify(document, null, 2)}\n`);
  if (format === 'md') return writeTextFile(file, markdown(document));
  await writeTextFile(file, formatTable(priceListNumbers(document), 'csv'));
  const extension = path.extname(file);
  const beside = (name: string) => `${file.slice(0, file.length - extension.length)}.${name}${extension}`;
  if (document.fielded === 'whole') await writeTextFile(beside('matchups'), formatTable(matrixNumbers(document.matchups, 'score'), 'csv'));
  else {
    // Each unit's score at each whole count measured, against the list at the proposed prices (not the published ones).
    const curves = document.units.flatMap((unit) => unit.curve.map((point) => ({ unit: unit.name, models: point.count, 'score against the list at the proposed prices': Number(point.score.value.toFixed(4)), 'score 95% low': Number(point.score.interval.low.toFixed(4)), 'score 95% high': Number(point.score.interval.high.toFixed(4)), measured: point.fine ? 'fine' : 'coarse' })));
    await writeTextFile(beside('curves'), formatTable(tableOf(curves), 'csv'));
  }
}

export function registerBalance(program: Command, io: Io): void {
  common(
    program
      .command('balance')
      .description("a price list: what each unit of a roster deserves to cost, with its 95% interval and a verdict, checked — by count, from games at equal points; fielded whole, from a round robin at published points")
      .argument('[unit]', 'price this entry only (by count: against the others at their published costs); default: every entry, a price list')
      .requiredOption('--against <roster>', 'the roster file: entries, their published costs, the template and its situations')
      .addOption(new Option('--budget <points>', 'points each side spends (rosters fielded by count)').argParser(parseBudget))
      .option('--all', 'every entry: the whole price list (the default when no unit is named)')
      .option('--only <id...>', 'the entries of the list (default: all)')
      .addOption(new Option('--tolerance <t>', 'how far a price may be off before it is worth changing: a percentage of the published cost ("10%") or points ("5"); default 10%').argParser(parseToleranceOption))
      .option('--no-check', 'skip the check (by count: playing the proposed prices again on fresh dice)')
      .option('--json', 'print the whole result as JSON (every number at full precision; `crucible report` reads it)')
      .option('--report <dir>', 'also write an HTML page (price list, charts, tables, provenance) into this folder')
      .addOption(new Option('-p, --precision <e>', 'every score near the answer within ±e (default 0.01); sets the trials of each run').argParser(parsePrecision)),
  ).action(async (unit: string | undefined, options: BalanceCliOptions) => {
    const trusted = { plugins: trustOf(options) };
    const roster = await loadRoster(options.against, trusted);
    // Every entry checked in the template before any run: a typo fails at once, not after an hour.
    await checkRoster(roster, (at, data) => loadScenarioData(at, data, fileSystemData, trusted));
    if (options.out !== undefined) formatOfFile(options.out);
    if (unit !== undefined && options.all === true) throw new InvalidArgumentError('name a unit or give --all, not both');
    if (roster.roster.fielded === 'whole' && options.budget !== undefined) throw InputError.at(options.against, 'fielded', 'this roster fields each entry whole, at its published points: --budget does not apply (leave it out)');
    const document = await withPool(options, io.stderr, (pool) =>
      balance(roster, {
        ...(unit === undefined ? {} : { unit }),
        ...(options.budget === undefined ? {} : { budget: options.budget }),
        ...(options.precision === undefined ? {} : { precision: options.precision }),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.only === undefined ? {} : { only: options.only }),
        ...(options.tolerance === undefined ? {} : { tolerance: options.tolerance }),
        check: options.check,
        executor: pool,
        onRun: progressLine(io, 'runs'),
      }),
    );
    if (options.out !== undefined) await writeOut(options.out, document);
    if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
    if (options.json === true) {
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
      return;
    }
    const lines = [title(document), `  file ${roster.file}`, ''];
    for (const { heading, table } of sections(document)) lines.push(heading, '', textTable(table), '');
    for (const paragraph of priceListLegend(document)) lines.push(wrapText(paragraph), '');
    io.stdout(lines.join('\n'));
  });
}
