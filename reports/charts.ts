import type { MetricSummary } from '../statistics/summary.js';
import {
  BLUE,
  capitalized,
  type Chart,
  chart,
  type ChartOptions,
  HEIGHT,
  INK,
  inOrder,
  LABEL_CHARACTER_WIDTH,
  PERCENT_AXIS,
  intervalBand,
  intervalFields,
  intervalRule,
  quantity,
  type Row,
  type Spec,
  tooltip,
  WIDTH,
} from './chart-kit.js';
import { countText, differenceText, estimateText, meanText, percentText } from './format.js';

export { CHART_FONT, type Chart, type ChartOptions, VEGA_LITE_SCHEMA } from './chart-kit.js';
export {
  HEATMAP_MEASURES,
  heatmapChart,
  type HeatmapCell,
  type HeatmapMeasure,
  type HeatmapOptions,
  type OutcomeEstimates,
} from './heatmap.js';
export {
  balanceCurveChart,
  type BalanceCurve,
  type BalanceCurvePoint,
  costScatterChart,
  type CostPoint,
  type CostScatterOptions,
  type CostVerdict,
} from './cost-charts.js';

/**
 * The report's charts as Vega-Lite specs (v6), one builder per kind of question: an outcome's
 * distribution, "N or better", a difference between two variants, a matchup heatmap, a sweep, a
 * balance curve and published-vs-fitted costs. Every spec is self-contained: inline data, a title,
 * axis titles in words, percent axes for probabilities, and the 95% intervals drawn as rules or
 * bands (exact summaries have none to draw). Apart from the two built on a run's MetricSummary, the
 * builders take plain points with the words to show, so any analysis can feed them. Numbers shown as
 * text (labels, tooltips) come from format.ts, as the tables under the charts do. render.ts draws them.
 */

function metricTitle(summary: MetricSummary): string {
  return summary.description === '' ? summary.name : capitalized(summary.description);
}

/**
 * An exact summary (statistics/summary.ts's summarizeExact): nothing was sampled, so it has 0 trials
 * and its intervals are the values themselves — no interval to draw. (A Monte Carlo summary has ≥ 1.)
 */
const isExact = (summary: MetricSummary): boolean => summary.trials === 0;

export interface DistributionChartOptions extends ChartOptions {
  /** The metric in words for the axis (default: its description). */
  readonly xTitle?: string;
  /** How a probability reads on the bars and in the tooltip (default format.ts's percentText): the page's table should use the same. */
  readonly percent?: (probability: number) => string;
}

/** P(X = v) for every value (or label) of a metric: bars with their 95% Wilson intervals (exact probabilities: bars alone). */
export function distributionChart(summary: MetricSummary, options: DistributionChartOptions = {}): Chart {
  const exact = isExact(summary);
  const percent = options.percent ?? percentText;
  const values: Row[] = summary.distribution.map((entry) => ({
    outcome: entry.label ?? String(entry.value),
    probability: entry.probability,
    text: percent(entry.probability),
    ...(exact ? {} : { ...intervalFields(entry.interval), range: `${percent(entry.interval.low)} – ${percent(entry.interval.high)}` }),
  }));
  const x = {
    field: 'outcome',
    type: 'ordinal',
    sort: inOrder(values, 'outcome'),
    title: options.xTitle ?? metricTitle(summary),
    axis: { labelAngle: 0 },
  };
  const tips = [tooltip('outcome', 'Outcome'), tooltip('text', 'Chance'), ...(exact ? [] : [tooltip('range', '95% interval')])];
  const layers: Spec[] = [
    { mark: { type: 'bar', color: BLUE, opacity: 0.85 }, encoding: { x, y: quantity('probability', 'Chance', true), tooltip: tips } },
  ];
  if (!exact) layers.push(intervalRule({ x }));
  if (values.length <= 12) {
    // The label sits above the interval, or above the bar when there is none.
    layers.push({
      mark: { type: 'text', baseline: 'bottom', dy: -4, fontSize: 11, color: INK },
      encoding: { x, y: { field: exact ? 'probability' : 'high', type: 'quantitative' }, text: { field: 'text', type: 'nominal' } },
    });
  }
  const subtitle = exact
    ? 'Chance of each value: exact probabilities (every outcome enumerated)'
    : `Chance of each value, with 95% intervals; ${countText(summary.trials)} trials`;
  return chart('distribution', options, `${summary.name}: how often each outcome happens`, subtitle, {
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    layer: layers,
  });
}

