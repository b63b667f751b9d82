import { type Command, InvalidArgumentError, Option } from 'commander';
import { metricTitle } from '../../input/field-labels.js';
import { outcomesOf, type SweepDocument, sweepDocument, type SweepDocumentPoint, sweepTable } from '../../documents/sweep-document.js';
import { labelAxes, type SweepAxis, sweep, sweptMetrics } from '../../analysis/sweep.js';
import { type Method, METHOD_WORDS, METHODS, methodText } from '../../sim/methods.js';
import { writeTextFile } from '../../documents/table-files.js';
import { formatOfFile, formatTable } from '../../documents/tables.js';
import { InputError, type InputProblem } from '../../input/errors.js';
import { loadScenarioChanged } from '../../input/scenario-file.js';
import { parseCommandLineValue, unprintableFieldProblems } from '../../input/scenario-patch.js';
import { groupThousands, headerBlock, markdownTable, percent, provenanceEntries, type TextFlavor } from '../../documents/format.js';
import type { Io } from './io.js';
import { type Common, common, progressLine, withPool, writeReport } from './analysis-common.js';
import { parsePrecision, parseTrials } from './options.js';
import { trustOf } from './plugins.js';

/** `crucible sweep`: a scenario over values of one or two fields, printed one table per metric. */

/** `--set path=v1,v2,…` → an axis (values as JSON where they parse, else text). */
export function parseSet(text: string, previous: SweepAxis[] = []): SweepAxis[] {
  const equals = text.indexOf('=');
  if (equals <= 0 || equals === text.length - 1) throw new InvalidArgumentError(`--set wants <path>=<value>[,<value>…], e.g. sides[0].groups[0].models=3,4,5; got ${JSON.stringify(text)}.`);
  const values = text.slice(equals + 1).split(',').map((value) => parseCommandLineValue(value.trim()));
  return [...previous, { path: text.slice(0, equals).trim(), values }];
}

/**
 * Control characters in an axis's path or values, refused before anything is labelled or run: a
 * point's error message and the sweep's tables would print them raw.
 */
function unprintableAxisProblems(file: string, axes: readonly SweepAxis[]): InputProblem[] {
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

const valueText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? String(value));

/** "33.19% [32.89%, 33.48%]" as `crucible run` prints a probability; alone at an exact point. */
function probabilityCell(estimate: number, interval: { low: number; high: number } | null): string {
  return interval === null ? percent(estimate) : `${percent(estimate)} [${percent(interval.low)}, ${percent(interval.high)}]`;
}

function meanCell(estimate: number, interval: { low: number; high: number } | null): string {
  return interval === null ? estimate.toFixed(3) : `${estimate.toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}]`;
}

/** The axes' column headings: each field's title, or its whole label where two titles would read alike. */
function axisHeadings(document: SweepDocument): string[] {
  const titles = document.axes.map((axis) => axis.field.title);
  return document.axes.map((axis) => (titles.filter((title) => title === axis.field.title).length > 1 ? axis.field.label : axis.field.title));
}

/** How a point was answered, for a sweep whose points differ (some exact, some Monte Carlo). */
const howText = (point: SweepDocumentPoint): string => (point.trials === null ? 'exact' : `${groupThousands(point.trials)} trials`);

/**
 * One metric's table: a row per point, a column per outcome (each label of a category, a flag's
 * "yes", a count's mean). Labels never seen at any point are left out and named below the table.
 */
