import type { BalanceResult } from '../analysis/balance.js';
import type { ComparisonResult } from '../analysis/compare.js';
import type { Interval } from '../analysis/intervals.js';
import type { MatchupCell } from '../analysis/matchups.js';
import type { PairedChannelComparison } from '../analysis/paired.js';
import type { MetricSummary } from '../analysis/summary.js';
import type { SweepAxis, SweepPoint } from '../analysis/sweep.js';
import { rulebookPercent } from '../analysis/tables.js';

/**
 * The report's charts as Vega-Lite specs (v6), one builder per kind of question: an outcome's
 * distribution, "N or better", a comparison of two variants, a matchup heatmap, a sweep, a fitted
 * cost curve and published-vs-fitted costs. Every spec is self-contained: inline data, a title,
 * axis titles in words, percent axes for probabilities, and the 95% intervals of the results drawn
 * as rules or bands (exact summaries have none to draw). Strings that come from data (unit, scenario, variant and label names) go into
 * data values or plain title text — never into a Vega expression — and fields have fixed names, so a
 * name with dots, quotes or markup is only ever shown as text. render.ts draws them.
 */
export interface Chart {
  /** File-name safe: [A-Za-z0-9._-]. */
  readonly id: string;
  readonly title: string;
  /** A Vega-Lite top-level spec with inline data. */
  readonly spec: Record<string, unknown>;
}

export interface ChartOptions {
  readonly title?: string;
  readonly id?: string;
  /** A line under the title (default: what the chart shows and its trials). */
  readonly subtitle?: string;
}

type Spec = Record<string, unknown>;
type Row = Record<string, string | number | null>;

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** The family of the font render.ts ships to resvg (browsers without it fall back to sans-serif). */
export const CHART_FONT = 'Inter';

const WIDTH = 520;
const HEIGHT = 300;
const BLUE = '#4c78a8';
const INK = '#1f2937';
const MUTED = '#9ca3af';
const PERCENT_AXIS = '.0%';
const PERCENT_TIP = '.1%';

const CONFIG: Spec = {
  font: `${CHART_FONT}, sans-serif`,
  background: 'white',
  padding: 12,
  title: { fontSize: 16, subtitleFontSize: 12, subtitleColor: '#4b5563', anchor: 'start', offset: 12 },
  axis: { labelFontSize: 11, titleFontSize: 12, labelColor: '#374151', titleColor: INK, gridColor: '#e5e7eb', titlePadding: 8 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  view: { stroke: null },
};

// ---------------------------------------------------------------- shared helpers

const FILE_SAFE = /^[A-Za-z0-9._-]+$/;

function slug(text: string): string {
  const full = text.normalize('NFKD').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (full.length <= 60) return full;
  const cut = full.slice(0, 61);
  return cut.slice(0, cut.lastIndexOf('-') > 20 ? cut.lastIndexOf('-') : 60).replace(/-+$/, '');
}

function chartId(kind: string, title: string, id: string | undefined): string {
  if (id === undefined) return [kind, slug(title)].filter((part) => part !== '').join('-');
  if (!FILE_SAFE.test(id)) throw new RangeError(`chart id ${JSON.stringify(id)} must use only letters, digits, '.', '_' and '-'`);
  return id;
}

/** A whole chart: title, subtitle, schema, shared config and the body (data, marks, encodings). */
function chart(kind: string, options: ChartOptions, defaultTitle: string, defaultSubtitle: string, body: Spec): Chart {
  const title = options.title ?? defaultTitle;
  const subtitle = options.subtitle ?? defaultSubtitle;
  const spec: Spec = {
    $schema: VEGA_LITE_SCHEMA,
    title: subtitle === '' ? { text: title } : { text: title, subtitle },
    config: CONFIG,
    ...body,
  };
  return { id: chartId(kind, title, options.id), title, spec };
}

/** JSON has no Infinity or NaN: an unbounded or undefined number becomes null (not drawn). */
function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

function intervalFields(interval: Interval): { low: number | null; high: number | null } {
  return { low: finite(interval.low), high: finite(interval.high) };
}

const count = (n: number): string => n.toLocaleString('en-US');
const percent = (p: number): string => `${(p * 100).toFixed(Math.abs(p) < 0.1 ? 1 : 0)}%`;
const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A quantitative channel on a fixed field; a probability gets a percent axis. */
function quantity(field: string, title: string | null, probability: boolean, extra: Spec = {}): Spec {
  return { field, type: 'quantitative', title, ...(probability ? { axis: { format: PERCENT_AXIS } } : {}), ...extra };
}

function tooltip(field: string, title: string, format?: string): Spec {
  return format === undefined ? { field, title } : { field, title, type: 'quantitative', format };
}

/** The 95% interval as a rule from `low` to `high` along y (or x, when horizontal). */
function intervalRule(position: Spec, horizontal = false): Spec {
  const along = horizontal ? { x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } } : { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } };
  return { mark: { type: 'rule', color: INK, strokeWidth: 1.5 }, encoding: { ...position, ...along } };
}

