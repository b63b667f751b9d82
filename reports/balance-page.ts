import type { ColumnTable } from 'arquero';
import type { BalanceDocument } from '../analysis/balance-document.js';
import { costRange, countCostsTable, perCountTable, perOpponentTable, wholeCostsTable } from '../analysis/balance-tables.js';
import { balanceCurveChart, type CostPoint, costScatterChart, type CostVerdict } from './charts.js';
import { countText, pointsText } from './format.js';
import type { HeatmapMeasure } from './heatmap.js';
import { matchupSections } from './matchups-page.js';
import type { PageSection, PageTable, Provenance, ReportPage } from './page-model.js';
import { slugify } from './page-model.js';
import { rulesNotes } from './page-notes.js';

/**
 * The page of a `crucible balance --json` document. Fielded by count: for each unit, its expected
 * score against the roster by models fielded with the fitted curve, the ½ line and the fair count,
 * and its per-count and per-opponent tables (analysis/balance-tables.ts, as `--out` writes them);
 * with several units, their costs ranked and drawn published against fitted. Fielded whole: the
 * published against fitted costs with the verdicts the fit gave, the strengths, and the round
 * robin they were fitted from.
 */
export interface BalancePageOptions {
  readonly slug?: string;
  readonly title?: string;
  readonly measure?: HeatmapMeasure;
}

type ByCount = Extract<BalanceDocument, { fielded: 'by-count' }>;
type Whole = Extract<BalanceDocument, { fielded: 'whole' }>;
type CountResult = ByCount['results'][number];

/** An arquero table of analysis/balance-tables.ts as a page table (same columns, same texts). */
function pageTable(table: ColumnTable): PageTable {
  const columns = table.columnNames();
  return { columns, rows: (table.objects() as Record<string, unknown>[]).map((row) => columns.map((column) => (typeof row[column] === 'number' ? (row[column] as number) : String(row[column] ?? '')))) };
}

const logistic = (z: number): number => 1 / (1 + Math.exp(-z));

/**
 * The fitted curve at counts between the measured ones, drawn like the measured points: the mean
 * over the opponents, each fielding its own points, of logit sₒ = αₒ + β·ln(k / Pₒ).
 */
function fittedCurve(result: CountResult): { x: number; score: number }[] | undefined {
  const { fit } = result;
  const counts = result.curve.map((point) => point.count);
  if (fit === undefined || counts.length === 0 || fit.intercepts.length === 0) return undefined;
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  const steps = 60;
  return Array.from({ length: steps + 1 }, (_, i) => {
    // Evenly spaced in ln(count), as the model is: smooth on a log axis and a linear one alike.
    const x = low * (high / low) ** (i / steps);
    const score = fit.intercepts.reduce((sum, { alpha, opponentPoints }) => sum + logistic(alpha + fit.beta * Math.log(x / opponentPoints)), 0) / fit.intercepts.length;
    return { x, score };
  });
}

/** Published outside the fitted cost's interval: the fit's own verdict. */
function countVerdict(result: CountResult): CostVerdict | undefined {
  if (result.publishedCost === undefined || result.fairCost === undefined || result.costInterval === undefined) return undefined;
  if (result.publishedCost > (result.costInterval.high ?? Infinity)) return 'over-costed';
  if (result.publishedCost < result.costInterval.low) return 'under-costed';
  return 'fair';
}

/** The published costs' range, which decides where an interval's end is beyond what the data can bound (analysis/balance-tables.ts's costRange). */
function publishedRange(costs: readonly (number | undefined)[]): { cheapest: number; dearest: number } {
  const known = costs.filter((cost): cost is number => cost !== undefined && cost > 0);
  return known.length === 0 ? { cheapest: 1, dearest: 1 } : { cheapest: Math.min(...known), dearest: Math.max(...known) };
}

/** An interval as the tables print it: "[12.3, 45.6]", "53.4 – any price". */
function rangeTextFor(costs: readonly (number | undefined)[]): (low: number, high: number) => string {
  const { cheapest, dearest } = publishedRange(costs);
  return (low, high) => costRange(low, Number.isFinite(high) ? high : null, cheapest, dearest);
}

function costSentence(result: CountResult): string {
  if (result.fairCost === undefined) return `${result.name}: no fair cost found${result.problem === undefined ? '' : ` — ${result.problem}`}.`;
  const range = rangeTextFor([result.publishedCost]);
  const interval = result.costInterval === undefined ? '' : ` ${range(result.costInterval.low, result.costInterval.high ?? Infinity)}`;
  const verdict = countVerdict(result);
  const published = result.publishedCost === undefined ? '' : `; published ${pointsText(result.publishedCost)}${verdict === undefined ? '' : `: ${verdict === 'fair' ? 'within the interval, fair' : verdict}`}`;
  return `${result.name}: fair cost ${result.fairCost.toFixed(1)} points${interval} (95%)${published}.`;
}

