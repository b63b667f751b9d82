import { metricTitle } from '../input/field-labels.js';
import { percent } from './format.js';
import { groupThousands } from '../input/thousands.js';
import { outcomesOf, type SweepDocument, type SweepDocumentPoint, type SweptOutcome } from './sweep-document.js';
import type { Cell, Column, ColumnBlock, DataTable } from './table-model.js';

/**
 * `crucible sweep` as a table, in one of three layouts (`--layout`):
 * - `points` (the default): a row per point, a column per outcome (each label of a category, a
 *   flag's chance, a count's mean), printed in blocks, one per metric, the swept values repeated in
 *   each; in CSV and JSON each outcome's 95% interval beside it;
 * - `long`: a row per point and outcome (tidy data: the swept values, metric, outcome, label,
 *   measure, estimate, low, high, trials, method);
 * - `wide`: two fields as a grid per outcome, a row per value of the first and a column per value
 *   of the second (the values alone in CSV and JSON: `long` has the intervals).
 * Labels never seen at any point, and counts 0 at every point, are said under the table, not given
 * columns of zeros.
 */
export const SWEEP_LAYOUTS = ['points', 'long', 'wide'] as const;
export type SweepLayout = (typeof SWEEP_LAYOUTS)[number];

type Metric = SweepDocument['metrics'][number];

export const valueText = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

/** A swept value as a cell: a number stays a number. */
const valueCell = (value: unknown): Cell => (typeof value === 'number' || typeof value === 'boolean' ? value : valueText(value));

/** "33.19% [32.89%, 33.48%]" as `crucible run` prints a probability; alone at an exact point. */
function probabilityText(estimate: number, interval: { low: number; high: number } | null): string {
  return interval === null ? percent(estimate) : `${percent(estimate)} [${percent(interval.low)}, ${percent(interval.high)}]`;
}

function meanText(estimate: number, interval: { low: number; high: number } | null): string {
  return interval === null ? estimate.toFixed(3) : `${estimate.toFixed(3)} [${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}]`;
}

const outcomeText = (outcome: SweptOutcome): string =>
  outcome.measure === 'mean' ? meanText(outcome.estimate, outcome.interval) : probabilityText(outcome.estimate, outcome.interval);

function outcomeCell(outcome: SweptOutcome | undefined): Cell {
  if (outcome === undefined) return null;
  return { value: outcome.estimate, text: outcomeText(outcome), low: outcome.interval?.low ?? null, high: outcome.interval?.high ?? null };
}

/** The axes' column headings: each field's title, or its whole label where two titles would read alike. */
export function axisHeadings(document: SweepDocument): string[] {
  const titles = document.axes.map((axis) => axis.field.title);
  return document.axes.map((axis) =>
    titles.filter((title) => title === axis.field.title).length > 1 ? axis.field.label : axis.field.title,
  );
}

/** The axes' names in CSV and JSON: each field's title, or its path where two titles would read alike. */
export function axisNames(document: SweepDocument): string[] {
  const titles = document.axes.map((axis) => axis.field.title);
  return document.axes.map((axis) =>
    titles.filter((title) => title === axis.field.title).length > 1 ? axis.field.path : axis.field.title,
  );
}

function axisColumns(document: SweepDocument): Column[] {
  const headings = axisHeadings(document);
  const names = axisNames(document);
  return document.axes.map((axis, i) => ({
    name: names[i] ?? axis.field.path,
    heading: headings[i] ?? axis.field.label,
    description: `${axis.field.label} (${axis.field.path})`,
  }));
}

/** How a point was answered, for a sweep whose points differ (some exact, some Monte Carlo). */
const howText = (point: SweepDocumentPoint): string => (point.trials === null ? 'exact' : `${groupThousands(point.trials)} trials`);

/** A count 0 at every point (no charges, no Torment…): listed once, not as a table of zeros. */
function alwaysZero(document: SweepDocument, name: string): boolean {
  return document.points.every((point) => {
    const result = point.results.find((candidate) => candidate.metric === name);
    return result?.kind === 'count' && result.distribution.every((entry) => entry.value === 0 || entry.probability === 0);
  });
}

