import { outcomesOf, type SweepDocument } from '../documents/sweep-document.js';
import type { Chart, SweepLinePoint } from './charts.js';
import { sweepChart } from './charts.js';
import { countText, estimateText, exactPercentText, meanText } from './format.js';
import type { PageSection, PageTable, Provenance, ReportPage } from './page-model.js';
import { slugify } from './page-model.js';
import { rulesNotes } from './page-notes.js';

/**
 * The page of a `crucible sweep --json` document: for each metric, its outcome(s) against the first
 * swept field — lines with 95% interval bands, one line per label of a category (one field swept)
 * or per value of the second field (two swept) — each with the table of its numbers. Axes are the
 * fields and outcomes in words. An outcome that never changes across the sweep is listed, not drawn.
 */
export interface SweepPageOptions {
  readonly slug?: string;
  readonly title?: string;
}

type Point = SweepDocument['points'][number];
type Metric = SweepDocument['metrics'][number];

/** A swept value as an axis shows it: numbers stay numbers, anything else becomes its text. */
const axisValue = (value: unknown): number | string =>
  typeof value === 'number'
    ? value
    : typeof value === 'string'
      ? value
      : typeof value === 'boolean'
        ? value
          ? 'yes'
          : 'no'
        : JSON.stringify(value);

/** One outcome at one point; an exact point's interval is the value itself (nothing sampled). */
interface Measured {
  readonly title: string;
  readonly label: string | null;
  readonly probability: boolean;
  readonly point: Point;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  readonly exact: boolean;
}

function measured(document: SweepDocument, metric: Metric): Measured[] {
  return document.points.flatMap((point) => {
    const result = point.results.find((candidate) => candidate.metric === metric.name);
    if (result === undefined) return [];
    return outcomesOf(result, metric).map((outcome) => ({
      title: outcome.title,
      label: outcome.label,
      probability: outcome.measure === 'probability',
      point,
      estimate: outcome.estimate,
      low: outcome.interval?.low ?? outcome.estimate,
      high: outcome.interval?.high ?? outcome.estimate,
      exact: point.method === 'exact',
    }));
  });
}

const cellText = (entry: Measured): string => {
  if (entry.exact) return entry.probability ? exactPercentText(entry.estimate) : String(Number(entry.estimate.toFixed(3)));
  return entry.probability
    ? estimateText({ value: entry.estimate, interval: { low: entry.low, high: entry.high } })
    : meanText(entry.estimate, entry);
};