function countSections(document: ByCount, slug: string): PageSection[] {
  const sections: PageSection[] = [];
  if (document.results.length > 1) {
    const points: CostPoint[] = document.results.flatMap((result) => {
      const verdict = countVerdict(result);
      if (verdict === undefined || result.fairCost === undefined || result.publishedCost === undefined || result.costInterval === undefined) return [];
      return [{ id: result.unit, name: result.name, published: result.publishedCost, fitted: result.fairCost, low: result.costInterval.low, high: result.costInterval.high ?? Infinity, verdict }];
    });
    sections.push({
      heading: 'Fitted costs, ranked',
      text: 'Each unit fitted on its own: over-costed when its published cost is above the fitted cost\'s 95% interval, under-costed when below.',
      chart: points.length === 0 ? undefined : costScatterChart(points, { id: `${slug}-cost-scatter`, xTitle: 'Published cost (points per model)', yTitle: 'Fitted cost (points per model)', rangeText: rangeTextFor(document.results.map((result) => result.publishedCost)) }),
      table: pageTable(countCostsTable(document)),
    });
  }
  document.results.forEach((result, i) => {
    const fitted = fittedCurve(result);
    // The bisection may try counts far apart (1 … 60): a log axis keeps the counts near the fair one apart.
    const counts = result.curve.map((point) => point.count);
    const logX = counts.length > 1 && Math.max(...counts) / Math.min(...counts) > 8;
    const fair = result.fairCount === undefined || result.fairCost === undefined ? undefined : { x: result.fairCount, label: `fair: ${result.fairCount.toFixed(2)} models (${result.fairCost.toFixed(1)} points each)` };
    const chart = balanceCurveChart(
      {
        points: result.curve.map((point) => ({ x: point.count, score: point.score.value, low: point.score.interval.low, high: point.score.interval.high, trials: point.trials, ...(result.publishedCost === undefined ? {} : { note: `${point.count} × ${pointsText(result.publishedCost)} = ${pointsText(point.count * result.publishedCost)} points at the published cost` }) })),
        ...(fitted === undefined ? {} : { fitted }),
        xTitle: `Models of ${result.name} fielded${logX ? ' (log scale)' : ''}`,
        xNote: `each opponent fields what ${pointsText(document.budget)} points buy at its published cost`,
        integerX: true,
        logX,
        targetLabel: '½: an even match',
        ...(fair === undefined ? {} : { fair }),
      },
      { id: `${slug}-curve-${i + 1}`, title: `${result.name}: expected score by models fielded` },
    );
    const opponents = result.opponents.map((opponent) => `${opponent.name} ${opponent.count} (${pointsText(opponent.points)} points)`).join(', ');
    const dispersion = result.fit === undefined ? '' : ` The curves fit the measured scores ${result.fit.dispersion > 2 ? 'loosely' : 'closely'} (dispersion ${result.fit.dispersion.toFixed(1)}; 1 is simulation noise alone; the interval allows for it).`;
    sections.push(
      {
        heading: result.name,
        text: `${costSentence(result)}\n\nThe opponents field what ${pointsText(document.budget)} points buy at their published costs: ${opponents}. The fit: a curve per opponent sharing one slope, logit(score) = αₒ + β·ln(models ÷ the opponent's points); the line is their average, each opponent met at its own points.${dispersion}`,
        chart,
        table: pageTable(perCountTable(document, result.unit)),
      },
      { heading: `${result.name}: by opponent`, text: `Expected score against each opponent at each count measured (${document.seating === 'both' ? 'both seatings, weighted equally' : `the unit seated ${document.seating}`}), and the cost that opponent alone implies.`, table: pageTable(perOpponentTable(document, result.unit)) },
    );
  });
  return sections;
}

