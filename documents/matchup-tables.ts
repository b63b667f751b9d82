import type { MatchupCell, MatchupsResult, Seating } from '../analysis/matchups.js';

/** What the tables read of a matchups result (a result, or its JSON document read back). */
export type MatchupsView = Pick<
  MatchupsResult,
  'roster' | 'entries' | 'cells' | 'precision' | 'seating' | 'trialsPerSeat' | 'seed' | 'engineVersion'
> & {
  readonly adaptive?: true | undefined;
  readonly trialsInAll?: number | undefined;
  readonly situations?:
    | readonly {
        readonly name: string;
        readonly share: number;
        readonly changes: readonly { readonly path: string; readonly value?: unknown }[];
        readonly leftOut: readonly {
          readonly change: string;
          readonly field: string;
          readonly entries: readonly { readonly id: string; readonly runs: number; readonly of: number }[];
        }[];
      }[]
    | undefined;
};

/** Runs a matchups result played: one per ordered pair of entries and situation. */
export function runsOf(result: Pick<MatchupsView, 'entries' | 'situations'>): number {
  return result.entries.length ** 2 * Math.max(1, result.situations?.length ?? 1);
}

/** "Situations (their shares of the games): charge in the open 40%, …; each cell is their mix." — empty with one situation. */
export function situationsText(result: Pick<MatchupsView, 'situations' | 'entries'>): string {
  const situations = result.situations ?? [];
  if (situations.length < 2) return '';
  const nameOf = new Map(result.entries.map((entry) => [entry.id, entry.name]));
  // Changes that read alike (a formation on either side) are said once.
  const leftOut = [
    ...new Set(
      situations.flatMap((situation) =>
        situation.leftOut.map((entry) => `in “${situation.name}”, ${leftOutText(situation, entry, nameOf)}`),
      ),
    ),
  ];
  return `Situations (their shares of the games): ${situations.map((situation) => `${situation.name} ${Math.round(situation.share * 100)}%`).join(', ')}; each cell is their mix.${leftOut.length === 0 ? '' : ` ${capitalised(leftOut.join('; '))}.`}`;
}

const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

type PlayedView = NonNullable<MatchupsView['situations']>[number];

/**
 * "position defended was left out for Knights and Reavers, which cannot take it, and for Sylvan
 * Knight in 22 of its 160 games (it cannot at some counts)": names, not ids; the change in words,
 * not its path. Those games play the rest of the situation.
 */
export function leftOutText(
  situation: PlayedView,
  entry: PlayedView['leftOut'][number],
  nameOf: ReadonlyMap<string, string>,
  most = Infinity,
): string {
  const value = situation.changes.find((change) => change.path === entry.change)?.value;
  const list = (names: readonly string[]) =>
    names.length > most
      ? `${names.slice(0, most).join(', ')} and ${names.length - most} more`
      : names.length > 1
        ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
        : (names[0] ?? '');
  const always = entry.entries.filter((count) => count.runs === count.of).map((count) => nameOf.get(count.id) ?? count.id);
  const sometimes = entry.entries
    .filter((count) => count.runs < count.of)
    .map((count) => `${nameOf.get(count.id) ?? count.id} in ${count.runs} of its ${count.of} games`);
  const parts = [
    ...(always.length === 0 ? [] : [`${list(always)}, which cannot take it`]),
    ...(sometimes.length === 0 ? [] : [`${list(sometimes)} (it cannot at some counts)`]),
  ];
  return `${changeWords(entry.field, value)} was left out for ${parts.join(', and for ')}: those games play the rest of the situation`;
}

/** How many trials each seating had: the same for all, or (adaptive) up to the worst case's, each stopped at its precision. */
export function trialsText(result: MatchupsView): string {
  const most = thousands(result.trialsPerSeat);
  if (result.adaptive !== true) return `${most} trials per seating`;
  const inAll = result.trialsInAll === undefined ? '' : `, ${thousands(result.trialsInAll)} in all`;
  return `Up to ${most} trials per seating, each stopped once its own score was precise enough${inAll}`;
}
import type { Estimate, Outcome } from '../statistics/outcome.js';
import { changeWords } from '../input/situations.js';
import { rulebookPercent } from './tables.js';
import type { Cell, Column, DataTable, Shown } from './table-model.js';

