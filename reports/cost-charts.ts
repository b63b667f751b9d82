import {
  BLUE,
  type Chart,
  chart,
  type ChartOptions,
  HEIGHT,
  INK,
  intervalBand,
  intervalFields,
  MUTED,
  ORANGE,
  quantity,
  referenceLine,
  type Row,
  type Spec,
  tooltip,
  WIDTH,
} from './chart-kit.js';
import type { PriceVerdict } from '../analysis/price-verdict.js';
import { estimateText, percentText, pointsText } from './format.js';

/**
 * The charts of a cost fit: the balance curve (expected score against models fielded or against
 * the points ratio, with the fitted curve and the target line) and published against fitted costs.
 * Both take plain points, so any fit can feed them.
 */

export interface BalanceCurvePoint {
  /** Where the point was played: a model count, a points ratio… */
  readonly x: number;
  /** Expected score (win + ½ draw) against the roster, with its 95% interval. */
  readonly score: number;
  readonly low: number;
  readonly high: number;
  readonly trials?: number;
  /** More to say on hover: "4 models = 64 points". */
  readonly note?: string;
}

export interface BalanceCurve {
  readonly points: readonly BalanceCurvePoint[];
  /** The fitted curve, drawn as a line through these points. */
  readonly fitted?: readonly { readonly x: number; readonly score: number }[];
  /** The x axis in words: "Models fielded for 60 points", "Points ratio (unit ÷ opponent)". */
  readonly xTitle: string;
  /** A second line under the x axis's title: "each opponent fields what 60 points buy…". */
  readonly xNote?: string;
  readonly yTitle?: string;
  /** The score a fair cost gives (default ½), drawn as a dashed line. */
  readonly target?: number;
  readonly targetLabel?: string;
  /** The fair point on x, drawn as a dashed line with its label. */
  readonly fair?: { readonly x: number; readonly label: string };
  /** A log x axis (a points ratio: ½ and 2 lie equally far from 1). */
  readonly logX?: boolean;
  /** Whole numbers on x (model counts). */
  readonly integerX?: boolean;
}

/** Expected score against the roster by x, with its 95% band, the fitted curve, the target line and the fair point. */
export function balanceCurveChart(curve: BalanceCurve, options: ChartOptions = {}): Chart {
  const target = curve.target ?? 0.5;
  const values: Row[] = curve.points.map((point) => ({
    x: point.x,
    score: point.score,
    ...intervalFields({ low: point.low, high: point.high }),
    text: estimateText({ value: point.score, interval: { low: point.low, high: point.high } }),
    note: point.note ?? '',
    trials: point.trials ?? null,
  }));
  const scale: Spec = curve.logX === true ? { type: 'log' } : { zero: false };
  const x = {
    field: 'x',
    type: 'quantitative',
    title: curve.xNote === undefined ? curve.xTitle : [curve.xTitle, `(${curve.xNote})`],
    scale,
    ...(curve.integerX === true ? { axis: { tickMinStep: 1, format: 'd' } } : {}),
  };
  const y = quantity('score', curve.yTitle ?? 'Expected score against the roster', true, { scale: { domain: [0, 1] } });
  const tips = [
    tooltip('x', curve.xTitle, curve.integerX === true ? 'd' : '.3~f'),
    tooltip('text', 'Expected score, 95% interval'),
    ...(curve.points.some((point) => point.note !== undefined) ? [tooltip('note', 'Fielded')] : []),
    ...(curve.points.some((point) => point.trials !== undefined) ? [tooltip('trials', 'Trials', ',d')] : []),
  ];
  const layers: Spec[] = [
    intervalBand(x),
    { mark: { type: 'point', filled: true, color: BLUE, size: 50 }, encoding: { x, y, tooltip: tips } },
  ];
  if (curve.fitted !== undefined && curve.fitted.length > 1) {
    layers.push({
      data: { values: curve.fitted.map((point) => ({ x: point.x, score: point.score })) },
      mark: { type: 'line', color: INK, strokeWidth: 1.5 },
      encoding: { x, y: { field: 'score', type: 'quantitative' } },
    });
  } else {
    layers.push({ mark: { type: 'line', color: BLUE }, encoding: { x, y } });
  }
  layers.push(...referenceLine('y', target, curve.targetLabel ?? `target ${percentText(target)}`));
  if (curve.fair !== undefined) layers.push(...referenceLine('x', curve.fair.x, curve.fair.label));
  const fittedNote = curve.fitted === undefined ? 'points joined by a line' : 'the line is the fitted curve';
  return chart(
    'balance',
    options,
    `Expected score by ${curve.xTitle.charAt(0).toLowerCase()}${curve.xTitle.slice(1)}`,
    `Each point: expected score (win + ½ draw) with its 95% band; ${fittedNote}; dashed: the target`,
    {
      width: WIDTH,
      height: HEIGHT,
      data: { values },
      layer: layers,
    },
  );
}

