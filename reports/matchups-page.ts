import { estimateText as matrixEstimateText, runsOf, situationsText } from '../documents/matchup-tables.js';
import type { MatchupsDocument } from '../documents/matchups-document.js';
import { displayNames } from './chart-kit.js';
import { countText, pointsText } from './format.js';
import { type HeatmapCell, heatmapChart, type HeatmapMeasure } from './heatmap.js';
import type { PageSection, PageTable, Provenance, ReportPage } from './page-model.js';
import { measuredCell, slugify } from './page-model.js';
import { rulesNotes } from './page-notes.js';

/**
 * The page of a `crucible matchups --json` document: the heatmap of expected score (or P(win)),
 * the matrix as a rulebook prints it, the points each entry fields, and every pairing's win, draw
 * and loss by seating. Numbers in the chart and the tables come from the same helper
 * (documents/matchup-tables.ts's estimateText, to the precision the run achieved).
 */
export interface MatchupsPageOptions {
  /** What the heatmap colours and the matrix prints: the expected score (default) or P(win). */
  readonly measure?: HeatmapMeasure;
  readonly slug?: string;
  readonly title?: string;
}

type Outcome = MatchupsDocument['cells'][number]['combined'];

const SEATING_TEXT: Record<MatchupsDocument['seating'], (trials: string) => string> = {
  both: (trials) =>
    `Seating: every pairing was played both ways — the row unit as the template's first side (side A: whatever that side does in this template — act first, charge…) and as the second — ${trials} trials each, and the two weighted equally, so neither seat is favoured. A unit against itself scores exactly 50%: it is the same game seen from both sides, so its score has no margin.`,
  first: (trials) =>
    `Seating: the row unit was always the template's first side (side A), ${trials} trials a pairing: the numbers include whatever that seat is worth.`,
  second: (trials) =>
    `Seating: the row unit was always the template's second side, ${trials} trials a pairing: the numbers include whatever that seat costs.`,
};

/** How an adaptive matrix sized each run (statistics/score-stop.ts). */
const ADAPTIVE_METHOD =
  "Each seating was stopped at its own precision (--adaptive): a lopsided pairing's score varies less than an even one's (a score s varies at most s(1 − s) a trial, and draws lower it further), so it needs fewer trials. Every 64 trials a seating checked the interval its score is printed with, and stopped once it reached no further than its share of the precision (±√2 times it, so that the mean of both seatings is within it); a pairing that may be even ran all its trials. A seating's trials are the first ones of its seed's stream: crucible run with that many trials gives the same numbers.";

const MEASURE_WORDS: Readonly<Record<HeatmapMeasure, { readonly heading: string; readonly cell: string }>> = {
  score: {
    heading: 'Expected score',
    cell: "the row unit's expected score against the column unit: P(win) + ½ P(draw), so 50% is an even match and a pairing that always ends in a draw reads 50%",
  },
  win: {
    heading: 'Chance to win',
    cell: 'the chance the row unit wins against the column unit (a draw is not a win: hover a cell for draws and losses)',
  },
  draw: { heading: 'Chance of a draw', cell: 'the chance a game of the row unit against the column unit ends in a draw' },
  loss: { heading: 'Chance to lose', cell: 'the chance the row unit loses against the column unit' },
};

/** The page's "how to read this" line, for a reader who is not a statistician (the balance page of a whole-unit roster says the same of its round robin). */
export const MATCHUPS_HOW_TO_READ =
  "Each cell is the row unit's expected score against the column unit, counting a draw as half a win: 50% is an even match, above 50% the row unit is ahead. “±2” is its 95% margin in percentage points: the true score very likely lies within 2 points of the one printed, so two cells closer than their margins may not really differ.";

/** The entries' display names, by id (a repeated name gets its id). */
function namesOf(document: MatchupsDocument): Map<string, string> {
  return displayNames(
    document.entries.map((entry) => entry.id),
    new Map(document.entries.map((entry) => [entry.id, entry.name])),
  );
}

/** "4 × 16 = 64", "1 × 50 = 50", or "×12" without a cost; a unit fielded whole, its points alone. */
function fieldedText(entry: MatchupsDocument['entries'][number], whole: boolean): string {
  if (entry.cost === undefined) return `×${entry.count}`;
  if (whole) return pointsText(entry.points ?? entry.cost);
  return `${entry.count} × ${pointsText(entry.cost)} = ${pointsText(entry.points ?? entry.count * entry.cost)}`;
}