/**
 * A matchup matrix for print: wide (one row per unit, one column per opponent — what a rulebook
 * table and a spreadsheet want) or long (one row per pairing and seating), names rather than ids,
 * numbers rounded to the precision the run achieved, and a caption saying what a cell means.
 */
export const MEASURES = ['score', 'win', 'draw', 'loss'] as const;
export type Measure = (typeof MEASURES)[number];

const MEASURE_WORDS: Record<Measure, string> = {
  score: 'expected score (P(win) + ½ P(draw))',
  win: 'P(win)',
  draw: 'P(draw)',
  loss: 'P(loss)',
};

/** Seats are the template's sides: what the first does (acts first, charges…) is the template's, so the words stay neutral. */
const SEATING_WORDS: Record<Seating, string> = {
  both: "the mean of the row unit in the template's first side (side A) and in its second (side B), weighted equally",
  first: "the row unit always in the template's first side (side A)",
  second: "the row unit always in the template's second side (side B)",
};

/** Decimal places of a probability that a ±precision estimate deserves (±0.01 → 2: whole percent). */
export function probabilityDecimals(precision: number): number {
  return Math.max(2, Math.ceil(-Math.log10(precision)));
}

const roundTo = (value: number, decimals: number): number => Number(value.toFixed(decimals));

function cellOf(result: MatchupsView, row: string, column: string): MatchupCell | undefined {
  return result.cells.find((cell) => cell.row === row && cell.column === column);
}

/** The measure in a CSV header: plain ASCII words. */
const MEASURE_NAMES: Record<Measure, string> = { score: 'expected score', win: 'P(win)', draw: 'P(draw)', loss: 'P(loss)' };

export const MATCHUP_LAYOUTS = ['wide', 'long'] as const;
export type MatchupLayout = (typeof MATCHUP_LAYOUTS)[number];

/**
 * The matchups table: `wide`, the matrix (one row per unit, one column per opponent; each cell the
 * row unit's measure — printed `56% ±2`, in CSV and JSON the number alone, rounded to the precision
 * the run achieved), or `long` (one row per pairing, situation and seating, every measure and the
 * score's interval, and each run's seed).
 */
export function matchupTable(result: MatchupsView, measure: Measure, layout: MatchupLayout): DataTable {
  return layout === 'wide' ? matrixTable(result, measure) : longTable(result, measure);
}

function matrixTable(result: MatchupsView, measure: Measure): DataTable {
  const decimals = probabilityDecimals(result.precision);
  const columns: Column[] = [
    {
      name: `row unit vs column: ${MEASURE_NAMES[measure]}`,
      heading: 'row \\ column',
      description: `the row unit; each other column is its ${MEASURE_WORDS[measure]} against that column's unit`,
    },
    ...result.entries.map(
      (entry): Column => ({ name: entry.name, description: `the row unit's ${MEASURE_WORDS[measure]} against ${entry.name}` }),
    ),
  ];
  const rows = result.entries.map((row): Cell[] => [
    row.name,
    ...result.entries.map((column): Cell => {
      const cell = cellOf(result, row.id, column.id);
      if (cell === undefined) return null;
      const estimate = cell.combined[measure];
      return {
        value: roundTo(estimate.value, decimals),
        text: estimateText(estimate, result.precision),
        low: estimate.interval.low,
        high: estimate.interval.high,
      };
    }),
  ]);
  return { title: matchupCaption(result, measure), columns, rows, notes: [matchupLegend(result, measure)] };
}

/** `56% ±2` — or `56.3% ±0.4` when the run is precise enough to print a decimal. */
export function estimateText(estimate: Estimate, precision: number): string {
  const half = Math.max(estimate.value - estimate.interval.low, estimate.interval.high - estimate.value) * 100;
  if (precision >= 0.01 || half === 0) return rulebookPercent(estimate.value, estimate.interval);
  const decimals = probabilityDecimals(precision) - 2;
  return `${(estimate.value * 100).toFixed(decimals)}% ±${(Math.ceil(half * 10 ** decimals) / 10 ** decimals).toFixed(decimals)}`;
}