/** What the price list says of a published cost: decided by analysis/price-verdict.ts, not by the chart. */
export type CostVerdict = PriceVerdict;
/** Each verdict's colour, in the legend's order (under, fair, over, then uncertain); dark grey for "uncertain": neither a verdict's colour nor fair's light grey. */
const VERDICT_COLOURS: readonly (readonly [PriceVerdict, string])[] = [
  ['under-costed', ORANGE],
  ['fair', MUTED],
  ['over-costed', BLUE],
  ['uncertain', '#6b7280'],
];

export interface CostPoint {
  readonly id: string;
  readonly name: string;
  readonly published: number;
  /** The proposed (deserved) cost and its interval (`high` Infinity: bounded only from below). */
  readonly fitted: number;
  readonly low: number;
  readonly high: number;
  readonly verdict: CostVerdict;
}

export interface CostScatterOptions extends ChartOptions {
  /** Default "Published cost (points)" and "Fitted cost (points)". */
  readonly xTitle?: string;
  readonly yTitle?: string;
  /** Log scales when the costs span more than LOG_SPAN times (default 'auto'). */
  readonly scale?: 'linear' | 'log' | 'auto';
  /** Which points carry their name beside them (default: those with a verdict other than fair, or all when none has one); every point has it on hover. Labels never overlap: one with no room is left out. */
  readonly labels?: 'verdicts' | 'all' | 'none';
  /** How an interval reads on hover, as the page's table prints it (default "[low, high]"). */
  readonly rangeText?: (low: number, high: number) => string;
}

const LOG_SPAN = 8;
const SCATTER_SIZE = WIDTH - 80;
const LABEL_FONT = 11;
/** Inter's mean advance at 11 px, for placing labels (render.ts measures exactly; this only avoids collisions). */
const CHARACTER_WIDTH = 0.56 * LABEL_FONT;

interface Box {
  readonly left: number;
  readonly right: number;
  readonly bottom: number;
  readonly top: number;
}

const overlaps = (a: Box, b: Box): boolean => a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top;

/** Candidate label places, in pixels from the point (x right, y up): right beside it, or half a line above or below — never far from it. */
const PLACES: readonly (readonly [number, number])[] = [
  [8, 0],
  [-8, 0],
  [8, 7],
  [8, -7],
  [-8, 7],
  [-8, -7],
];

/** The axes span the published and fitted costs with this margin (a factor on log axes, a fraction of the span on linear ones). */
const LOG_MARGIN = 1.25;
const LINEAR_MARGIN = 0.1;

/**
 * Where each labelled point's name goes, in data units, or nowhere when every place near it would
 * cover another label or point: labels never overlap (the table and the tooltips name every point).
 */
