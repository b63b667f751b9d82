import { type Command, Option } from 'commander';
import { matchups, rosterEntries } from '../../analysis/matchups.js';
import { loadRoster } from '../../analysis/roster.js';
import { formatTable, matrixTable, rulebookPercent, tableOf, writeTable } from '../../analysis/tables.js';
import { groupThousands } from '../format.js';
import type { Io } from './io.js';
import { type Common, common, progressLine, withPool } from './analysis-common.js';
import { parsePrecision, parseTrials } from './options.js';

/** `crucible matchups`: every entry of a roster against every entry. */
export function registerMatchups(program: Command, io: Io): void {
  common(
    program
      .command('matchups')
      .description('every unit of a roster against every unit: the chance the row unit wins, in a matrix ready to print')
      .argument('<roster>', 'a roster file (entries and the scenario template they fight in)')
      .option('--only <id...>', 'only these entries')
      .addOption(new Option('-p, --precision <e>', 'run each pairing the trials that bound P(win) within ±e at any p (default 0.01: 9,604)').argParser(parsePrecision))
      .addOption(new Option('-n, --trials <count>', 'instead of --precision: trials per pairing').argParser(parseTrials)),
  ).action(async (file: string, options: Common & { only?: string[]; precision?: number }) => {
    const roster = await loadRoster(file);
    const entries = rosterEntries(roster, options.only);
    const started = Date.now();
    const cells = await withPool(options.workers, (pool) =>
      matchups(roster, {
        executor: pool,
        onCell: progressLine(io, 'pairings'),
        ...(options.only === undefined ? {} : { only: options.only }),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.trials === undefined ? { precision: options.precision ?? 0.01 } : { trials: options.trials }),
      }),
    );
    const names = entries.map((entry) => entry.name ?? entry.id);
    const nameOf = new Map(entries.map((entry) => [entry.id, entry.name ?? entry.id]));
    const matrix = matrixTable('A \\ B', names, names, (row, column) => {
      const cell = cells.find((entry) => nameOf.get(entry.a) === row && nameOf.get(entry.b) === column);
      return cell === undefined ? undefined : rulebookPercent(cell.winProbability, cell.interval);
    });
    if (options.out !== undefined) {
      const long = tableOf(cells.map((cell) => ({ a: cell.a, b: cell.b, winProbability: cell.winProbability, low: cell.interval.low, high: cell.interval.high, trials: cell.trials })));
      await writeTable(options.out.toLowerCase().endsWith('.md') ? matrix : long, options.out);
    }
    const trials = cells.reduce((sum, cell) => sum + cell.trials, 0);
    io.stdout(`${roster.roster.name}: P(row unit, side A, wins)\n  file ${file} · ${cells.length} pairings · ${groupThousands(trials)} trials\n\n${formatTable(matrix, 'md')}`);
    io.stderr(`${cells.length} pairings in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  });
}