/** The 95% interval as a translucent band from `low` to `high`. */
function intervalBand(x: Spec, color?: Spec): Spec {
  return {
    mark: { type: 'area', opacity: 0.2, ...(color === undefined ? { color: BLUE } : {}) },
    encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, ...(color === undefined ? {} : { color }) },
  };
}

/** A dashed reference line at a fixed value of x or y, with an optional label beside it. */
function referenceLine(channel: 'x' | 'y', value: number, label?: string): Spec[] {
  const rule: Spec = { mark: { type: 'rule', color: MUTED, strokeDash: [5, 4] }, encoding: { [channel]: { datum: value } } };
  if (label === undefined) return [rule];
  const text: Spec = {
    data: { values: [{ at: value, label }] },
    mark: channel === 'y' ? { type: 'text', align: 'right', baseline: 'bottom', dy: -3, x: 'width', color: '#4b5563' } : { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -4, y: 'height', color: '#4b5563' },
    encoding: { [channel]: { field: 'at', type: 'quantitative' }, text: { field: 'label', type: 'nominal' } },
  };
  return [rule, text];
}

/** Distinct display names, in first-seen order (a repeated name gets its id appended). */
function displayNames(ids: readonly string[], names: ReadonlyMap<string, string>): Map<string, string> {
  const shown = new Map<string, string>();
  const used = new Set<string>();
  for (const id of ids) {
    if (shown.has(id)) continue;
    let name = names.get(id) ?? id;
    if (used.has(name)) name = `${name} (${id})`;
    used.add(name);
    shown.set(id, name);
  }
  return shown;
}

/**
 * A discrete axis's order: the rows' values of `field`, first seen first. (An explicit list, not a
 * sort by another field: layers filter their data differently, and Vega-Lite cannot union those sorts.)
 */
function inOrder(values: readonly Row[], field: string): string[] {
  return [...new Set(values.map((row) => String(row[field])))];
}

function metricTitle(summary: MetricSummary): string {
  return summary.description === '' ? summary.name : capitalized(summary.description);
}

// ---------------------------------------------------------------- the charts

/**
 * An exact summary (analysis/summary.ts's summarizeExact): nothing was sampled, so it has 0 trials
 * and its intervals are the values themselves — no interval to draw. (A Monte Carlo summary has ≥ 1.)
 */
const isExact = (summary: MetricSummary): boolean => summary.trials === 0;

/** P(X = v) for every value (or label) of a metric: bars with their 95% Wilson intervals (exact probabilities: bars alone). */
export function distributionChart(summary: MetricSummary, options: ChartOptions = {}): Chart {
  const exact = isExact(summary);
  const values: Row[] = summary.distribution.map((entry) => ({
    outcome: entry.label ?? String(entry.value),
    probability: entry.probability,
    ...(exact ? {} : intervalFields(entry.interval)),
  }));
  const x = { field: 'outcome', type: 'ordinal', sort: inOrder(values, 'outcome'), title: metricTitle(summary), axis: { labelAngle: 0 } };
  const tips = [tooltip('outcome', 'Outcome'), tooltip('probability', 'Chance', PERCENT_TIP), ...(exact ? [] : [tooltip('low', '95% low', PERCENT_TIP), tooltip('high', '95% high', PERCENT_TIP)])];
  const layers: Spec[] = [{ mark: { type: 'bar', color: BLUE, opacity: 0.85 }, encoding: { x, y: quantity('probability', 'Chance', true), tooltip: tips } }];
  if (!exact) layers.push(intervalRule({ x }));
  if (values.length <= 12) {
    // The label sits above the interval, or above the bar when there is none.
    layers.push({ mark: { type: 'text', baseline: 'bottom', dy: -4, fontSize: 11, color: INK }, encoding: { x, y: { field: exact ? 'probability' : 'high', type: 'quantitative' }, text: { field: 'probability', format: '.2~p' } } });
  }
  const subtitle = exact ? 'Chance of each value: exact probabilities (every outcome enumerated)' : `Chance of each value, with 95% intervals; ${count(summary.trials)} trials`;
  return chart('distribution', options, `${summary.name}: how often each outcome happens`, subtitle, {
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    layer: layers,
  });
}