/** P(X ≥ N), "N or better", for a count metric: a line with its 95% interval band (exact probabilities: the line alone). */
export function atLeastChart(summary: MetricSummary, options: DistributionChartOptions = {}): Chart {
  if (summary.kind !== 'count') throw new RangeError(`"N or better" needs a count metric; ${summary.name} is a ${summary.kind}`);
  const exact = isExact(summary);
  const percent = options.percent ?? percentText;
  const values: Row[] = summary.atLeast.map((entry) => ({
    n: entry.value,
    probability: entry.probability,
    text: percent(entry.probability),
    ...(exact ? {} : { ...intervalFields(entry.interval), range: `${percent(entry.interval.low)} – ${percent(entry.interval.high)}` }),
  }));
  const x = {
    field: 'n',
    type: 'quantitative',
    title: `${options.xTitle ?? metricTitle(summary)}: at least N`,
    axis: { tickMinStep: 1, format: 'd' },
    scale: { nice: false },
  };
  const y = quantity('probability', 'Chance of N or more', true, { scale: { domain: [0, 1] } });
  const tips = [tooltip('n', 'N'), tooltip('text', 'Chance of N or more'), ...(exact ? [] : [tooltip('range', '95% interval')])];
  const line: Spec = { mark: { type: 'line', color: BLUE, point: { color: BLUE } }, encoding: { x, y, tooltip: tips } };
  const subtitle = exact
    ? `Each point is P(${summary.name} ≥ N): exact probabilities (every outcome enumerated)`
    : `Each point is P(${summary.name} ≥ N), the band its 95% interval; ${countText(summary.trials)} trials`;
  return chart('at-least', options, `${summary.name}: chance of N or more`, subtitle, {
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    layer: exact ? [line] : [intervalBand(x), line],
  });
}

/** Characters a line of an axis label holds before it wraps. */
const LABEL_LINE = 44;

/** Text broken at spaces into lines of at most `width` characters (a longer word keeps its own line), joined by "\n". */
function wrapped(text: string, width: number): string {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines.join('\n');
}

/** One outcome of a comparison: its value under the baseline and the variant, and the difference variant − baseline. */
export interface DifferenceRow {
  /** The outcome in words: "Ogre vanquished", "Wounds on the Ogre". */
  readonly label: string;
  /** A chance (shown in percentage points) or a mean (in its own units). */
  readonly kind: 'chance' | 'mean';
  readonly baseline: number;
  readonly variant: number;
  /** variant − baseline, and its 95% interval. */
  readonly difference: number;
  readonly low: number;
  readonly high: number;
  readonly pValue?: number;
}

export interface DifferenceChartOptions extends ChartOptions {
  /** The two variants in words. */
  readonly baseline: string;
  readonly variant: string;
  /** How the trials were run, for the subtitle: "200,000 paired trials (the same dice for both)". */
  readonly trialsNote?: string;
}

/**
 * variant − baseline for each outcome: a point with its 95% interval and the zero line, one row a
 * labelled outcome. Chances (in percentage points) and means have different units, so each gets its
 * own panel and axis.
 */
