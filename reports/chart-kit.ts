import { platform } from '../input/platform.js';
import type { Interval } from '../statistics/intervals.js';
import { PERCENT_AXIS_FORMAT } from './format.js';

/**
 * What every chart builder (charts.ts, heatmap.ts, cost-charts.ts) shares: the Chart type, the
 * shared look, ids, and the layers every kind of chart draws (interval rules and bands, reference
 * lines). Strings that come from data go into data values or plain title text — never into a Vega
 * expression — and fields have fixed names, so a name with dots, quotes or markup is only ever text.
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
  /** Lines under the title (default: what the chart shows and its trials). */
  readonly subtitle?: string | readonly string[];
}

export type Spec = Record<string, unknown>;
export type Row = Record<string, string | number | null>;

export const VEGA_LITE_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** The family of the font render.ts ships to resvg (browsers without it fall back to sans-serif). */
export const CHART_FONT = 'Inter';

export const WIDTH = 520;
export const HEIGHT = 300;
export const BLUE = '#4c78a8';
export const ORANGE = '#e45756';
export const INK = '#1f2937';
export const MUTED = '#9ca3af';
export const PERCENT_AXIS = PERCENT_AXIS_FORMAT;

/** An upper bound on the width of an 11 px label's character in any sans-serif font (wide enough that no name is cut). */
export const LABEL_CHARACTER_WIDTH = 7;
/** Labels and legend texts are never cut with "…" below this width (Vega-Lite's default cuts at 180 px). */
const TEXT_LIMIT = 400;

const CONFIG: Spec = {
  font: `${CHART_FONT}, sans-serif`,
  background: 'white',
  padding: 12,
  title: { fontSize: 16, subtitleFontSize: 12, subtitleColor: '#4b5563', anchor: 'start', offset: 12 },
  axis: {
    labelFontSize: 11,
    titleFontSize: 12,
    labelColor: '#374151',
    titleColor: INK,
    gridColor: '#e5e7eb',
    titlePadding: 8,
    labelLimit: TEXT_LIMIT,
  },
  legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: TEXT_LIMIT, titleLimit: TEXT_LIMIT },
  view: { stroke: null },
};

const FILE_SAFE = /^[A-Za-z0-9._-]+$/;

function slug(text: string): string {
  const full = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (full.length <= 60) return full;
  // Cut at a word, and end with a hash of the whole: two long titles sharing a start keep apart.
  const cut = full.slice(0, 52);
  const kept = cut.slice(0, cut.lastIndexOf('-') > 20 ? cut.lastIndexOf('-') : 51).replace(/-+$/, '');
  return `${kept}-${platform().sha256(full).slice(0, 8)}`;
}

/**
 * Strings as vega's expression parser can read them: vega-lite copies labels into expressions
 * (sort orders, filters), and U+2028/U+2029 end a string literal there ("Unexpected token ILLEGAL"),
 * so they become spaces in what a chart is given.
 */
function expressionSafe(value: unknown): unknown {
  if (typeof value === 'string') return /[\u2028\u2029]/.test(value) ? value.replace(/[\u2028\u2029]/g, ' ') : value;
  if (Array.isArray(value)) return value.map(expressionSafe);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [expressionSafe(key) as string, expressionSafe(item)]));
  return value;
}

function chartId(kind: string, title: string, id: string | undefined): string {
  if (id === undefined) return [kind, slug(title)].filter((part) => part !== '').join('-');
  if (!FILE_SAFE.test(id)) throw new RangeError(`chart id ${JSON.stringify(id)} must use only letters, digits, '.', '_' and '-'`);
  return id;
}

/** A whole chart: title, subtitle lines, schema, shared config and the body (data, marks, encodings). */
export function chart(
  kind: string,
  options: ChartOptions,
  defaultTitle: string,
  defaultSubtitle: string | readonly string[],
  body: Spec,
): Chart {
  const title = options.title ?? defaultTitle;
  const given = options.subtitle ?? defaultSubtitle;
  const lines = (typeof given === 'string' ? [given] : [...given]).filter((line) => line !== '');
  const spec = expressionSafe({
    $schema: VEGA_LITE_SCHEMA,
    title: lines.length === 0 ? { text: title } : { text: title, subtitle: lines.length === 1 ? lines[0] : lines },
    config: CONFIG,
    ...body,
  }) as Spec;
  return { id: chartId(kind, title, options.id), title, spec };
}

/** JSON has no Infinity or NaN: an unbounded or undefined number becomes null (not drawn). */
export function finite(value: number): number | null {
  return Number.isFinite(value) ? value : null;
}

export function intervalFields(interval: Interval): { low: number | null; high: number | null } {
  return { low: finite(interval.low), high: finite(interval.high) };
}

export { capitalized } from '../input/field-labels.js';

/** A quantitative channel on a fixed field; a probability gets a percent axis. */
export function quantity(field: string, title: string | null, probability: boolean, extra: Spec = {}): Spec {
  return { field, type: 'quantitative', title, ...(probability ? { axis: { format: PERCENT_AXIS } } : {}), ...extra };
}

/** A tooltip line: a field shown as it is (texts made by format.ts), or a number in a d3 format. */
export function tooltip(field: string, title: string, format?: string): Spec {
  return format === undefined ? { field, title } : { field, title, type: 'quantitative', format };
}

/** The 95% interval as a rule from `low` to `high` along y (or x, when horizontal). */
export function intervalRule(position: Spec, horizontal = false, extra: Spec = {}): Spec {
  const along = horizontal
    ? { x: { field: 'low', type: 'quantitative' }, x2: { field: 'high' } }
    : { y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } };
  return { mark: { type: 'rule', color: INK, strokeWidth: 1.5 }, encoding: { ...position, ...along, ...extra } };
}

/** The 95% interval as a translucent band from `low` to `high`. */
export function intervalBand(x: Spec, color?: Spec): Spec {
  return {
    mark: { type: 'area', opacity: 0.2, ...(color === undefined ? { color: BLUE } : {}) },
    encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' }, ...(color === undefined ? {} : { color }) },
  };
}

/** A dashed reference line at a fixed value of x or y, with an optional label beside it. */
export function referenceLine(channel: 'x' | 'y', value: number, label?: string): Spec[] {
  const rule: Spec = { mark: { type: 'rule', color: MUTED, strokeDash: [5, 4] }, encoding: { [channel]: { datum: value } } };
  if (label === undefined) return [rule];
  const text: Spec = {
    data: { values: [{ at: value, label }] },
    mark:
      channel === 'y'
        ? { type: 'text', align: 'right', baseline: 'bottom', dy: -3, x: 'width', color: '#4b5563' }
        : { type: 'text', align: 'left', baseline: 'bottom', dx: 4, dy: -4, y: 'height', color: '#4b5563' },
    encoding: { [channel]: { field: 'at', type: 'quantitative' }, text: { field: 'label', type: 'nominal' } },
  };
  return [rule, text];
}

/** Distinct display names, in first-seen order (a repeated name gets its id appended). */
export function displayNames(ids: readonly string[], names: ReadonlyMap<string, string>): Map<string, string> {
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
export function inOrder(values: readonly Row[], field: string): string[] {
  return [...new Set(values.map((row) => String(row[field])))];
}