/** P(X ≥ N), "N or better", for a count metric: a line with its 95% interval band (exact probabilities: the line alone). */
export function atLeastChart(summary: MetricSummary, options: ChartOptions = {}): Chart {
  if (summary.kind !== 'count') throw new RangeError(`"N or better" needs a count metric; ${summary.name} is a ${summary.kind}`);
  const exact = isExact(summary);
  const values: Row[] = summary.atLeast.map((entry) => ({ n: entry.value, probability: entry.probability, ...(exact ? {} : intervalFields(entry.interval)) }));
  const x = { field: 'n', type: 'quantitative', title: `${metricTitle(summary)}: at least N`, axis: { tickMinStep: 1, format: 'd' }, scale: { nice: false } };
  const y = quantity('probability', 'Chance of N or more', true, { scale: { domain: [0, 1] } });
  const tips = [tooltip('n', 'N'), tooltip('probability', 'Chance of N or more', PERCENT_TIP), ...(exact ? [] : [tooltip('low', '95% low', PERCENT_TIP), tooltip('high', '95% high', PERCENT_TIP)])];
  const line: Spec = { mark: { type: 'line', color: BLUE, point: { color: BLUE } }, encoding: { x, y, tooltip: tips } };
  const subtitle = exact ? `Each point is P(${summary.name} ≥ N): exact probabilities (every outcome enumerated)` : `Each point is P(${summary.name} ≥ N), the band its 95% interval; ${count(summary.trials)} trials`;
  return chart('at-least', options, `${summary.name}: chance of N or more`, subtitle, {
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    layer: exact ? [line] : [intervalBand(x), line],
  });
}

function channelLabel(channel: PairedChannelComparison): string {
  return channel.name.replace('=', ' = ');
}

/**
 * The paired difference a − b of each chosen outcome (default: all): bars with 95% t intervals.
 * Chances and counts have different units, so each kind gets its own panel and axis.
 */
export function comparisonChart(result: ComparisonResult, outcomes?: readonly string[], options: ChartOptions = {}): Chart {
  const missing = (outcomes ?? []).filter((name) => !result.channels.some((channel) => channel.name === name));
  if (missing.length > 0) throw new RangeError(`the comparison has no outcome ${missing.map((name) => JSON.stringify(name)).join(', ')}`);
  const chosen = outcomes === undefined ? result.channels : result.channels.filter((channel) => outcomes.includes(channel.name));
  const values: Row[] = chosen.map((channel) => ({
    outcome: channelLabel(channel),
    kind: channel.kind,
    difference: finite(channel.difference.mean),
    ...intervalFields(channel.difference.interval),
    a: finite(channel.a.mean),
    b: finite(channel.b.mean),
    pValue: finite(channel.difference.pValue),
    verdict: channel.difference.interval.low > 0 || channel.difference.interval.high < 0 ? 'interval excludes 0' : 'interval includes 0',
  }));
  const panel = (kind: 'indicator' | 'count'): Spec => {
    const probability = kind === 'indicator';
    const format = probability ? '+.1%' : '+.2f';
    const y = { field: 'outcome', type: 'nominal', sort: inOrder(values, 'outcome'), title: null, axis: { labelLimit: 260 } };
    const x = quantity('difference', probability ? 'Difference in chance (A − B)' : 'Difference in mean (A − B)', false, { axis: { format: probability ? '+.1%' : '+' } });
    const tips = [tooltip('outcome', 'Outcome'), tooltip('a', 'A', probability ? PERCENT_TIP : '.3f'), tooltip('b', 'B', probability ? PERCENT_TIP : '.3f'), tooltip('difference', 'A − B', format), tooltip('low', '95% low', format), tooltip('high', '95% high', format), tooltip('pValue', 'p-value', '.3g')];
    const color = { field: 'verdict', type: 'nominal', title: null, scale: { domain: ['interval excludes 0', 'interval includes 0'], range: [BLUE, '#cbd5e1'] }, legend: { orient: 'bottom' } };
    return {
      width: WIDTH - 100,
      height: { step: 24 },
      transform: [{ filter: { field: 'kind', equal: kind } }],
      layer: [{ mark: { type: 'bar', height: { band: 0.6 } }, encoding: { y, x, color, tooltip: tips } }, intervalRule({ y }, true), { mark: { type: 'rule', color: INK }, encoding: { x: { datum: 0 } } }],
    };
  };
  const kinds = (['indicator', 'count'] as const).filter((kind) => chosen.some((channel) => channel.kind === kind));
  const panels = kinds.length === 0 ? [panel('indicator')] : kinds.map(panel);
  const body: Spec = panels.length === 1 ? { ...panels[0] } : { vconcat: panels, resolve: { scale: { color: 'shared' } } };
  const pairing = result.paired ? 'paired trials (common random numbers)' : 'independent trials per variant';
  return chart('comparison', options, result.scenario, `A = ${result.a}, B = ${result.b}: the difference A − B with 95% intervals from ${count(result.trials)} ${pairing}`, { data: { values }, ...body });
}

