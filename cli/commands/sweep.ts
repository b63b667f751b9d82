import { type Command, InvalidArgumentError, Option } from 'commander';
import { type SweepDocument, sweepDocument } from '../../documents/sweep-document.js';
import { SWEEP_LAYOUTS, type SweepLayout, sweepTableOf, valueText } from '../../documents/sweep-tables.js';
import { type OutputDocument, printDocument } from '../../documents/table-model.js';
import { labelAxes, type SweepAxis, sweep, sweptMetrics } from '../../analysis/sweep.js';
import { type Method, METHOD_WORDS, METHODS, methodText } from '../../sim/methods.js';
import { InputError, type Problem } from '../../input/errors.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { parseCommandLineValue, unprintableFieldProblems } from '../../input/scenario-patch.js';
import { percent, provenanceEntries } from '../../documents/format.js';
import { groupThousands } from '../../input/thousands.js';
import type { Io } from './io.js';
import { type Common, common, inSession, sessionOf, withPool, writeReport } from './analysis-common.js';
import { parsePrecision, parseTrials } from './options.js';
import { trustOf } from './plugins.js';
import { checkOut, writeOut } from './table-out.js';
import { listOption } from '../list-options.js';

/** `crucible sweep`: a scenario over values of one or two fields, printed one table per metric. */

/** `--set path=v1,v2,…` → an axis (values as JSON where they parse, else text). */
export function parseSet(text: string, previous: SweepAxis[] = []): SweepAxis[] {
  const equals = text.indexOf('=');
  if (equals <= 0 || equals === text.length - 1)
    throw new InvalidArgumentError(
      `--set wants <path>=<value>[,<value>…], e.g. sides[0].groups[0].models=3,4,5; got ${JSON.stringify(text)}.`,
    );
  const values = text
    .slice(equals + 1)
    .split(',')
    .map((value) => parseCommandLineValue(value.trim()));
  return [...previous, { path: text.slice(0, equals).trim(), values }];
}

/**
 * Control characters in an axis's path or values, refused before anything is labelled or run: a
 * point's error message and the sweep's tables would print them raw.
 */
