import { availableParallelism } from 'node:os';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { balance, BALANCE_TARGETS, type BalanceResult, type BalanceTarget } from '../../analysis/balance.js';
import { compareVariants, type ComparisonResult } from '../../analysis/compare.js';
import { matchups, rosterEntries } from '../../analysis/matchups.js';
import { loadRoster } from '../../analysis/roster.js';
import { type SweepAxis, sweep, sweepTable } from '../../analysis/sweep.js';
import { formatTable, matrixTable, rulebookPercent, tableOf, writeTable } from '../../analysis/tables.js';
import { parseCommandLineValue } from '../../sim/scenario-patch.js';
import { InProcessExecutor } from '../../sim/in-process-executor.js';
import { ShardPool } from '../../sim/shard-pool.js';
import type { ShardExecutor } from '../../sim/shard-task.js';
import { groupThousands, percent } from '../format.js';
import type { Io } from './io.js';
import { parsePrecision, parseSeed, parseTrials, parseWorkers } from './options.js';

/**
 * The analysis commands: `compare` (two variants, common random numbers), `sweep` (one or two
 * fields over values), `matchups` (a roster against itself). Thin layers over analysis/; every
 * table can be written as CSV, JSON or Markdown with --out.
 */

interface Common {
  readonly seed?: number;
  readonly trials?: number;
  readonly workers?: number;
  readonly out?: string;
  readonly json?: boolean;
}

/** `--set path=v1,v2,…` → an axis (values as JSON where they parse, else text). */
export function parseSet(text: string, previous: SweepAxis[] = []): SweepAxis[] {
  const equals = text.indexOf('=');
  if (equals <= 0 || equals === text.length - 1) throw new InvalidArgumentError(`--set wants <path>=<value>[,<value>…], e.g. sides[0].groups[0].models=3,4,5; got ${JSON.stringify(text)}.`);
  const values = text.slice(equals + 1).split(',').map((value) => parseCommandLineValue(value.trim()));
  return [...previous, { path: text.slice(0, equals).trim(), values }];
}

function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

function pValueText(p: number): string {
  return p < 1e-4 ? '<0.0001' : p.toFixed(4);
}

/** The comparison as rows: an indicator in percent (points for the difference), a count as a mean. */
export function comparisonTable(result: ComparisonResult) {
  return tableOf(
    result.channels.map((channel) => {
      const indicator = channel.kind === 'indicator';
      const show = (value: number) => (indicator ? percent(value, 2) : value.toFixed(3));
      const difference = channel.difference;
      const scale = indicator ? 100 : 1;
      const unit = indicator ? ' pts' : '';
      return {
        outcome: channel.name,
        [result.a]: show(channel.a.mean),
        [result.b]: show(channel.b.mean),
        'a − b': `${signed(difference.mean * scale, indicator ? 2 : 3)}${unit}`,
        '95% interval': `[${signed(difference.interval.low * scale, indicator ? 2 : 3)}, ${signed(difference.interval.high * scale, indicator ? 2 : 3)}]`,
        p: pValueText(difference.pValue),
        'unpaired would need': Number.isFinite(channel.unpairedTrialsFactor) ? `${channel.unpairedTrialsFactor.toFixed(1)}× trials` : '∞',
      };
    }),
  );
}

async function withPool<T>(workers: number | undefined, work: (pool: ShardExecutor) => Promise<T>): Promise<T> {
  // -w 0: the main thread, as for run.
  if (workers === 0) return work(new InProcessExecutor());
  const pool = new ShardPool(workers ?? availableParallelism());
  try {
    return await work(pool);
  } finally {
    await pool.close(false);
  }
}

/** "12/400 pairings, 0:34 left" on the terminal stream, rewritten in place. */
function progressLine(io: Io, what: string): (done: number, total: number) => void {
  const started = Date.now();
  const stream = io.progressStream;
  return (done, total) => {
    if (stream === undefined) return;
    const elapsed = (Date.now() - started) / 1000;
    const left = done > 0 ? Math.round((elapsed / done) * (total - done)) : 0;
    stream.write(`\r${done}/${total} ${what}, ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left   ${done === total ? '\n' : ''}`);
  };
}

function balanceRow(result: BalanceResult): Record<string, unknown> {
  const fitted = result.fairCost;
  return {
    unit: result.unit,
    published: result.publishedCost ?? '',
    fitted: fitted === undefined ? 'not found' : fitted.toFixed(1),
    '95% interval': result.costInterval === undefined ? '' : `[${result.costInterval.low.toFixed(1)}, ${result.costInterval.high.toFixed(1)}]`,
    'published − fitted': fitted === undefined || result.publishedCost === undefined ? '' : (result.publishedCost - fitted).toFixed(1),
  };
}