/** P(row unit wins) for every pairing of a roster: a heatmap with each cell's rulebook text. */
export function heatmapChart(cells: readonly MatchupCell[], names: ReadonlyMap<string, string>, options: ChartOptions = {}): Chart {
  const shown = displayNames(cells.flatMap((cell) => [cell.a, cell.b]), names);
  const order = [...shown.values()];
  const values: Row[] = cells.map((cell) => ({
    unit: shown.get(cell.a) ?? cell.a,
    opponent: shown.get(cell.b) ?? cell.b,
    winProbability: cell.winProbability,
    ...intervalFields(cell.interval),
    text: rulebookPercent(cell.winProbability, cell.interval),
    trials: cell.trials,
  }));
  const trials = cells.map((cell) => cell.trials);
  const trialText = trials.length === 0 ? 'no pairings' : Math.min(...trials) === Math.max(...trials) ? `${count(trials[0] ?? 0)} trials per pairing` : `${count(Math.min(...trials))}–${count(Math.max(...trials))} trials per pairing`;
  const x = { field: 'opponent', type: 'nominal', sort: order, title: 'Opponent (side B)', axis: { labelAngle: -30, orient: 'bottom' } };
  const y = { field: 'unit', type: 'nominal', sort: order, title: 'Unit (side A)' };
  const tips = [tooltip('unit', 'Unit'), tooltip('opponent', 'Opponent'), tooltip('winProbability', 'P(unit wins)', PERCENT_TIP), tooltip('low', '95% low', PERCENT_TIP), tooltip('high', '95% high', PERCENT_TIP), tooltip('trials', 'Trials')];
  return chart('heatmap', options, 'Chance the row unit wins each matchup', `Cell: P(unit wins) ±95% interval half-width; ${trialText}`, {
    width: { step: 64 },
    height: { step: 36 },
    data: { values },
    encoding: { x, y },
    layer: [
      { mark: { type: 'rect', stroke: 'white', strokeWidth: 1 }, encoding: { color: { field: 'winProbability', type: 'quantitative', title: 'P(unit wins)', scale: { scheme: 'redblue', domain: [0, 1] }, legend: { format: PERCENT_AXIS } }, tooltip: tips } },
      {
        mark: { type: 'text', fontSize: 11 },
        encoding: { text: { field: 'text', type: 'nominal' }, color: { condition: { test: 'datum.winProbability < 0.2 || datum.winProbability > 0.8', value: 'white' }, value: 'black' } },
      },
    ],
  });
}

export interface SweepChartOptions extends ChartOptions {
  /** Axis title for the first swept field (default: its path). */
  readonly xTitle?: string;
  /** Legend title for the second swept field (default: its path). */
  readonly colorTitle?: string;
}

/**
 * One metric across a sweep: `value` is 'mean' (a count metric's mean) or a label (its chance; 'yes'
 * for a flag). The first axis runs along x; a second axis gives one line per value.
 */
