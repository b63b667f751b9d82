import type { Interval } from '../statistics/intervals.js';
import { MEASURES as MEASURES_SHOWN, type Measure } from '../documents/matchup-tables.js';
import { type Chart, chart, type ChartOptions, inOrder, LABEL_CHARACTER_WIDTH, PERCENT_AXIS, type Row, tooltip } from './chart-kit.js';
import { countText, type EstimateLike, estimateText, percentText } from './format.js';

/**
 * The matchup heatmap: one cell per row and column (units, plans…), coloured by the row's expected
 * score (win + ½ draw; 50% is an even match, and a pairing that always ends in a draw reads 50%,
 * not 0%) or, on request, by P(row wins). Each cell prints its estimate in the rulebook form; the
 * tooltip gives win, draw and loss, and each seating's numbers when both were played.
 */
export interface OutcomeEstimates {
  readonly trials: number;
  readonly win: { readonly value: number; readonly interval: Interval };
  readonly draw: { readonly value: number; readonly interval: Interval };
  readonly loss: { readonly value: number; readonly interval: Interval };
  readonly score: { readonly value: number; readonly interval: Interval };
}

export interface HeatmapCell {
  /** Display names: the row's outcome against the column. */
  readonly row: string;
  readonly column: string;
  /** Both seatings weighted equally (or the one played). */
  readonly combined: OutcomeEstimates;
  /** The row seated first and second, when played. */
  readonly first?: OutcomeEstimates;
  readonly second?: OutcomeEstimates;
  /** A unit against itself, played both ways: one game seen from both sides, its score exactly ½. */
  readonly mirror?: boolean;
}

export interface HeatmapOptions extends ChartOptions {
  /** What the rows and columns are, in words: "Bowmen plan", "Orc plan"; "Unit", "Opponent". */
  readonly rowTitle: string;
  readonly columnTitle: string;
  /** Colour and print the expected score (default), or P(row wins), P(draw), P(row loses). */
  readonly measure?: HeatmapMeasure;
  /** Row and column order (default: first seen). */
  readonly rows?: readonly string[];
  readonly columns?: readonly string[];
  /** How an estimate reads in the cells and the tooltip (default format.ts's estimateText): the page's table should use the same. */
  readonly text?: (estimate: EstimateLike) => string;
}

/** Up to this many columns the cells print their numbers; beyond, they would not fit a page. */
const MAX_PRINTED_COLUMNS = 12;
/** Past this width of cells (px), the legend goes under the matrix. */
const WIDE_MATRIX = 400;
/** The rows' title sits above their labels, right-aligned with them: beside long labels it could overlap them. */
const ROW_TITLE_ABOVE = { titleAngle: 0, titleAlign: 'right', titleBaseline: 'bottom', titleX: -8, titleY: -6 } as const;

/** The measures a matchup matrix prints (documents/matchup-tables.ts's list): the heatmap colours the same. */
export const HEATMAP_MEASURES = MEASURES_SHOWN;
export type HeatmapMeasure = Measure;

/**
 * How each measure is coloured: blue always means good for the row (a high score or win, a low
 * loss), red bad; a draw is neither, so it gets a neutral sequential scheme. `dark` is where the
 * cell colour is dark enough for white numbers.
 */
interface MeasureLook {
  readonly legend: readonly string[];
  readonly tip: string;
  readonly cell: string;
  readonly title: string;
  readonly scale: Readonly<Record<string, unknown>>;
  readonly dark: string;
}

const DIVERGING_DARK = 'datum.value < 0.2 || datum.value > 0.8';

const MEASURES: Readonly<Record<HeatmapMeasure, MeasureLook>> = {
  score: {
    legend: ['Expected score', '(win + ½ draw)', '(blue: the row ahead)'],
    tip: 'Expected score (win + ½ draw)',
    cell: "the row's expected score against the column: P(win) + ½ P(draw); 50% is even",
    title: 'Expected score of the row against the column',
    scale: { scheme: 'redblue', domain: [0, 1] },
    dark: DIVERGING_DARK,
  },
  win: {
    legend: ['Chance the', 'row wins', '(blue: more wins)'],
    tip: 'P(row wins)',
    cell: 'the chance the row wins against the column (a draw is not a win)',
    title: 'Chance the row wins against the column',
    scale: { scheme: 'redblue', domain: [0, 1] },
    dark: DIVERGING_DARK,
  },
  draw: {
    legend: ['Chance of', 'a draw', '(darker: more draws)'],
    tip: 'P(draw)',
    cell: 'the chance the game is a draw',
    title: 'Chance of a draw, row against column',
    scale: { scheme: 'purples', domain: [0, 1] },
    dark: 'datum.value > 0.6',
  },
  loss: {
    legend: ['Chance the', 'row loses', '(red: more losses)'],
    tip: 'P(row loses)',
    cell: 'the chance the row loses against the column',
    title: 'Chance the row loses against the column',
    scale: { scheme: 'redblue', domain: [0, 1], reverse: true },
    dark: DIVERGING_DARK,
  },
};