interface Shown {
  readonly metric: Metric;
  /** Each point's outcomes of the metric. */
  readonly perPoint: readonly (readonly SweptOutcome[])[];
  /** The labels given columns: a category's seen at some point; a flag's "yes"; a count's mean (''). */
  readonly labels: readonly string[];
  readonly never: readonly string[];
}

/** The metrics given columns, each with the labels seen; and those 0 everywhere. */
function shownMetrics(document: SweepDocument): { shown: Shown[]; zero: Metric[] } {
  const zero = document.metrics.filter((metric) => alwaysZero(document, metric.name));
  const shown = document.metrics
    .filter((metric) => !zero.includes(metric))
    .map((metric): Shown => {
      const perPoint = document.points.map((point) => {
        const result = point.results.find((candidate) => candidate.metric === metric.name);
        return result === undefined ? [] : outcomesOf(result, metric);
      });
      const labels = [...new Set(perPoint.flatMap((outcomes) => outcomes.map((outcome) => outcome.label ?? '')))];
      const seen = labels.filter((label) =>
        perPoint.some((outcomes) => outcomes.some((outcome) => (outcome.label ?? '') === label && outcome.estimate > 0)),
      );
      return metric.kind === 'category'
        ? { metric, perPoint, labels: seen, never: labels.filter((label) => !seen.includes(label)) }
        : { metric, perPoint, labels, never: [] };
    });
  return { shown, zero };
}

const blockTitle = (metric: Metric): string =>
  `${metricTitle(metric)}${metric.kind === 'category' ? ': the chance of each' : ''}  [${metric.name}]`;
const neverNote = (never: readonly string[]): string[] =>
  never.length === 0 ? [] : [`Never at any point: ${never.map((label) => JSON.stringify(label)).join(', ')}.`];
const zeroNote = (zero: readonly Metric[]): string[] =>
  zero.length === 0 ? [] : [`Always 0 at every point: ${zero.map((metric) => `${metricTitle(metric)} [${metric.name}]`).join('; ')}.`];

/** An outcome's column name in CSV: the metric's name, and the label of a category. */
const outcomeName = (metric: Metric, label: string): string =>
  metric.kind === 'category' ? `${metric.name}: ${label}` : metric.kind === 'count' ? `${metric.name} mean` : metric.name;

export function sweepTableOf(document: SweepDocument, layout: SweepLayout, title: string): DataTable {
  if (layout === 'long') return longTable(document, title);
  return layout === 'wide' ? gridTable(document, title) : pointsTable(document, title);
}

function pointsTable(document: SweepDocument, title: string): DataTable {
  const { shown, zero } = shownMetrics(document);
  const mixed = new Set(document.points.map((point) => point.method)).size > 1;
  const intervals = document.points.some((point) => point.method !== 'exact') ? ' [95% interval]' : '';
  const columns: Column[] = axisColumns(document);
  const blocks: ColumnBlock[] = [];
  const readers: ((p: number) => Cell)[] = document.axes.map((_, a) => (p) => valueCell(document.points[p]?.values[a]));
  for (const { metric, perPoint, labels, never } of shown) {
    const heading = metric.kind === 'count' ? `mean${intervals}` : metric.kind === 'flag' ? `chance${intervals}` : undefined;
    const indices: number[] = [];
    for (const label of labels) {
      indices.push(columns.length);
      columns.push({
        name: outcomeName(metric, label),
        heading: heading ?? label,
        description: perPoint.flat().find((outcome) => (outcome.label ?? '') === label)?.title ?? metric.description,
        bounds: true,
        align: 'right',
      });
      readers.push((p) => outcomeCell(perPoint[p]?.find((outcome) => (outcome.label ?? '') === label)));
    }
    blocks.push({ title: blockTitle(metric), columns: indices, notes: neverNote(never) });
  }
  // How each point was answered: in CSV and JSON as numbers; in print, where points differ, as "exact" or "4,000 trials" in every block.
  const how = columns.length;
  if (mixed) {
    columns.push({ name: 'how', only: 'print' });
    readers.push((p) => (document.points[p] === undefined ? null : howText(document.points[p] as SweepDocumentPoint)));
  }
  columns.push(
    { name: 'trials', only: 'data', description: 'trials run at the point (empty: answered exactly)' },
    { name: 'method', only: 'data', description: 'exact, mc or mc-dice' },
  );
  readers.push(
    (p) => document.points[p]?.trials ?? null,
    (p) => document.points[p]?.method ?? null,
  );
  return {
    title,
    columns,
    rows: document.points.map((_, p) => readers.map((read) => read(p))),
    notes: zeroNote(zero),
    blocks: { keys: document.axes.length, list: mixed ? blocks.map((block) => ({ ...block, columns: [...block.columns, how] })) : blocks },
  };
}

