import { type Command, InvalidArgumentError, Option } from 'commander';
import { balance, BALANCE_TARGETS, type BalanceResult, type BalanceTarget } from '../../analysis/balance.js';
import { loadRoster } from '../../analysis/roster.js';
import { formatTable, rulebookPercent, tableOf, writeTable } from '../../analysis/tables.js';
import { percent } from '../format.js';
import type { Io } from './io.js';
import { type Common, common, progressLine, withPool } from './analysis-common.js';
import { parsePrecision } from './options.js';

/** `crucible balance`: a unit's fitted point cost against a roster. */
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

export function registerBalance(program: Command, io: Io): void {
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