export function sweepChart(axes: readonly SweepAxis[], points: readonly SweepPoint[], metric: string, value: string, options: SweepChartOptions = {}): Chart {
  const [first, second] = axes;
  if (first === undefined) throw new RangeError('a sweep chart needs at least one swept field');
  const probability = value !== 'mean';
  const numericX = points.every((point) => typeof point.values[0] === 'number');
  let description = metric;
  const values: Row[] = points.map((point) => {
    const summary = point.result.summary.find((candidate) => candidate.name === metric);
    if (summary === undefined) throw new RangeError(`the sweep has no metric ${JSON.stringify(metric)}`);
    description = metricTitle(summary);
    const entry = probability ? summary.distribution.find((candidate) => (candidate.label ?? String(candidate.value)) === value) : undefined;
    if (probability && entry === undefined) throw new RangeError(`${metric} has no value ${JSON.stringify(value)}`);
    const estimate = entry === undefined ? summary.mean : entry.probability;
    const interval = entry === undefined ? summary.meanInterval : entry.interval;
    const x = point.values[0];
    return {
      x: numericX && typeof x === 'number' ? x : String(x),
      series: second === undefined ? null : String(point.values[1]),
      estimate,
      ...intervalFields(interval),
      trials: point.result.trials,
    };
  });
  const integerX = numericX && points.every((point) => Number.isInteger(point.values[0]));
  const x = numericX ? { field: 'x', type: 'quantitative', title: options.xTitle ?? first.path, scale: { zero: false }, ...(integerX ? { axis: { tickMinStep: 1, format: 'd' } } : {}) } : { field: 'x', type: 'ordinal', sort: inOrder(values, 'x'), title: options.xTitle ?? first.path, axis: { labelAngle: 0 } };
  const yTitle = !probability ? `Mean: ${description}` : value === 'yes' ? `Chance: ${description}` : `Chance ${metric} is ${value}`;
  const y = quantity('estimate', yTitle, probability, probability ? { scale: { domain: [0, 1] } } : {});
  const color = second === undefined ? undefined : { field: 'series', type: 'nominal', title: options.colorTitle ?? second.path, sort: second.values.map(String) };
  const format = probability ? PERCENT_TIP : '.2f';
  const tips = [tooltip('x', options.xTitle ?? first.path), ...(second === undefined ? [] : [tooltip('series', options.colorTitle ?? second.path)]), tooltip('estimate', probability ? 'Chance' : 'Mean', format), tooltip('low', '95% low', format), tooltip('high', '95% high', format), tooltip('trials', 'Trials')];
  const line = { mark: { type: 'line', point: true, ...(color === undefined ? { color: BLUE } : {}) }, encoding: { x, y, ...(color === undefined ? {} : { color }), tooltip: tips } };
  const trialsText = points.length === 0 ? '' : `; ${count(points[0]?.result.trials ?? 0)} trials a point`;
  return chart('sweep', options, `${metric} as ${first.path} changes`, `${probability ? 'Chance' : 'Mean'} with its 95% interval band${trialsText}`, {
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    layer: [intervalBand(x, color), line],
  });
}

export interface BalanceChartOptions extends ChartOptions {
  /** The unit's display name (default: its id). */
  readonly name?: string;
}

/** A unit's average win rate against the roster by models fielded, the target, and the fair count. */
export function balanceCurveChart(result: BalanceResult, options: BalanceChartOptions = {}): Chart {
  const name = options.name ?? result.unit;
  const values: Row[] = result.curve.map((point) => ({ count: point.count, cost: result.budget / point.count, winRate: point.winRate, ...intervalFields(point.interval), trials: point.trials }));
  const x = { field: 'count', type: 'quantitative', title: `Models fielded for ${count(result.budget)} points`, axis: { tickMinStep: 1, format: 'd' } };
  const y = quantity('winRate', 'Average win rate against the roster', true, { scale: { domain: [0, 1] } });
  const tips = [tooltip('count', 'Models'), tooltip('cost', 'Cost per model', '.1f'), tooltip('winRate', 'Win rate', PERCENT_TIP), tooltip('low', '95% low', PERCENT_TIP), tooltip('high', '95% high', PERCENT_TIP), tooltip('trials', 'Trials')];
  const target = result.target === 'win-half' ? 'one half' : 'the roster average';
  const layers: Spec[] = [intervalBand(x), { mark: { type: 'line', color: BLUE, point: { color: BLUE } }, encoding: { x, y, tooltip: tips } }, ...referenceLine('y', result.targetWinRate, `target ${percent(result.targetWinRate)}`)];
  if (result.fairCount !== undefined) {
    const cost = result.fairCost === undefined ? '' : ` (${result.fairCost.toFixed(1)} points each)`;
    layers.push(...referenceLine('x', result.fairCount, `fair: ${result.fairCount.toFixed(2)} models${cost}`));
  }
  const fair =
    result.fairCost === undefined
      ? `the win rate does not cross ${target} between the counts tried`
      : `fair cost ${result.fairCost.toFixed(1)} points${result.costInterval === undefined ? '' : ` (95%: ${result.costInterval.low.toFixed(1)}–${result.costInterval.high.toFixed(1)})`}`;
  const published = result.publishedCost === undefined ? '' : `; published ${count(result.publishedCost)}`;
  return chart('balance', options, `${name}: win rate by models fielded`, `Target: ${target}; ${fair}${published}`, { width: WIDTH, height: HEIGHT, data: { values }, layer: layers });
}