function longTable(document: SweepDocument, title: string): DataTable {
  const columns: Column[] = [
    ...axisColumns(document),
    { name: 'metric' },
    { name: 'outcome', description: 'the outcome in words' },
    { name: 'label', description: 'a category\'s label, or "yes" for a flag; empty for a count' },
    { name: 'measure', description: 'probability or mean' },
    { name: 'estimate', description: 'full precision', align: 'right' },
    { name: 'low', description: "the 95% interval's low end (empty at an exact point)", align: 'right' },
    { name: 'high', description: "the 95% interval's high end (empty at an exact point)", align: 'right' },
    { name: 'trials', description: 'empty: answered exactly' },
    { name: 'method' },
  ];
  const rows: Cell[][] = [];
  for (const point of document.points) {
    for (const result of point.results) {
      const metric = document.metrics.find((candidate) => candidate.name === result.metric);
      if (metric === undefined) continue;
      for (const outcome of outcomesOf(result, metric)) {
        const number = (value: number | undefined): Cell =>
          value === undefined ? null : { value, text: outcome.measure === 'mean' ? value.toFixed(3) : percent(value) };
        rows.push([
          ...point.values.map(valueCell),
          result.metric,
          outcome.title,
          outcome.label,
          outcome.measure,
          number(outcome.estimate),
          number(outcome.interval?.low),
          number(outcome.interval?.high),
          point.trials,
          point.method,
        ]);
      }
    }
  }
  return { title, columns, rows };
}

function gridTable(document: SweepDocument, title: string): DataTable {
  const [rowAxis, columnAxis] = document.axes;
  if (rowAxis === undefined || columnAxis === undefined) throw new RangeError('a sweep grid needs two swept fields');
  const { shown, zero } = shownMetrics(document);
  const [rowHeading = '', columnHeading = ''] = axisHeadings(document);
  const [rowName = '', columnName = ''] = axisNames(document);
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const pointAt = (row: unknown, column: unknown): number =>
    document.points.findIndex((point) => same(point.values[0], row) && same(point.values[1], column));
  const columns: Column[] = [
    {
      name: rowName,
      heading: rowHeading,
      description: `${rowAxis.field.label} (${rowAxis.field.path}); the columns are values of ${columnAxis.field.label} (${columnAxis.field.path})`,
    },
  ];
  const readers: ((row: unknown) => Cell)[] = [(row) => valueCell(row)];
  const blocks: ColumnBlock[] = [];
  for (const { metric, perPoint, labels, never } of shown) {
    for (const label of labels) {
      const indices: number[] = [];
      for (const value of columnAxis.values) {
        indices.push(columns.length);
        columns.push({
          name: `${outcomeName(metric, label)} @ ${columnName}=${valueText(value)}`,
          heading: valueText(value),
          align: 'right',
        });
        readers.push((row) => outcomeCell(perPoint[pointAt(row, value)]?.find((outcome) => (outcome.label ?? '') === label)));
      }
      const outcome = perPoint.flat().find((candidate) => (candidate.label ?? '') === label);
      blocks.push({
        title: `${outcome?.title ?? metricTitle(metric)}${outcome?.measure === 'mean' ? ' (mean)' : ''}  [${metric.name}]: rows ${rowHeading}, columns ${columnHeading}`,
        columns: indices,
        notes: label === labels.at(-1) ? neverNote(never) : [],
      });
    }
  }
  return {
    title,
    columns,
    rows: rowAxis.values.map((row) => readers.map((read) => read(row))),
    notes: [...zeroNote(zero), 'In CSV and JSON each cell is the estimate alone (--layout long has every 95% interval).'],
    blocks: { keys: 1, list: blocks },
  };
}
