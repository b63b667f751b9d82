import path from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { balance, type CountBalance } from '../../analysis/balance.js';
import { type BalanceDocument, countBalanceDocument, wholeBalanceDocument } from '../../analysis/balance-document.js';
import { costsNumbers, countCostsTable, perCountTable, perOpponentTable, wholeCostsTable } from '../../analysis/balance-tables.js';
import { matchupMarkdown, matrixNumbers, probabilityDecimals } from '../../analysis/matchup-tables.js';
import { SEATINGS, type Seating } from '../../analysis/matchups.js';
import { checkRoster, loadRoster } from '../../analysis/roster.js';
import { loadScenarioData } from '../../sim/scenario-file.js';
import { formatOfFile, formatTable, tableOf, writeTextFile } from '../../analysis/tables.js';
import { wholeUnitCosts } from '../../analysis/whole-unit-costs.js';
import { InputError } from '../../sim/errors.js';
import type { Io } from './io.js';
import { type Common, common, progressLine, withPool, writeReport } from './analysis-common.js';
import { parsePrecision } from './options.js';

/** `crucible balance`: a unit's fitted point cost against a roster. */

interface BalanceCliOptions extends Common {
  readonly against: string;
  readonly budget?: number;
  readonly all?: boolean;
  readonly only?: string[];
  readonly precision?: number;
  readonly seating: Seating;
  readonly report?: string;
}

function parseBudget(text: string): number {
  const value = Number(text);
  if (!(value > 0)) throw new InvalidArgumentError(`The budget must be a number of points above 0, got ${JSON.stringify(text)}.`);
  return value;
}

/** Every table of the document as text, each under a heading. */
function sections(document: BalanceDocument): { heading: string; table: ReturnType<typeof tableOf> }[] {
  if (document.fielded === 'whole') return [{ heading: 'Fitted costs from a round robin at published points (most under-costed first)', table: wholeCostsTable(document) }];
  const out = [{ heading: 'Fitted costs (verdicts first: under-costed, then over-costed, each by how far published lies from fitted)', table: countCostsTable(document) }];
  for (const result of document.results) {
    out.push({ heading: `${result.name}: expected score by models fielded`, table: perCountTable(document, result.unit) });
    out.push({ heading: `${result.name}: against each opponent`, table: perOpponentTable(document, result.unit) });
  }
  return out;
}

function title(document: BalanceDocument): string {
  return document.fielded === 'whole'
    ? `${document.roster}: point costs fitted from a round robin at published points (Bradley–Terry with draws, strength on ln points)`
    : `${document.roster}: fitted costs at ${document.budget} points a side (expected score ½ at equal points)`;
}

function legend(document: BalanceDocument): string {
  const seating = document.seating === 'both' ? "each pairing played with the unit in the template's first side and in its second, equal trials" : `the unit always in the template's ${document.seating} side`;
  if (document.fielded === 'whole') {
    const { regression } = document;
    return [
      `A unit is under-costed (over-costed) when its strength lies above (below) the 95% prediction interval of the line fitted to the others; 'fair' otherwise. Fitted: the points at which the line gives the unit's strength, with its 95% calibration interval.`,
      `Line: strength = ${regression.intercept.toFixed(2)} + ${regression.slope.toFixed(2)} · ln(points), unit-to-unit scatter ${regression.residualSd.toFixed(2)} (log-odds). Draw parameter ${document.drawParameter.toFixed(2)}; first-seat advantage ${document.seatAdvantage.toFixed(2)} ±${(1.96 * document.seatAdvantageStandardError).toFixed(2)} log-odds.`,
      `${seating}; every score within ±${(document.precision * 100).toFixed(1)} points; seed ${document.seed ?? 'the template\'s'}; engine ${document.engineVersion}.`,
    ].join('\n');
  }
  return [
    "Fitted: the cost at which the unit's expected score (win + ½ draw), averaged over the opponents each met at equal points, is ½ — from a curve per opponent, logit(score) = αₒ + β·ln(models / opponent's points), fitted to every count measured. Each opponent fields the whole models its published cost buys, and the fit uses the points it actually fielded. The interval covers simulation noise and how loosely the curves fit (dispersion 1: only noise).",
    `${seating}; scores near ½ within ±${(document.precision * 100).toFixed(1)} points; seed ${document.seed ?? 'the template\'s'}; engine ${document.engineVersion}.`,
  ].join('\n');
}

function markdown(document: BalanceDocument): string {
  const parts = [`**${title(document)}**`, ''];
  for (const { heading, table } of sections(document)) parts.push(`*${heading}*`, '', table.toMarkdown(), '');
  parts.push(legend(document), '');
  // A round robin: the matrix it was fitted from, with its own caption.
  if (document.fielded === 'whole') parts.push(matchupMarkdown(document.matchups, 'score'));
  return parts.join('\n');
}

/** Every observation (unit × opponent × models) as numbers: the per-count and per-opponent tables in one. */
function observationsNumbers(results: Extract<BalanceDocument, { fielded: 'by-count' }>['results'], precision: number) {
  const decimals = probabilityDecimals(precision);
  const round = (value: number) => Number(value.toFixed(decimals));
  return tableOf(
    results.flatMap((result) =>
      result.observations.map((observation) => ({
        unit: result.name,
        opponent: result.opponents.find((opponent) => opponent.opponent === observation.opponent)?.name ?? observation.opponent,
        models: observation.count,
        'opponent models': observation.opponentCount,
        'opponent points': observation.opponentPoints,
        'P(win)': round(observation.combined.win.value),
        'P(draw)': round(observation.combined.draw.value),
        'P(loss)': round(observation.combined.loss.value),
        'expected score': round(observation.combined.score.value),
        'score 95% low': round(observation.combined.score.interval.low),
        'score 95% high': round(observation.combined.score.interval.high),
        trials: observation.combined.trials,
      })),
    ),
  );
}