function placeLabels(
  points: readonly CostPoint[],
  labelled: ReadonlySet<string>,
  toPixel: (value: number) => number,
  fromPixel: (pixel: number) => number,
): Map<string, { x: number; y: number; align: 'left' | 'right' }> {
  const dots: Box[] = points.map((point) => {
    const x = toPixel(point.published);
    const y = toPixel(point.fitted);
    return { left: x - 5, right: x + 5, bottom: y - 5, top: y + 5 };
  });
  const placed: Box[] = [];
  const out = new Map<string, { x: number; y: number; align: 'left' | 'right' }>();
  // The most striking first: the farthest from the diagonal get the best places.
  const order = points
    .filter((point) => labelled.has(point.id))
    .sort((a, b) => Math.abs(toPixel(b.fitted) - toPixel(b.published)) - Math.abs(toPixel(a.fitted) - toPixel(a.published)));
  for (const point of order) {
    const width = point.name.length * CHARACTER_WIDTH;
    const px = toPixel(point.published);
    const py = toPixel(point.fitted);
    for (const [dx, dy] of PLACES) {
      const left = dx > 0 ? px + dx : px + dx - width;
      const box = { left, right: left + width, bottom: py + dy - LABEL_FONT / 2, top: py + dy + LABEL_FONT / 2 };
      if (box.left < 0 || box.right > SCATTER_SIZE || box.bottom < 0 || box.top > SCATTER_SIZE) continue;
      if (placed.some((other) => overlaps(box, other)) || dots.some((dot) => overlaps(box, dot))) continue;
      placed.push(box);
      out.set(point.id, { x: fromPixel(px + dx), y: fromPixel(py + dy), align: dx > 0 ? 'left' : 'right' });
      break;
    }
  }
  return out;
}

/**
 * Published cost (x) against fitted cost (y, with its interval as an error bar) for each unit, the
 * line fitted = published, and each point coloured by the verdict the fit gave it. Above the line a
 * unit is worth more than it costs (under-costed), below it less (over-costed).
 */