/** The sections a matchups document makes (the balance page of a whole-unit roster reuses them). */
export function matchupSections(document: MatchupsDocument, options: MatchupsPageOptions, chartId: string): PageSection[] {
  const measure = options.measure ?? 'score';
  const names = namesOf(document);
  const name = (id: string) => names.get(id) ?? id;
  const text = (estimate: { value: number; interval: { low: number; high: number } }) => matrixEstimateText(estimate, document.precision);
  // A table cell shows the same text; its CSV gets the number and its interval's ends (page-model.ts pageTableData).
  const measured = (estimate: { value: number; interval: { low: number; high: number } }) => measuredCell(text(estimate), estimate);
  const order = document.entries.map((entry) => name(entry.id));
  // Played both ways, a unit against itself is one game seen from both sides: its score is ½ exactly.
  const isMirror = (cell: MatchupsDocument['cells'][number]) => document.seating === 'both' && cell.row === cell.column;
  const cells: HeatmapCell[] = document.cells.map((cell) => ({
    row: name(cell.row),
    column: name(cell.column),
    combined: cell.combined,
    ...(isMirror(cell) ? { mirror: true } : {}),
    ...(cell.first === undefined ? {} : { first: cell.first }),
    ...(cell.second === undefined ? {} : { second: cell.second }),
  }));
  const cellOf = (row: string, column: string) => document.cells.find((cell) => cell.row === row && cell.column === column);
  const precision = `±${(document.precision * 100).toFixed(1)} points`;
  const caption = [
    `Each cell: ${MEASURE_WORDS[measure].cell}; ± is the 95% margin in points.`,
    situationsText(document),
    SEATING_TEXT[document.seating](
      document.adaptive === true ? `up to ${countText(document.trialsPerSeat)}` : countText(document.trialsPerSeat),
    ) + (document.adaptive === true ? ' Each seating stopped once its own score was precise enough (see Methods).' : ''),
    `Every cell's expected score is within ${precision} (95%) whatever its value; seed ${document.seed}; engine ${document.engineVersion}.`,
  ]
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
  // "vs <opponent>" heads each column: the matrix reads right as a table and, on a narrow screen, as one card per row unit.
  const matrix: PageTable = {
    columns: ['Unit', ...order.map((opponent) => `vs ${opponent}`)],
    rows: document.entries.map((row) => [
      name(row.id),
      ...document.entries.map((column) => {
        const cell = cellOf(row.id, column.id);
        return cell === undefined ? '' : measured(cell.combined[measure]);
      }),
    ]),
  };
  const points = document.entries.map((entry) => entry.points).filter((value): value is number => value !== undefined);
  const unequal = points.length > 1 && Math.min(...points) !== Math.max(...points);
  // Every entry a single (whole) unit: its points are its list points, nothing to multiply.
  const whole = document.entries.every((entry) => entry.count === 1);
  const fielded: PageTable = {
    columns: ['Unit', whole ? 'Points' : 'Fielded (count × cost = points)'],
    rows: document.entries.map((entry) => [name(entry.id), fieldedText(entry, whole)]),
  };
  const seatColumns = document.seating === 'both' ? ['Score, row seated first', 'Score, row seated second'] : [];
  const pairings: PageTable = {
    columns: ['Unit', 'Opponent', 'Expected score', 'Win', 'Draw', 'Loss', ...seatColumns, 'Trials'],
    rows: document.cells.map((cell) => [
      name(cell.row),
      name(cell.column),
      measured(cell.combined.score),
      measured(cell.combined.win),
      measured(cell.combined.draw),
      measured(cell.combined.loss),
      ...(document.seating === 'both'
        ? [cell.first, cell.second].map((seat: Outcome | undefined) => (seat === undefined ? '' : measured(seat.score)))
        : []),
      cell.combined.trials,
    ]),
  };
  return [
    {
      heading: `${MEASURE_WORDS[measure].heading}, row unit against column unit`,
      text: caption,
      chart: heatmapChart(cells, {
        id: chartId,
        rowTitle: 'Unit',
        columnTitle: 'Opponent',
        rows: order,
        columns: order,
        measure,
        title: `${document.roster}: ${MEASURE_WORDS[measure].heading.toLowerCase()}`,
        text,
      }),
      table: matrix,
    },
    {
      heading: 'Points fielded',
      text: unequal
        ? `${whole ? 'Each unit is fielded whole, at its list points' : 'Whole models rarely add up to the same points'}: these sides range from ${pointsText(Math.min(...points))} to ${pointsText(Math.max(...points))} points, and every cell compares them as fielded, not at equal points.`
        : points.length > 1
          ? `Every entry fields ${pointsText(points[0] ?? 0)} points.`
          : undefined,
      table: fielded,
    },
    ...situationSection(document, name),
    {
      heading: 'Every pairing: win, draw and loss',
      text:
        document.seating === 'both'
          ? 'The combined numbers weight the two seatings equally; the last columns give the expected score in each seat.'
          : undefined,
      table: pairings,
    },
  ];
}