function metricBlock(document: SweepDocument, metric: SweepDocument['metrics'][number], flavor: TextFlavor): string[] {
  const mixed = new Set(document.points.map((point) => point.method)).size > 1;
  const perPoint = document.points.map((point) => {
    const result = point.results.find((candidate) => candidate.metric === metric.name);
    return result === undefined ? [] : outcomesOf(result, metric);
  });
  const labels = [...new Set(perPoint.flatMap((outcomes) => outcomes.map((outcome) => outcome.label ?? '')))];
  const seen = labels.filter((label) => perPoint.some((outcomes) => outcomes.some((outcome) => (outcome.label ?? '') === label && outcome.estimate > 0)));
  const never = metric.kind === 'category' ? labels.filter((label) => !seen.includes(label)) : [];
  const shownLabels = metric.kind === 'category' ? seen : labels;
  const intervals = document.points.some((point) => point.method !== 'exact') ? ' [95% interval]' : '';
  const heading = metric.kind === 'count' ? `mean${intervals}` : metric.kind === 'flag' ? `chance${intervals}` : undefined;
  const header = [...axisHeadings(document), ...shownLabels.map((label) => heading ?? label), ...(mixed ? ['how'] : [])];
  const rows = document.points.map((point, p) => [
    ...point.values.map(valueText),
    ...shownLabels.map((label) => {
      const outcome = perPoint[p]?.find((candidate) => (candidate.label ?? '') === label);
      if (outcome === undefined) return '';
      return outcome.measure === 'mean' ? meanCell(outcome.estimate, outcome.interval) : probabilityCell(outcome.estimate, outcome.interval);
    }),
    ...(mixed ? [howText(point)] : []),
  ]);
  const align = header.map((_, c) => (c < document.axes.length || (mixed && c === header.length - 1) ? 'l' : 'r') as 'l' | 'r');
  const title = `${metricTitle(metric)}${metric.kind === 'category' ? ': the chance of each' : ''}  [${metric.name}]`;
  return [
    flavor === 'md' ? `#### ${title}` : title,
    '',
    markdownTable(header, rows, align),
    ...(never.length === 0 ? [] : ['', `Never at any point: ${never.map((label) => JSON.stringify(label)).join(', ')}.`]),
    '',
  ];
}

/** A count 0 at every point (no charges, no Torment…): listed once, not as a table of zeros. */
function alwaysZero(document: SweepDocument, name: string): boolean {
  return document.points.every((point) => {
    const result = point.results.find((candidate) => candidate.metric === name);
    return result?.kind === 'count' && result.distribution.every((entry) => entry.value === 0 || entry.probability === 0);
  });
}

