import { type Command, InvalidArgumentError, Option } from 'commander';
import { type SweepAxis, sweep, sweepTable } from '../../analysis/sweep.js';
import { formatTable, writeTable } from '../../analysis/tables.js';
import { parseCommandLineValue } from '../../sim/scenario-patch.js';
import type { Io } from './io.js';
import { type Common, common, progressLine, withPool } from './analysis-common.js';
import { parsePrecision, parseTrials } from './options.js';

/** `crucible sweep`: a scenario over values of one or two fields. */
/** `--set path=v1,v2,…` → an axis (values as JSON where they parse, else text). */
export function parseSet(text: string, previous: SweepAxis[] = []): SweepAxis[] {
  const equals = text.indexOf('=');
  if (equals <= 0 || equals === text.length - 1) throw new InvalidArgumentError(`--set wants <path>=<value>[,<value>…], e.g. sides[0].groups[0].models=3,4,5; got ${JSON.stringify(text)}.`);
  const values = text.slice(equals + 1).split(',').map((value) => parseCommandLineValue(value.trim()));
  return [...previous, { path: text.slice(0, equals).trim(), values }];
}

export function registerSweep(program: Command, io: Io): void {
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
}