/** What a mirror cell's score says on hover, beside its exact 50%. */
const MIRROR_NOTE = '(the same game from both sides)';

/** "score 60% ±2 · win 55% · draw 10% · loss 35%". */
function seatText(outcome: OutcomeEstimates, text: (estimate: EstimateLike) => string): string {
  return `score ${text(outcome.score)} · win ${percentText(outcome.win.value)} · draw ${percentText(outcome.draw.value)} · loss ${percentText(outcome.loss.value)}`;
}

export function heatmapChart(cells: readonly HeatmapCell[], options: HeatmapOptions): Chart {
  const measure = options.measure ?? 'score';
  const text = options.text ?? estimateText;
  const words = MEASURES[measure];
  const bothSeats = cells.some((cell) => cell.first !== undefined && cell.second !== undefined);
  const values: Row[] = cells.map((cell) => {
    const shown = cell.combined[measure];
    return {
      row: cell.row,
      column: cell.column,
      value: shown.value,
      text: text(shown),
      score: cell.mirror === true ? `${text(cell.combined.score)} ${MIRROR_NOTE}` : text(cell.combined.score),
      win: text(cell.combined.win),
      draw: text(cell.combined.draw),
      loss: text(cell.combined.loss),
      first: cell.first === undefined ? '' : seatText(cell.first, text),
      second: cell.second === undefined ? '' : seatText(cell.second, text),
      trials: cell.combined.trials,
    };
  });
  const trials = cells.map((cell) => cell.combined.trials);
  const low = Math.min(...trials);
  const high = Math.max(...trials);
  const trialText =
    trials.length === 0
      ? 'no pairings'
      : low === high
        ? `${countText(low)} trials a cell`
        : `${countText(low)}–${countText(high)} trials a cell`;
  // Labels are never cut ("Orc Warriors (Orcs and Go…"): wide enough for the longest name.
  const longest = Math.max(0, ...values.map((row) => String(row.row).length), ...values.map((row) => String(row.column).length));
  const labelLimit = Math.max(160, Math.ceil(longest * LABEL_CHARACTER_WIDTH));
  const x = {
    field: 'column',
    type: 'nominal',
    sort: options.columns ?? inOrder(values, 'column'),
    title: options.columnTitle,
    axis: { labelAngle: -30, orient: 'bottom', labelLimit },
  };
  const y = {
    field: 'row',
    type: 'nominal',
    sort: options.rows ?? inOrder(values, 'row'),
    title: options.rowTitle,
    axis: { labelLimit, ...ROW_TITLE_ABOVE },
  };
  const tips = [
    tooltip('row', options.rowTitle),
    tooltip('column', options.columnTitle),
    tooltip('score', MEASURES.score.tip),
    tooltip('win', 'Win'),
    tooltip('draw', 'Draw'),
    tooltip('loss', 'Loss'),
    ...(bothSeats ? [tooltip('first', 'Row seated first'), tooltip('second', 'Row seated second')] : []),
    tooltip('trials', 'Trials', ',d'),
  ];
  // A large matrix cannot print its numbers legibly in a page's width: colours only, numbers on hover and in the table.
  const columns = new Set(values.map((row) => row.column)).size;
  const printed = columns <= MAX_PRINTED_COLUMNS;
  const step = printed ? 72 : 24;
  // A wide matrix keeps its legend under it, not beside: the chart then fits a laptop's results pane at a readable size.
  const legend =
    columns * step > WIDE_MATRIX
      ? { format: PERCENT_AXIS, orient: 'bottom', direction: 'horizontal', gradientLength: 240 }
      : { format: PERCENT_AXIS };
  const rect = {
    mark: { type: 'rect', stroke: 'white', strokeWidth: 1 },
    encoding: { color: { field: 'value', type: 'quantitative', title: [...words.legend], scale: words.scale, legend }, tooltip: tips },
  };
  const numbers = {
    mark: { type: 'text', fontSize: 11 },
    encoding: {
      text: { field: 'text', type: 'nominal' },
      color: { condition: { test: words.dark, value: 'white' }, value: 'black' },
      tooltip: tips,
    },
  };
  const lines = [
    `Each cell: ${words.cell}${printed ? ', ± the 95% interval in points' : ''}`,
    printed ? trialText : `${trialText}; hover a cell for its numbers (all are in the table below)`,
  ];
  return chart('heatmap', options, words.title, lines, {
    width: { step },
    height: { step: printed ? 36 : 20 },
    data: { values },
    encoding: { x, y },
    layer: printed ? [rect, numbers] : [rect],
  });
}