export function sweepPage(document: SweepDocument, options: SweepPageOptions = {}): ReportPage {
  const [first, second] = document.axes;
  if (first === undefined) throw new RangeError('a sweep document has at least one axis');
  const fields = document.axes.map((axis) => axis.field.label).join(' and ');
  const slug = options.slug ?? slugify(`sweep-${document.scenario}-${document.axes.map((axis) => axis.field.title).join('-')}`);
  const sections: PageSection[] = [];
  const unchanged: string[] = [];
  const ids = new Set<string>();
  for (const metric of document.metrics) {
    const entries = measured(document, metric);
    // One chart per metric with one field swept (a category's labels as lines); per outcome with two (the second field's values as lines).
    const groups =
      second === undefined
        ? [entries]
        : [...new Set(entries.map((entry) => entry.title))].map((title) => entries.filter((entry) => entry.title === title));
    for (const group of groups) {
      const head = group[0];
      if (head === undefined) continue;
      if (group.every((entry) => entry.estimate === head.estimate && entry.low === entry.high)) {
        unchanged.push(`${head.title} (${head.probability ? exactPercentText(head.estimate) : String(head.estimate)} at every point)`);
        continue;
      }
      const seriesOf = (entry: Measured): string | undefined =>
        second !== undefined ? String(axisValue(entry.point.values[1])) : metric.kind === 'category' ? (entry.label ?? '') : undefined;
      const points: SweepLinePoint[] = group.map((entry) => {
        const series = seriesOf(entry);
        return {
          x: axisValue(entry.point.values[0]),
          ...(series === undefined ? {} : { series }),
          estimate: entry.estimate,
          low: entry.low,
          high: entry.high,
          ...(entry.point.trials === null ? {} : { trials: entry.point.trials }),
        };
      });
      const title = second === undefined && metric.kind === 'category' ? metric.title : head.title;
      let id = `${slug}-${slugify(metric.name)}${groups.length > 1 ? `-${groups.indexOf(group) + 1}` : ''}`;
      while (ids.has(id)) id = `${id}-x`;
      ids.add(id);
      const chart: Chart = sweepChart(points, {
        id,
        title,
        xTitle: first.field.label,
        yTitle: head.probability ? 'Chance' : 'Average',
        probability: head.probability,
        ...(second !== undefined ? { seriesTitle: second.field.label } : metric.kind === 'category' ? { seriesTitle: metric.title } : {}),
      });
      const xs = [...new Set(group.map((entry) => String(axisValue(entry.point.values[0]))))];
      const series = [...new Set(group.map((entry) => seriesOf(entry) ?? ''))];
      const table: PageTable = {
        columns: [
          first.field.label,
          ...(series.length === 1 && series[0] === ''
            ? [head.probability ? 'chance' : 'average']
            : series.map((name) => (second === undefined ? name : `${second.field.title}: ${name}`))),
        ],
        rows: xs.map((x) => [
          x,
          ...series.map((name) => {
            const entry = group.find(
              (candidate) => String(axisValue(candidate.point.values[0])) === x && (seriesOf(candidate) ?? '') === name,
            );
            return entry === undefined ? '' : cellText(entry);
          }),
        ]),
      };
      // The description, where it says more than the title (a category's note on its labels).
      const said = metric.description.trim().replace(/\.$/, '');
      sections.push({
        heading: title,
        text: said === '' || said.toLowerCase() === title.toLowerCase() ? undefined : `${said.charAt(0).toUpperCase()}${said.slice(1)}.`,
        chart,
        table,
      });
    }
  }
  if (unchanged.length > 0) sections.push({ heading: 'Unchanged across the sweep', text: `Not drawn: ${unchanged.join('; ')}.` });
  const exactPoints = document.points.filter((point) => point.method === 'exact').length;
  const provenance: Provenance[] = document.points.map((point) => {
    const run = {
      scenario: document.scenario,
      file: document.file,
      ruleset: document.ruleset,
      engineVersion: document.engineVersion,
      variant: `${fields}: each of ${document.points.length} values`,
    };
    return point.exact !== null ? { ...run, exact: point.exact } : { ...run, seed: point.seed ?? 0, trials: point.trials ?? 0 };
  });
  const rules = [
    ...new Set(
      document.points.flatMap((point) =>
        rulesNotes({
          ruleset: document.ruleset,
          engineVersion: document.engineVersion,
          mode: point.mode,
          rulesChanged: point.rulesChanged,
          plugin: document.plugin,
        }),
      ),
    ),
  ];
  return {
    slug,
    title: options.title ?? `${document.scenario}: by ${document.axes.map((axis) => axis.field.title).join(' and ')}`,
    question: `How does each outcome of “${document.scenario}” change with ${fields}?`,
    sections,
    provenance,
    methods: [
      `Swept: ${document.axes.map((axis) => `${axis.field.label} (${axis.field.path}) = ${axis.values.map((value) => String(axisValue(value))).join(', ')}`).join('; ')}.`,
      exactPoints === document.points.length
        ? 'Every point answered exactly (every outcome of a trial enumerated): no intervals, no trials.'
        : `${exactPoints === 0 ? 'Every point' : `${document.points.length - exactPoints} points`} by Monte Carlo${document.precision === null ? '' : `, run until every probability was within ±${(document.precision * 100).toFixed(1)} points`}: chances with 95% Wilson intervals, averages with 95% t intervals (the bands).${exactPoints === 0 ? '' : ` ${exactPoints} answered exactly.`}`,
      ...rules,
      `Made from crucible sweep --json for ${document.file} (${countText(document.points.length)} points).`,
    ],
  };
}