export function registerAnalysis(program: Command, io: Io): void {
  const common = (command: Command, { workers = true } = {}) => {
    command.addOption(new Option('-s, --seed <seed>', 'seed (default: the scenario\'s)').argParser(parseSeed));
    // compare pairs its two variants trial by trial on this thread: it takes no worker threads.
    if (workers) command.addOption(new Option('-w, --workers <count>', 'worker threads (default: one per core)').argParser(parseWorkers));
    return command.option('-o, --out <file>', 'also write the table to a .csv, .json or .md file');
  };

  common(
    program
      .command('compare')
      .description('compare two variants of a scenario on the same dice: the difference in every outcome, with its 95% interval and p-value')
      .argument('<scenario>', 'a scenario file that declares `variants`')
      .requiredOption('--variant <name...>', 'one variant (against the scenario as written) or two')
      .addOption(new Option('-n, --trials <count>', 'trials (default: the scenario\'s)').argParser(parseTrials)),
    { workers: false },
  ).action(async (file: string, options: Common & { variant: string[] }) => {
    if (options.variant.length > 2) throw new InvalidArgumentError('--variant takes one or two names');
    const [first, second] = options.variant;
    const [a, b] = second === undefined ? [undefined, first as string] : [first, second];
    const result = await compareVariants(file, a, b, { ...(options.seed === undefined ? {} : { seed: options.seed }), ...(options.trials === undefined ? {} : { trials: options.trials }) });
    const table = comparisonTable(result);
    if (options.out !== undefined) await writeTable(table, options.out);
    const factors = result.channels.map((channel) => channel.unpairedTrialsFactor).filter((factor) => Number.isFinite(factor) && factor > 0).sort((x, y) => x - y);
    const median = factors[Math.floor(factors.length / 2)] ?? 1;
    io.stdout(
      [
        `${result.scenario}: ${result.b} vs ${result.a}, paired on the same dice`,
        `  file ${result.file} · ruleset ${result.ruleset} (engine ${result.engineVersion}) · seed ${result.seed} · trials ${groupThousands(result.trials)}`,
        '',
        formatTable(table, 'md').trimEnd(),
        '',
        `An unpaired comparison (independent dice) would need ${median.toFixed(1)}× the trials for the same precision (median over the outcomes shown).`,
        '',
      ].join('\n'),
    );
  });

  common(
    program
      .command('sweep')
      .description('run a scenario over values of one or two fields: every outcome at every point')
      .argument('<scenario>', 'a scenario file')
      .requiredOption('--set <path=values>', 'a field and its values, e.g. sides[0].groups[0].models=3,4,5 (twice for two fields)', parseSet)
      .option('--metric <name...>', 'only these metrics in the table')
      .addOption(new Option('-n, --trials <count>', 'trials per point (default: the scenario\'s)').argParser(parseTrials))
      .addOption(new Option('-p, --precision <e>', 'instead of --trials: run each point until every probability is within ±e').argParser(parsePrecision)),
  ).action(async (file: string, options: Common & { set: SweepAxis[]; metric?: string[]; precision?: number }) => {
    if (options.set.length > 2) throw new InvalidArgumentError('--set sweeps one or two fields');
    const points = await withPool(options.workers, (pool) =>
      sweep(file, options.set, {
        executor: pool,
        onPoint: progressLine(io, 'points'),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.trials === undefined ? {} : { trials: options.trials }),
        ...(options.precision === undefined ? {} : { precision: options.precision }),
      }),
    );
    const table = sweepTable(options.set, points, options.metric);
    if (options.out !== undefined) await writeTable(table, options.out);
    const first = points[0]?.result;
    io.stdout(`${first?.scenario ?? file}: sweep of ${options.set.map((axis) => axis.path).join(' × ')}\n  file ${file} · engine ${first?.engineVersion ?? '?'} · seed ${first?.seed ?? '?'}\n\n${formatTable(table, 'md')}`);
  });

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

  common(
    program
      .command('balance')
      .description("fit a unit's point cost: where its equal-points match-ups against a roster are won half the time (or as often as the roster's own)")
      .argument('[unit]', 'the roster entry to fit (or --all)')
      .requiredOption('--against <roster>', 'the roster file: opponents, their published costs, and the template')
      .requiredOption('--budget <points>', 'points each side spends', (text: string) => {
        const value = Number(text);
        if (!(value > 0)) throw new InvalidArgumentError(`The budget must be a number of points above 0, got ${JSON.stringify(text)}.`);
        return value;
      })
      .addOption(new Option('--target <target>', 'the fair point').choices([...BALANCE_TARGETS]).default('win-half'))
      .option('--all', "fit every entry and rank them by published cost minus fitted cost")
      .option('--only <id...>', 'opponents to use (default: every other entry)')
      .addOption(new Option('-p, --precision <e>', 'precision of each win rate near the answer (default 0.01)').argParser(parsePrecision)),
  ).action(async (unit: string | undefined, options: Common & { against: string; budget: number; target: BalanceTarget; all?: boolean; only?: string[]; precision?: number }) => {
    const roster = await loadRoster(options.against);
    const units = options.all === true ? roster.roster.entries.map((entry) => entry.id) : unit === undefined ? [] : [unit];
    if (units.length === 0) throw new InvalidArgumentError('name a unit, or give --all');
    const results: BalanceResult[] = [];
    await withPool(options.workers, async (pool) => {
      for (const id of units) {
        results.push(
          await balance(roster, id, {
            budget: options.budget,
            target: options.target,
            executor: pool,
            ...(options.only === undefined ? {} : { against: options.only.filter((other) => other !== id) }),
            ...(options.seed === undefined ? {} : { seed: options.seed }),
            ...(options.precision === undefined ? {} : { precision: options.precision }),
          }),
        );
        progressLine(io, 'units')(results.length, units.length);
      }
    });
    const ranked = [...results].sort((a, b) => (b.publishedCost ?? 0) - (b.fairCost ?? 0) - ((a.publishedCost ?? 0) - (a.fairCost ?? 0)));
    const table = tableOf(ranked.map(balanceRow));
    if (options.out !== undefined) await writeTable(table, options.out);
    const lines = [`${roster.roster.name}: fitted costs at ${options.budget} points a side (${options.target}${results[0] === undefined ? '' : `, target win rate ${percent(results[0].targetWinRate, 1)}`})`, '', formatTable(table, 'md').trimEnd()];
    if (results.length === 1 && results[0] !== undefined) {
      lines.push('', 'win rate by count:', formatTable(tableOf(results[0].curve.map((point) => ({ count: point.count, 'win rate': rulebookPercent(point.winRate, point.interval), trials: point.trials }))), 'md').trimEnd());
    }
    io.stdout(`${lines.join('\n')}\n`);
  });
}