export interface CostScatterOptions extends ChartOptions {
  /** Display names by unit id (default: the ids). */
  readonly names?: ReadonlyMap<string, string>;
}

/** Where the published cost lies against the fitted one's 95% interval. */
const VERDICTS = ['too low', 'about right', 'too high'] as const;

/** Published cost against fitted fair cost for every fitted unit, with the fit's 95% interval and y = x. */
export function costScatterChart(results: readonly BalanceResult[], options: CostScatterOptions = {}): Chart {
  const fitted = results.filter((result) => result.publishedCost !== undefined && result.fairCost !== undefined);
  const shown = displayNames(fitted.map((result) => result.unit), options.names ?? new Map());
  const values: Row[] = fitted.map((result) => {
    const published = result.publishedCost ?? 0;
    const fair = result.fairCost ?? 0;
    const interval = result.costInterval ?? { low: fair, high: fair };
    const verdict = published > interval.high ? 'too high' : published < interval.low ? 'too low' : 'about right';
    return { unit: shown.get(result.unit) ?? result.unit, published, fitted: fair, ...intervalFields(interval), verdict };
  });
  const ends = fitted.flatMap((result) => [result.publishedCost ?? 0, result.fairCost ?? 0, result.costInterval?.low ?? 0, result.costInterval?.high ?? 0]).filter((v) => Number.isFinite(v));
  const low = ends.length === 0 ? 0 : Math.max(0, Math.floor(Math.min(...ends) * 0.9));
  const high = ends.length === 0 ? 1 : Math.ceil(Math.max(...ends) * 1.1);
  const scale = { domain: [low, high], nice: false };
  const x = { field: 'published', type: 'quantitative', title: 'Published cost (points per model)', scale };
  const y = { field: 'fitted', type: 'quantitative', title: 'Fitted fair cost (points per model)', scale };
  const color = { field: 'verdict', type: 'nominal', title: 'Published cost is', scale: { domain: [...VERDICTS], range: ['#e45756', MUTED, BLUE] } };
  const tips = [tooltip('unit', 'Unit'), tooltip('published', 'Published', '.1f'), tooltip('fitted', 'Fitted', '.1f'), tooltip('low', '95% low', '.1f'), tooltip('high', '95% high', '.1f'), tooltip('verdict', 'Published cost is')];
  const diagonal: Spec = { data: { values: [{ cost: low }, { cost: high }] }, mark: { type: 'line', color: MUTED, strokeDash: [5, 4] }, encoding: { x: { field: 'cost', type: 'quantitative', scale }, y: { field: 'cost', type: 'quantitative', scale } } };
  const skipped = results.length - fitted.length;
  const note = skipped === 0 ? '' : `; ${skipped} unit${skipped === 1 ? '' : 's'} without a fit left out`;
  return chart('cost-scatter', options, 'Published against fitted point costs', `Dashed line: fitted = published; bars: 95% intervals of the fit${note}`, {
    width: WIDTH - 100,
    height: WIDTH - 100,
    data: { values },
    layer: [
      diagonal,
      { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { x, y: { field: 'low', type: 'quantitative', scale }, y2: { field: 'high' }, color } },
      { mark: { type: 'point', filled: true, size: 60 }, encoding: { x, y, color, tooltip: tips } },
      { mark: { type: 'text', align: 'left', dx: 7, fontSize: 11, color: INK }, encoding: { x, y, text: { field: 'unit', type: 'nominal' } } },
    ],
  });
}