/** Header entries that hold at every point (provenance that a swept rule or stat may change per point). */
function commonEntries(document: SweepDocument): [string, string][] {
  const perPoint = document.points.map((point) => provenanceEntries({ ruleset: document.ruleset, engineVersion: document.engineVersion, unitsDigest: point.unitsDigest, ...(point.rulesChanged === undefined ? {} : { rulesChanged: point.rulesChanged }), ...(document.plugin === undefined ? {} : { plugin: document.plugin }) }));
  const first = perPoint[0] ?? [];
  const keys = [...new Set(perPoint.flatMap((entries) => entries.map(([key]) => key)))];
  return keys.map((key): [string, string] => {
    const value = first.find(([k]) => k === key)?.[1];
    const same = value !== undefined && perPoint.every((entries) => entries.some(([k, v]) => k === key && v === value));
    return [key, same ? value : 'differs from point to point (each point\'s is in --json)'];
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
  const entries: [string, string][] = [['method', methods.size === 1 ? how : `exact where a trial is a single action, ${how} elsewhere (the "how" column)`]];
  if (monteCarlo !== undefined && monteCarlo.seed !== null) entries.push(['seed', String(monteCarlo.seed)]);
  if (document.precision !== null) entries.push(['trials', `until every probability is within ±${percent(document.precision, 3)} (${[...trials].map((count) => groupThousands(count ?? 0)).join(', ')} a point)`]);
  else if (trials.size === 1) entries.push(['trials', `${groupThousands([...trials][0] ?? 0)} a point`]);
  return entries;
}

/** The whole sweep as text (the terminal) or Markdown (`--out x.md`). */
export function formatSweep(document: SweepDocument, flavor: TextFlavor = 'text'): string {
  const modes = [...new Set(document.points.map((point) => point.mode).filter((mode) => mode !== undefined))];
  const header = headerBlock(`${document.scenario}: sweep of ${document.axes.map((axis) => axis.field.label).join(' × ')}`, [
    ['file', document.file],
    ['ruleset', `${document.ruleset} (engine ${document.engineVersion})${modes.length === 0 ? '' : `, mode ${modes.join(' / ')}`}`],
    ...commonEntries(document),
    ...methodEntries(document),
    ...document.axes.map((axis, i): [string, string] => [i === 0 ? 'swept' : '', `${axis.field.label} (${axis.field.path}): ${axis.values.map(valueText).join(', ')}`]),
  ], flavor);
  const zero = document.metrics.filter((metric) => alwaysZero(document, metric.name));
  const blocks = document.metrics.filter((metric) => !zero.includes(metric)).flatMap((metric) => metricBlock(document, metric, flavor));
  const footer = zero.length === 0 ? [] : [`Always 0 at every point: ${zero.map((metric) => `${metricTitle(metric)} [${metric.name}]`).join('; ')}.`, ''];
  return [...header, '', ...blocks, ...footer].join('\n');
}

interface SweepCommandOptions extends Common {
  readonly set: SweepAxis[];
  readonly metric?: string[];
  readonly precision?: number;
  readonly method: Method;
  readonly report?: string;
}

export function registerSweep(program: Command, io: Io): void {
  common(
    program
      .command('sweep')
      .description('run a scenario over values of one or two fields: every outcome at every point, one table per metric')
      .argument('<scenario>', 'a scenario file')
      .requiredOption('--set <path=values>', 'a field and its values, e.g. sides[0].groups[0].models=3,4,5 (twice for two fields)', parseSet)
      .option('--metric <name...>', 'only these metrics (by name, e.g. winner B.modelsLost)')
      .addOption(new Option('-n, --trials <count>', "trials per point (default: the scenario's)").argParser(parseTrials))
      .addOption(new Option('-p, --precision <e>', 'instead of --trials: run each point until every probability is within ±e').argParser(parsePrecision).conflicts('trials'))
      .addOption(
        new Option('--method <method>', 'as for crucible run: auto (exact where a trial is a single action and neither --trials nor --precision is given, else mc), exact, mc or mc-dice')
          .choices([...METHODS])
          .default('auto'),
      )
      .option('--report <dir>', 'also write an HTML page (a chart per metric with interval bands, tables, provenance) into this folder')
      .option('--json', 'print the sweep as one JSON document (every number at full precision; for `crucible report`)'),
  ).action(async (file: string, options: SweepCommandOptions) => {
    if (options.set.length > 2) throw InputError.at(file, '--set', `sweeps one or two fields, got ${options.set.length}`);
    if (options.out !== undefined) formatOfFile(options.out);
    const unprintable = unprintableAxisProblems(file, options.set);
    if (unprintable.length > 0) throw new InputError(unprintable);
    // The fields are named (and a bad path reported) before any point runs.
    const axes = await labelAxes(file, options.set, trustOf(options));
    const points = await withPool(options, io.stderr, (pool) =>
      sweep(file, options.set, {
        executor: pool,
        method: options.method,
        ...(options.metric === undefined ? {} : { metrics: options.metric }),
        onPoint: progressLine(io, 'points'),
        plugins: trustOf(options),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.trials === undefined ? {} : { trials: options.trials }),
        ...(options.precision === undefined ? {} : { precision: options.precision }),
      }),
    );
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
    if (options.out !== undefined) {
      const format = formatOfFile(options.out);
      await writeTextFile(options.out, format === 'md' ? formatSweep(document, 'md') : format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : formatTable(sweepTable(document), 'csv'));
    }
    if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
    io.stdout(options.json === true ? `${JSON.stringify(document, null, 2)}\n` : formatSweep(document));
  });
}