export function costScatterChart(points: readonly CostPoint[], options: CostScatterOptions = {}): Chart {
  // The axes span the costs themselves, not their intervals: an interval reaching 1e-113 or 597,393 points would squeeze every unit into a corner.
  const costs = points.flatMap((point) => [point.published, point.fitted]).filter((value) => Number.isFinite(value));
  const positive = costs.filter((value) => value > 0);
  const smallest = positive.length === 0 ? 1 : Math.min(...positive);
  const largest = costs.length === 0 ? 1 : Math.max(...costs);
  const log = options.scale === 'log' || ((options.scale ?? 'auto') === 'auto' && largest / smallest > LOG_SPAN);
  const span = Math.max(largest - Math.min(...costs, largest), 1);
  const low = log ? smallest / LOG_MARGIN : Math.max(0, Math.floor(Math.min(...costs, largest) - span * LINEAR_MARGIN));
  const high = log ? largest * LOG_MARGIN : Math.ceil(largest + span * LINEAR_MARGIN);
  const toPixel = log
    ? (value: number) => ((Math.log(Math.max(value, low)) - Math.log(low)) / (Math.log(high) - Math.log(low))) * SCATTER_SIZE
    : (value: number) => ((value - low) / (high - low)) * SCATTER_SIZE;
  const fromPixel = log
    ? (pixel: number) => Math.exp(Math.log(low) + (pixel / SCATTER_SIZE) * (Math.log(high) - Math.log(low)))
    : (pixel: number) => low + (pixel / SCATTER_SIZE) * (high - low);
  // By default the units called under- or over-costed are named; when none is, as many as fit without overlapping (the farthest from the line first).
  const called = (point: CostPoint) => point.verdict === 'under-costed' || point.verdict === 'over-costed';
  const flagged = points.some(called);
  const which = options.labels ?? (flagged ? 'verdicts' : 'all');
  const labelled = new Set(points.filter((point) => which === 'all' || (which === 'verdicts' && called(point))).map((point) => point.id));
  const places = placeLabels(points, labelled, toPixel, fromPixel);
  const values: Row[] = points.map((point) => {
    const place = places.get(point.id);
    return {
      name: point.name,
      published: point.published,
      fitted: point.fitted,
      // A bar is clipped to the axes, and an arrow at the edge says it runs on.
      low: Math.max(point.low, low),
      high: Math.min(point.high, high),
      lowClipped: point.low < low ? low : null,
      highClipped: point.high > high ? high : null,
      verdict: point.verdict,
      publishedText: pointsText(point.published),
      fittedText: `${pointsText(point.fitted)}, ${options.rangeText?.(point.low, point.high) ?? `[${pointsText(point.low)}, ${Number.isFinite(point.high) ? pointsText(point.high) : 'no upper bound'}]`}`,
      labelX: place?.x ?? null,
      labelY: place?.y ?? null,
      align: place?.align ?? null,
    };
  });
  const scale = { type: log ? 'log' : 'linear', domain: [low, high], nice: false, ...(log ? {} : { zero: false }) };
  const xTitle = options.xTitle ?? 'Published cost (points)';
  const yTitle = options.yTitle ?? 'Proposed cost (points)';
  const x = { field: 'published', type: 'quantitative', title: xTitle, scale };
  const y = { field: 'fitted', type: 'quantitative', title: yTitle, scale };
  const color = {
    field: 'verdict',
    type: 'nominal',
    title: 'Verdict',
    scale: { domain: VERDICT_COLOURS.map(([verdict]) => verdict), range: VERDICT_COLOURS.map(([, colour]) => colour) },
    legend: { orient: 'bottom' },
  };
  const tips = [
    tooltip('name', 'Unit'),
    tooltip('publishedText', xTitle),
    tooltip('fittedText', `${yTitle}, interval`),
    tooltip('verdict', 'Verdict'),
  ];
  const diagonal: Spec = {
    data: { values: [{ cost: low }, { cost: high }] },
    mark: { type: 'line', color: MUTED, strokeDash: [5, 4] },
    encoding: { x: { field: 'cost', type: 'quantitative', scale }, y: { field: 'cost', type: 'quantitative', scale } },
  };
  // Each name twice: a white outline under the text keeps it legible where it crosses an interval bar or the line.
  const label = (align: 'left' | 'right', halo: boolean): Spec => ({
    transform: [{ filter: { field: 'align', equal: align } }],
    mark: {
      type: 'text',
      align,
      baseline: 'middle',
      fontSize: LABEL_FONT,
      color: INK,
      ...(halo ? { stroke: 'white', strokeWidth: 3, strokeJoin: 'round' } : {}),
    },
    encoding: {
      x: { field: 'labelX', type: 'quantitative', scale },
      y: { field: 'labelY', type: 'quantitative', scale },
      text: { field: 'name', type: 'nominal' },
    },
  });
  // An arrow where a bar leaves the chart: its interval runs beyond the axes (the tooltip and the table give it whole).
  const arrow = (field: 'lowClipped' | 'highClipped', shape: 'triangle-down' | 'triangle-up'): Spec => ({
    transform: [{ filter: `isValid(datum.${field})` }],
    mark: { type: 'point', shape, filled: true, size: 70, opacity: 1 },
    encoding: { x, y: { field, type: 'quantitative', scale }, color, tooltip: tips },
  });
  const clipped = values.some((row) => row.lowClipped !== null || row.highClipped !== null);
  const unlabelled = [...labelled].filter((id) => !places.has(id)).length;
  const lines = [
    'Above the dashed line (proposed = published) a unit is worth more than it costs; below it, less',
    `Bars: the proposed cost's 95% interval${clipped ? ' (an arrow: it runs on beyond the chart)' : ''}${log ? '; log scales (the costs span a wide range)' : ''}`,
    unlabelled > 0
      ? `${unlabelled} crowded label${unlabelled === 1 ? '' : 's'} left out: hover a point, or see the table`
      : labelled.size === 0 && points.length > 0
        ? 'Hover a point for its name, or see the table'
        : '',
  ];
  return chart('cost-scatter', options, 'Published against proposed point costs', lines, {
    width: SCATTER_SIZE,
    height: SCATTER_SIZE,
    data: { values },
    layer: [
      diagonal,
      {
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: { x, y: { field: 'low', type: 'quantitative', scale }, y2: { field: 'high' }, color },
      },
      arrow('lowClipped', 'triangle-down'),
      arrow('highClipped', 'triangle-up'),
      { mark: { type: 'point', filled: true, size: 60, opacity: 1 }, encoding: { x, y, color, tooltip: tips } },
      label('left', true),
      label('right', true),
      label('left', false),
      label('right', false),
    ],
  });
}