async function writeOut(file: string, document: BalanceDocument): Promise<void> {
  const format = formatOfFile(file);
  if (format === 'json') return writeTextFile(file, `${JSON.stringify(document, null, 2)}\n`);
  if (format === 'md') return writeTextFile(file, markdown(document));
  await writeTextFile(file, formatTable(costsNumbers(document), 'csv'));
  const extension = path.extname(file);
  const beside = (name: string) => `${file.slice(0, file.length - extension.length)}.${name}${extension}`;
  if (document.fielded === 'by-count') await writeTextFile(beside('observations'), formatTable(observationsNumbers(document.results, document.precision), 'csv'));
  else await writeTextFile(beside('matchups'), formatTable(matrixNumbers(document.matchups, 'score'), 'csv'));
}

export function registerBalance(program: Command, io: Io): void {
  common(
    program
      .command('balance')
      .description("fit point costs: where a unit's equal-points games against a roster score ½ (win + ½ draw, both seatings); a roster fielded whole is fitted from a round robin at published points")
      .argument('[unit]', 'the roster entry to fit (or --all)')
      .requiredOption('--against <roster>', 'the roster file: opponents, their published costs, and the template')
      .addOption(new Option('--budget <points>', 'points each side spends (rosters fielded by count)').argParser(parseBudget))
      .option('--all', 'fit every entry and rank them')
      .option('--only <id...>', 'opponents (default: every other entry; one id alone may be the unit itself: its mirror); for a roster fielded whole, the entries of the round robin')
      .addOption(new Option('--seating <seating>', "both (fair: the unit in the template's first side and in its second, equal trials), first or second").choices([...SEATINGS]).default('both'))
      .option('--json', 'print the whole result as JSON (every number at full precision; `crucible report` reads it)')
      .option('--report <dir>', 'also write an HTML page (balance curve, tables, provenance) into this folder')
      .addOption(new Option('-p, --precision <e>', 'every score near the answer within ±e (default 0.01); sets the trials of each run').argParser(parsePrecision)),
  ).action(async (unit: string | undefined, options: BalanceCliOptions) => {
    const roster = await loadRoster(options.against);
    // Every entry checked in the template before any run: a typo fails at once, not after an hour.
    await checkRoster(roster, loadScenarioData);
    if (options.out !== undefined) formatOfFile(options.out);
    const whole = roster.roster.fielded === 'whole';
    const precision = options.precision ?? 0.01;
    let document: BalanceDocument;
    if (whole) {
      if (options.budget !== undefined) throw InputError.at(options.against, 'fielded', 'this roster fields each entry whole, at its published points: --budget does not apply (leave it out)');
      if (options.seating !== 'both') throw InputError.at(options.against, 'fielded', 'a round robin is fitted from both seatings (the model estimates the first-seat advantage): leave out --seating');
      if (unit !== undefined && !roster.roster.entries.some((entry) => entry.id === unit)) throw InputError.at(options.against, 'entries', `no entry ${JSON.stringify(unit)}`);
      const costs = await withPool(options, io.stderr, (pool) =>
        wholeUnitCosts(roster, { executor: pool, precision, onRun: progressLine(io, 'runs'), ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.only === undefined ? {} : { only: options.only }) }),
      );
      const full = wholeBalanceDocument({ roster: roster.roster.name, file: roster.file, ruleset: costs.matchups.ruleset, engineVersion: costs.matchups.engineVersion, seed: costs.matchups.seed, precision: costs.matchups.precision, seating: 'both' }, costs);
      // One unit asked for: the round robin is the whole roster's, the table that unit's row.
      document = unit === undefined || options.all === true || full.fielded !== 'whole' ? full : { ...full, units: full.units.filter((entry) => entry.id === unit) };
    } else {
      if (options.budget === undefined) throw InputError.at(options.against, '--budget', 'give --budget <points>: the points each side spends (this roster fields units by count)');
      const budget = options.budget;
      const units = options.all === true ? roster.roster.entries.map((entry) => entry.id) : unit === undefined ? [] : [unit];
      if (units.length === 0) throw new InvalidArgumentError('name a unit, or give --all');
      const results: CountBalance[] = [];
      await withPool(options, io.stderr, async (pool) => {
        for (const id of units) {
          results.push(
            await balance(roster, id, {
              budget,
              executor: pool,
              precision,
              seating: options.seating,
              // The unit itself is an opponent only when named alone (the mirror check: a unit against only itself).
              ...(options.only === undefined ? {} : { against: options.only.length === 1 ? options.only : options.only.filter((other) => other !== id) }),
              ...(options.seed === undefined ? {} : { seed: options.seed }),
            }),
          );
          progressLine(io, 'units')(results.length, units.length);
        }
      });
      const first = results[0];
      document = countBalanceDocument({ roster: roster.roster.name, file: roster.file, ruleset: first?.ruleset ?? '', engineVersion: first?.engineVersion ?? '', ...(first?.seed === undefined ? {} : { seed: first.seed }), precision, seating: options.seating }, budget, results);
    }
    if (options.out !== undefined) await writeOut(options.out, document);
    if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
    if (options.json === true) {
      io.stdout(`${JSON.stringify(document, null, 2)}\n`);
      return;
    }
    const lines = [title(document), `  file ${roster.file}`, ''];
    const all = sections(document);
    // One unit: every table; --all: the ranking only (the rest is in --out/--json).
    for (const { heading, table } of options.all === true && !whole ? all.slice(0, 1) : all) lines.push(heading, '', formatTable(table, 'md').trimEnd(), '');
    lines.push(legend(document), '');
    io.stdout(lines.join('\n'));
  });
}