export function differenceChart(rows: readonly DifferenceRow[], options: DifferenceChartOptions): Chart {
  const values: Row[] = rows.map((row) => {
    const scale = row.kind === 'chance' ? 100 : 1;
    const shown = (value: number) => (row.kind === 'chance' ? percentText(value) : value.toFixed(2));
    return {
      outcome: wrapped(row.label, LABEL_LINE),
      kind: row.kind,
      difference: row.difference * scale,
      low: row.low * scale,
      high: row.high * scale,
      baselineText: shown(row.baseline),
      variantText: shown(row.variant),
      differenceText: differenceText(row.difference, { low: row.low, high: row.high }, row.kind),
      pText: row.pValue === undefined ? '' : row.pValue < 1e-4 ? '< 0.0001' : row.pValue.toFixed(4),
      verdict: row.low > 0 || row.high < 0 ? 'interval excludes 0' : 'interval includes 0',
    };
  });
  const labelLines = Math.max(1, ...values.map((row) => String(row.outcome).split('\n').length));
  const panel = (kind: 'chance' | 'mean'): Spec => {
    // Long outcome names are wrapped (in the data) at spaces; the label shows each line.
    const y = {
      field: 'outcome',
      type: 'nominal',
      sort: inOrder(values, 'outcome'),
      title: null,
      axis: { labelLimit: LABEL_LINE * LABEL_CHARACTER_WIDTH, labelExpr: "split(datum.label, '\\n')" },
    };
    const title =
      kind === 'chance'
        ? `Change in chance, ${options.variant} − ${options.baseline} (percentage points)`
        : `Change in the average, ${options.variant} − ${options.baseline}`;
    // A sign on every tick but 0 (the expression reads only the tick's number).
    const x = {
      field: 'difference',
      type: 'quantitative',
      title,
      axis: { labelExpr: "datum.value === 0 ? '0' : format(datum.value, '+.3~g')" },
    };
    const tips = [
      tooltip('outcome', 'Outcome'),
      tooltip('baselineText', options.baseline),
      tooltip('variantText', options.variant),
      tooltip('differenceText', 'Difference, 95% interval'),
      ...(rows.some((row) => row.pValue !== undefined) ? [tooltip('pText', 'p-value')] : []),
    ];
    const color = {
      field: 'verdict',
      type: 'nominal',
      title: null,
      scale: { domain: ['interval excludes 0', 'interval includes 0'], range: [BLUE, '#94a3b8'] },
      legend: { orient: 'bottom' },
    };
    return {
      width: WIDTH - 120,
      height: { step: Math.max(28, 13 * labelLines + 10) },
      transform: [{ filter: { field: 'kind', equal: kind } }],
      layer: [
        { mark: { type: 'rule', color: INK }, encoding: { x: { datum: 0 } } },
        intervalRule({ y }, true, { color }),
        { mark: { type: 'point', filled: true, size: 70 }, encoding: { y, x, color, tooltip: tips } },
      ],
    };
  };
  const kinds = (['chance', 'mean'] as const).filter((kind) => rows.some((row) => row.kind === kind));
  const panels = kinds.length === 0 ? [panel('chance')] : kinds.map(panel);
  const body: Spec = panels.length === 1 ? { ...panels[0] } : { vconcat: panels, resolve: { scale: { color: 'shared' } } };
  const lines = [
    `Each point: ${options.variant} minus ${options.baseline}, with its 95% interval (right of 0: more ${options.variant})`,
    options.trialsNote ?? '',
  ];
  return chart('difference', options, `${options.variant} against ${options.baseline}`, lines, { data: { values }, ...body });
}

/** One point of a sweep line: the swept value, the estimate and its 95% interval. */
export interface SweepLinePoint {
  readonly x: number | string;
  /** The line it belongs to (the second swept field's value), if there are several. */
  readonly series?: string;
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  readonly trials?: number;
}