/** Long form: one row per pairing and seating (and the combined row), every measure with the score's interval. */
function longTable(result: MatchupsView, measure: Measure): DataTable {
  const decimals = probabilityDecimals(result.precision);
  const probability = (value: number): Shown => ({
    value: Number(value.toFixed(decimals)),
    text: `${(value * 100).toFixed(decimals - 2)}%`,
  });
  const nameOf = new Map(result.entries.map((entry) => [entry.id, entry.name]));
  const several = (result.situations?.length ?? 1) > 1;
  const columns: Column[] = [
    { name: 'unit' },
    { name: 'opponent' },
    ...(several ? [{ name: 'situation', description: 'the situation played, or "all (mix)": their mix by share' }] : []),
    { name: 'seating', description: "the unit in the template's first side (A), its second (B), or both (the mean of the two)" },
    { name: 'P(win)' },
    { name: 'P(draw)' },
    { name: 'P(loss)' },
    { name: 'expected score', description: 'P(win) + 1/2 P(draw)' },
    { name: 'score 95% low' },
    { name: 'score 95% high' },
    { name: 'trials' },
    { name: 'seed', description: "the run's own seed: `crucible run` of its seated scenario with it plays it again" },
  ];
  const rows: Cell[][] = [];
  const push = (cell: MatchupCell, situation: string, seating: string, outcome: Outcome | undefined) => {
    if (outcome === undefined) return;
    rows.push([
      nameOf.get(cell.row) ?? cell.row,
      nameOf.get(cell.column) ?? cell.column,
      ...(several ? [situation] : []),
      seating,
      probability(outcome.win.value),
      probability(outcome.draw.value),
      probability(outcome.loss.value),
      probability(outcome.score.value),
      probability(outcome.score.interval.low),
      probability(outcome.score.interval.high),
      outcome.trials,
      outcome.seed ?? null,
    ]);
  };
  for (const cell of result.cells) {
    for (const situation of several ? (cell.situations ?? []) : [{ situation: '', ...cell }]) {
      push(cell, situation.situation, 'unit in side A', situation.first);
      push(cell, situation.situation, 'unit in side B', situation.second);
      if (result.seating === 'both') push(cell, situation.situation, 'both (mean)', situation.combined);
    }
    if (several && result.seating === 'both') push(cell, 'all (mix)', 'both (mean)', cell.combined);
  }
  return {
    title: `${result.roster}: every pairing and seating, win/draw/loss and expected score`,
    columns,
    rows,
    notes: [matchupLegend(result, measure, true)],
  };
}

function thousands(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** The caption: what the table is. */
export function matchupCaption(result: MatchupsView, measure: Measure): string {
  return `${result.roster}: the row unit's ${MEASURE_WORDS[measure]} against the column unit`;
}

/** The legend: what a cell means, seating, trials, seed, engine, and the points each entry fields. */
export function matchupLegend(result: MatchupsView, measure: Measure, long = false): string {
  const points = result.entries
    .map((entry) =>
      entry.cost === undefined
        ? `${entry.name} ×${entry.count}`
        : entry.count === 1
          ? `${entry.name} ${thousands(entry.cost)}`
          : `${entry.name} ${entry.count} × ${entry.cost} = ${thousands(entry.points ?? 0)}`,
    )
    .join('; ');
  return [
    long
      ? `Each row: the unit's P(win), P(draw), P(loss) and expected score against the opponent, with the score's 95% interval, in one seating (the unit in the template's first or second side) or both (${SEATING_WORDS.both}).`
      : `Each cell: the row unit's ${MEASURE_WORDS[measure]} against the column unit, in percent ± the 95% margin; ${SEATING_WORDS[result.seating]}.`,
    situationsText(result),
    `${trialsText(result)} (every combined score within ±${(result.precision * 100).toFixed(1)} points); seed ${result.seed}, each run on its own seed derived from it and the game; engine ${result.engineVersion}.`,
    `Points fielded: ${points}.`,
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}
