import { type Command, InvalidArgumentError, Option } from 'commander';
import { compareVariants, type ComparisonResult } from '../../analysis/compare.js';
import { formatTable, tableOf, writeTable } from '../../analysis/tables.js';
import { groupThousands, percent } from '../format.js';
import type { Io } from './io.js';
import { type Common, common } from './analysis-common.js';
import { parseTrials } from './options.js';

/** `crucible compare`: two variants of a scenario on the same dice. */
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

export function registerCompare(program: Command, io: Io): void {
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
}