export interface SweepChartOptions extends ChartOptions {
  /** The swept field in words: "Soldiers in the formation". */
  readonly xTitle: string;
  /** What is measured, in words: "Soldiers vanquished (average)". */
  readonly yTitle: string;
  /** A chance (percent axis from 0 to 100%) or a mean. */
  readonly probability: boolean;
  /** The second swept field in words, when there are several lines. */
  readonly seriesTitle?: string;
  /** After each number on the x axis: '+' for an Initiative of "3+". */
  readonly xLabelSuffix?: string;
}

/** One measure across a sweep: a line (one per series) with its 95% interval band. */
export function sweepChart(points: readonly SweepLinePoint[], options: SweepChartOptions): Chart {
  const numericX = points.every((point) => typeof point.x === 'number');
  const several = points.some((point) => point.series !== undefined);
  const values: Row[] = points.map((point) => ({
    x: point.x,
    series: point.series ?? null,
    estimate: point.estimate,
    ...intervalFields({ low: point.low, high: point.high }),
    text: options.probability
      ? estimateText({ value: point.estimate, interval: { low: point.low, high: point.high } })
      : meanText(point.estimate, { low: point.low, high: point.high }),
    trials: point.trials ?? null,
  }));
  const integerX = numericX && points.every((point) => Number.isInteger(point.x));
  // The suffix is the caller's constant, quoted as a string literal; the expression reads only the tick's number.
  const suffix =
    options.xLabelSuffix === undefined
      ? {}
      : { labelExpr: `format(datum.value, '${integerX ? 'd' : '~g'}') + ${JSON.stringify(options.xLabelSuffix)}` };
  const x = numericX
    ? {
        field: 'x',
        type: 'quantitative',
        title: options.xTitle,
        scale: { zero: false },
        axis: { ...(integerX ? { tickMinStep: 1, format: 'd' } : {}), ...suffix },
      }
    : { field: 'x', type: 'ordinal', sort: inOrder(values, 'x'), title: options.xTitle, axis: { labelAngle: 0 } };
  // Averages from 0 too: an axis cut at 2.3 makes a small change look large.
  // Averages from 0 too: an axis cut at 2.3 makes a small change look large. A long axis title would
  // stretch the chart: it is cut at the plot's height (the chart's title says it in full).
  const y = {
    field: 'estimate',
    type: 'quantitative',
    title: options.yTitle,
    scale: options.probability ? { domain: [0, 1] } : { zero: true },
    axis: { titleLimit: HEIGHT, ...(options.probability ? { format: PERCENT_AXIS } : {}) },
  };
  const color = several
    ? {
        field: 'series',
        type: 'nominal',
        title: options.seriesTitle ?? null,
        sort: inOrder(values, 'series'),
        legend: { orient: 'bottom', direction: 'horizontal', titleLimit: WIDTH, labelLimit: 240 },
      }
    : undefined;
  const tips = [
    tooltip('x', options.xTitle),
    ...(several ? [tooltip('series', options.seriesTitle ?? 'Line')] : []),
    tooltip('text', `${options.probability ? 'Chance' : 'Average'}, 95% interval`),
    ...(points.some((point) => point.trials !== undefined) ? [tooltip('trials', 'Trials', ',d')] : []),
  ];
  const line = {
    mark: { type: 'line', point: true, ...(color === undefined ? { color: BLUE } : {}) },
    encoding: { x, y, ...(color === undefined ? {} : { color }), tooltip: tips },
  };
  const trials = [...new Set(points.map((point) => point.trials).filter((count) => count !== undefined))];
  const trialsText = trials.length === 1 ? `; ${countText(trials[0] ?? 0)} trials a point` : '';
  return chart(
    'sweep',
    options,
    `${options.yTitle} against ${options.xTitle}`,
    `${options.probability ? 'Chance' : 'Average'} with its 95% interval band${trialsText}`,
    {
      width: WIDTH,
      height: HEIGHT,
      data: { values },
      // The line first: the legend takes its symbols from the first layer (the band's would be pale swatches).
      layer: [line, intervalBand(x, color)],
    },
  );
}