/** With several situations: each unit's mean expected score against the others, in each situation and over the mix. */
function situationSection(document: MatchupsDocument, name: (id: string) => string): PageSection[] {
  const situations = document.situations ?? [];
  if (situations.length < 2) return [];
  const mean = (values: readonly number[]) =>
    values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;
  const percent = (value: number) => (Number.isFinite(value) ? `${(value * 100).toFixed(0)}%` : '');
  const rows = document.entries.map((entry) => {
    const mine = document.cells.filter((cell) => cell.row === entry.id && cell.column !== entry.id);
    return [
      name(entry.id),
      ...situations.map((_, s) =>
        percent(mean(mine.flatMap((cell) => (cell.situations?.[s] === undefined ? [] : [cell.situations[s].combined.score.value])))),
      ),
      percent(mean(mine.map((cell) => cell.combined.score.value))),
    ];
  });
  return [
    {
      heading: 'By situation',
      text: `Each unit's expected score against the other units, on average, in each situation and over their mix (${situations.map((situation) => `${situation.name} ${Math.round(situation.share * 100)}%`).join(', ')}): where a unit gains or loses. The matrix above is the mix.`,
      table: { columns: ['Unit', ...situations.map((situation) => situation.name), 'Mix'], rows },
    },
  ];
}

export function matchupsPage(document: MatchupsDocument, options: MatchupsPageOptions = {}): ReportPage {
  const slug = options.slug ?? slugify(`matchups-${document.roster}`);
  const runs = runsOf(document);
  const provenance: Provenance[] = [
    {
      scenario: `${document.roster} (its template, once per ordered pairing${(document.situations?.length ?? 1) > 1 ? ' and situation' : ''})`,
      file: document.file,
      ruleset: document.ruleset,
      engineVersion: document.engineVersion,
      seed: document.seed,
      trials: document.trialsPerSeat,
      runs,
    },
  ];
  return {
    slug,
    title: options.title ?? `${document.roster}: every unit against every unit`,
    howToRead: MATCHUPS_HOW_TO_READ,
    question: document.description ?? `Which unit of “${document.roster}” beats which, counting draws, with neither seat favoured?`,
    sections: matchupSections(document, options, `${slug}-heatmap`),
    provenance,
    methods: [
      "Expected score = P(win) + ½ P(draw). A draw is any end the roster's win metric gives to neither side (a draw, or nobody beaten when the rounds ran out).",
      `Intervals are 95%: Wilson score intervals for win, draw and loss; for the expected score, Wilson's at the effective number of trials its variance allows (draws make a score less variable than a win or loss). ${countText(document.trialsInAll ?? runs * document.trialsPerSeat)} trials in all (${countText(runs)} runs of ${document.adaptive === true ? 'up to ' : ''}${countText(document.trialsPerSeat)}).`,
      ...(document.adaptive === true ? [ADAPTIVE_METHOD] : []),
      "Every run draws from its own seed, derived from the seed above and the game it plays (the situation, and each side's unit and count): the two seatings of a pairing are independent samples, and the combined interval treats them so. Each seating's seed is in the JSON document and the long table: crucible run of its scenario with it plays it again.",
      ...rulesNotes(document),
      `Made from crucible matchups --json for ${document.file}.`,
    ],
  };
}