function unprintableAxisProblems(file: string, axes: readonly SweepAxis[]): Problem[] {
  const seen = new Set<string>();
  return axes
    .flatMap((axis) => axis.values.flatMap((value) => unprintableFieldProblems(file, axis.path, value)))
    .filter((problem) => {
      const key = `${problem.path}\n${problem.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** Header entries that hold at every point (provenance that a swept rule or stat may change per point). */
function commonEntries(document: SweepDocument): [string, string][] {
  const perPoint = document.points.map((point) =>
    provenanceEntries({
      ruleset: document.ruleset,
      engineVersion: document.engineVersion,
      unitsDigest: point.unitsDigest,
      ...(point.rulesChanged === undefined ? {} : { rulesChanged: point.rulesChanged }),
      ...(document.plugin === undefined ? {} : { plugin: document.plugin }),
    }),
  );
  const first = perPoint[0] ?? [];
  const keys = [...new Set(perPoint.flatMap((entries) => entries.map(([key]) => key)))];
  return keys.map((key): [string, string] => {
    const value = first.find(([k]) => k === key)?.[1];
    const same = value !== undefined && perPoint.every((entries) => entries.some(([k, v]) => k === key && v === value));
    return [key, same ? value : "differs from point to point (each point's is in --json)"];
  });
}

function methodEntries(document: SweepDocument): [string, string][] {
  const methods = new Set(document.points.map((point) => point.method));
  const first = document.points[0];
  if (methods.size === 1 && first?.method === 'exact') {
    const paths = Math.max(...document.points.map((point) => point.exact?.paths ?? 0));
    return [['method', `exact: ${METHOD_WORDS.exact} (up to ${groupThousands(paths)} paths a point; no sampling error, no intervals)`]];
  }
  const monteCarlo = document.points.find((point) => point.method !== 'exact');
  const how = monteCarlo === undefined || monteCarlo.method === 'exact' ? '' : methodText(monteCarlo.method);
  const trials = new Set(document.points.filter((point) => point.trials !== null).map((point) => point.trials));
  const entries: [string, string][] = [
    ['method', methods.size === 1 ? how : `exact where a trial is a single action, ${how} elsewhere (the "how" column)`],
  ];
  if (monteCarlo !== undefined && monteCarlo.seed !== null) entries.push(['seed', String(monteCarlo.seed)]);
  if (document.precision !== null)
    entries.push([
      'trials',
      `until every probability is within ±${percent(document.precision, 3)} (${[...trials].map((count) => groupThousands(count ?? 0)).join(', ')} a point)`,
    ]);
  else if (trials.size === 1) entries.push(['trials', `${groupThousands([...trials][0] ?? 0)} a point`]);
  return entries;
}

/** The whole sweep as printed (the terminal, .md, .html): how it was run, then its table in `layout`. */
export function sweepPrintout(document: SweepDocument, layout: SweepLayout = 'points'): OutputDocument {
  const modes = [...new Set(document.points.map((point) => point.mode).filter((mode) => mode !== undefined))];
  const title = `${document.scenario}: sweep of ${document.axes.map((axis) => axis.field.label).join(' × ')}`;
  const table = sweepTableOf(document, layout, title);
  return {
    title,
    entries: [
      ['file', document.file],
      ['ruleset', `${document.ruleset} (engine ${document.engineVersion})${modes.length === 0 ? '' : `, mode ${modes.join(' / ')}`}`],
      ...commonEntries(document),
      ...methodEntries(document),
      ...document.axes.map((axis, i): [string, string] => [
        i === 0 ? 'swept' : '',
        `${axis.field.label} (${axis.field.path}): ${axis.values.map(valueText).join(', ')}`,
      ]),
    ],
    tables: [table],
    data: table,
  };
}

interface SweepCommandOptions extends Common {
  readonly set: SweepAxis[];
  readonly metric?: string[];
  readonly precision?: number;
  readonly method: Method;
  readonly report?: string;
  readonly layout: SweepLayout;
}

export function registerSweep(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  common(
    program
      .command('sweep')
      .description('run a scenario over values of one or two fields: every outcome at every point, one table per metric')
      .argument('<scenario>', 'a scenario file (- for standard input)')
      .requiredOption(
        '--set <path=values>',
        'a field and its values, e.g. sides[0].groups[0].models=3,4,5 (twice for two fields)',
        parseSet,
      )
      .addOption(listOption('--metric <name>', 'only these metrics (by name, e.g. winner,B.modelsLost)'))
      .addOption(new Option('-n, --trials <count>', "trials per point (default: the scenario's)").argParser(parseTrials))
      .addOption(
        new Option('-p, --precision <e>', 'instead of --trials: run each point until every probability is within ±e')
          .argParser(parsePrecision)
          .conflicts('trials'),
      )
      .addOption(
        new Option(
          '--method <method>',
          'as for crucible run: auto (exact where a trial is a single action and neither --trials nor --precision is given, else mc), exact, mc or mc-dice',
        )
          .choices([...METHODS])
          .default('auto'),
      )
      .addOption(
        new Option(
          '--layout <layout>',
          'points: a row per point, a column per outcome (printed a metric at a time); long: a row per point and outcome; wide: two fields as a grid per outcome (rows the first, columns the second)',
        )
          .choices([...SWEEP_LAYOUTS])
          .default('points'),
      )
      .option('--report <dir>', 'also write an HTML page (a chart per metric with interval bands, tables, provenance) into this folder')
      .option('--json', 'print the sweep as one JSON document (every number at full precision; for `crucible report`)'),
  ).action(async (file: string, options: SweepCommandOptions) => {
    if (options.set.length > 2) throw InputError.at(file, '--set', `sweeps one or two fields, got ${options.set.length}`);
    checkOut(options);
    if (options.layout === 'wide' && options.set.length !== 2)
      throw InputError.at(
        file,
        '--layout',
        `wide is a grid of two swept fields (rows the first --set, columns the second); this sweep has ${options.set.length === 1 ? 'one' : options.set.length}: use --layout points or long`,
      );
    const unprintable = unprintableAxisProblems(file, options.set);
    if (unprintable.length > 0) throw new InputError(unprintable);
    // The fields are named (and a bad path reported) before any point runs.
    const axes = await labelAxes(file, options.set, trustOf(options));
    const session = sessionOf(io, env, options, { command: 'sweep', file, unit: 'points' });
    const outcome = await inSession(session, () =>
      withPool(options, io.stderr, session, (pool) =>
        sweep(file, options.set, {
          executor: pool,
          method: options.method,
          ...(options.metric === undefined ? {} : { metrics: options.metric }),
          onPoint: session.progress,
          plugins: trustOf(options),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          ...(options.trials === undefined ? {} : { trials: options.trials }),
          ...(options.precision === undefined ? {} : { precision: options.precision }),
        }),
      ),
    );
    if ('status' in outcome) {
      setStatus(outcome.status);
      return;
    }
    const points = outcome.result;
    const asWritten = await loadScenarioChanged(file, {}, { plugins: trustOf(options) });
    const document = sweepDocument({
      file,
      axes,
      points,
      metrics: sweptMetrics(file, points, options.metric),
      method: options.method,
      ...(asWritten.scenario.description === undefined ? {} : { description: asWritten.scenario.description }),
      ...(options.precision === undefined ? {} : { precision: options.precision }),
    });
    const printout = sweepPrintout(document, options.layout);
    const printed = await writeOut(options, printout, io);
    if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
    if (!printed) io.stdout(options.json === true ? `${JSON.stringify(document, null, 2)}\n` : printDocument(printout, 'text'));
  });
}