function wholeSections(document: Whole, slug: string, options: BalancePageOptions): PageSection[] {
  // A unit without a fitted cost (the line does not rise with points) cannot be placed on the chart: the table and the text name it.
  const points: CostPoint[] = document.units.flatMap((unit) => (unit.fittedCost === null ? [] : [{ id: unit.id, name: unit.name, published: unit.points, fitted: unit.fittedCost, low: unit.costInterval.low, high: unit.costInterval.high ?? Infinity, verdict: unit.verdict }]));
  const unplaced = document.units.filter((unit) => unit.fittedCost === null).map((unit) => unit.name);
  const called = document.units.filter((unit) => unit.verdict !== 'fair');
  return [
    {
      heading: 'Published against fitted costs',
      text: [
        `Every unit fielded whole at its published points, in a round robin (both seatings); a strength per unit fitted from the wins, draws and losses (Bradley–Terry with draws, Davidson's model, with a first-seat advantage), and strength regressed on ln(points). A unit is called over- or under-costed only when its strength lies outside the 95% prediction interval of the line fitted to the others: ${called.length === 0 ? 'none is' : `${called.length} of ${document.units.length} are`}.`,
        document.converged ? '' : 'The strength fit did not converge: treat these numbers with suspicion.',
        unplaced.length === 0 ? '' : `No cost can be read off the line for ${unplaced.join(', ')} (strength does not rise with points): not drawn.`,
      ].filter((paragraph) => paragraph !== '').join('\n\n'),
      chart: points.length === 0 ? undefined : costScatterChart(points, { id: `${slug}-cost-scatter`, xTitle: 'Published cost (points per unit)', yTitle: 'Fitted cost (points per unit)', rangeText: rangeTextFor(document.units.map((unit) => unit.points)) }),
      table: pageTable(wholeCostsTable(document)),
    },
    ...matchupSections(document.matchups, { ...(options.measure === undefined ? {} : { measure: options.measure }) }, `${slug}-heatmap`).map((section) => ({ ...section, heading: `Round robin: ${section.heading.charAt(0).toLowerCase()}${section.heading.slice(1)}` })),
  ];
}

export function balancePage(document: BalanceDocument, options: BalancePageOptions = {}): ReportPage {
  const slug = options.slug ?? slugify(`balance-${document.roster}${document.fielded === 'by-count' && document.results.length === 1 ? `-${document.results[0]?.unit ?? ''}` : ''}`);
  const sections = document.fielded === 'whole' ? wholeSections(document, slug, options) : countSections(document, slug);
  const trials = document.fielded === 'whole' ? document.matchups.trialsPerSeat : undefined;
  const provenance: Provenance[] =
    document.fielded === 'whole'
      ? [{ scenario: `${document.roster} (its template, once per ordered pairing)`, file: document.file, ruleset: document.ruleset, engineVersion: document.engineVersion, seed: document.matchups.seed, trials: trials ?? 0, runs: document.matchups.entries.length ** 2 }]
      : document.results.map((result) => ({ scenario: `${document.roster} (its template)`, variant: `${result.name} at each count measured`, file: document.file, ruleset: result.ruleset, engineVersion: result.engineVersion, seed: result.seed, trials: result.trials }));
  const unit = document.fielded === 'by-count' && document.results.length === 1 ? document.results[0]?.name : undefined;
  return {
    slug,
    title: options.title ?? (unit === undefined ? `${document.roster}: fitted costs` : `${unit}: fitted cost against ${document.roster}`),
    question: unit === undefined ? `What should each unit of “${document.roster}” cost, and which published costs are off?` : `What should ${unit} cost against “${document.roster}”?`,
    sections,
    provenance,
    methods: [
      'Expected score = P(win) + ½ P(draw), each pairing played in both seatings with equal trials unless the seating says otherwise.',
      document.fielded === 'by-count'
        ? `Seating: ${document.seating}. A coarse bisection first finds roughly where the score crosses ½, then the counts around it are measured to within ±${(document.precision * 100).toFixed(1)} points (95%); every count measured, the bisection's too, enters the fit. Each opponent fields what ${pointsText(document.budget)} points buy at its published cost.`
        : `Seating: ${document.seating}; every score within ±${(document.precision * 100).toFixed(1)} points (95%).`,
      document.fielded === 'by-count'
        ? "Fair cost: the c at which the unit's average fitted score over the opponents, each met at equal points, is ½; fitted by quasi-likelihood on every count measured; its 95% interval covers the simulation noise and, when the curves fit more loosely than that, their misfit (docs/statistics.md)."
        : `Regression of strength on ln(points): slope ${document.regression.slope.toFixed(3)} [${document.regression.slopeInterval.low.toFixed(3)}, ${document.regression.slopeInterval.high.toFixed(3)}], residual sd ${document.regression.residualSd.toFixed(3)} (${countText(document.regression.degreesOfFreedom)} df); draw parameter ${document.drawParameter.toFixed(3)}; first-seat advantage ${document.seatAdvantage.toFixed(3)} ± ${(1.96 * document.seatAdvantageStandardError).toFixed(3)}.`,
      ...rulesNotes(document),
      `Made from crucible balance --json for ${document.file}.`,
    ],
  };
}
