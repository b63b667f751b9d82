import type { BalanceDocument, CountBalanceDocument, WholeBalanceDocument } from '../documents/balance-document.js';
import {
  checkFinding,
  costRange,
  costText,
  curveTable,
  publishedRange,
  medianIntervalWidth,
  opponentTable,
  priceList,
  priceListLegend,
  situationTable,
  verdictCounts,
} from '../documents/balance-tables.js';
import { leftOutText, runsOf } from '../documents/matchup-tables.js';
import { toleranceText } from '../analysis/price-verdict.js';
import { balanceCurveChart, type CostPoint, costScatterChart } from './charts.js';
import { countText, pointsText } from './format.js';
import type { HeatmapMeasure } from './heatmap.js';
import { matchupSections } from './matchups-page.js';
import type { PageSection, PageTable, Provenance, ReportPage } from './page-model.js';
import { slugify } from './page-model.js';
import { type DataTable, printColumns } from '../documents/table-model.js';
import { rulesNotes } from './page-notes.js';

/**
 * The page of a `crucible balance --json` document: the price list (published against proposed
 * costs, with intervals and verdicts, and the table a designer hands over), each unit's deserved
 * cost by situation, and the check — the proposed prices played again (by count), or pairings held
 * out of the fit predicted (fielded whole, with the round robin they came from). One unit priced by
 * count adds its score curve and its price against each opponent alone.
 */
export interface BalancePageOptions {
  readonly slug?: string;
  readonly title?: string;
  readonly measure?: HeatmapMeasure;
}

/** A table of documents/balance-tables.ts as a page table (the columns and texts the terminal prints). */
function pageTable(table: DataTable): PageTable {
  const columns = printColumns(table);
  return {
    columns: columns.map((column) => column.heading),
    rows: (columns[0]?.raw ?? []).map((_, r) => columns.map((column) => column.raw[r] ?? '')),
  };
}

/** The page's "how to read this" line, for a reader who is not a statistician. */
export const BALANCE_HOW_TO_READ =
  'The proposed cost is the price at which a unit would be an even match (an expected score of 50%) for the rest of the list. Its 95% interval is the range the right price very likely lies in, given the dice rolled. A unit is under- or over-costed when its published cost lies outside that interval by more than the tolerance; fair when the whole interval lies within the tolerance of it; uncertain when more games would be needed to tell.';

function rangeTextFor(document: BalanceDocument): (low: number, high: number) => string {
  const { cheapest, dearest } = publishedRange(document);
  return (low, high) => costRange(low, Number.isFinite(high) ? high : null, cheapest, dearest);
}

const unitWord = (document: BalanceDocument): string => (document.fielded === 'by-count' ? 'points per model' : 'points per unit');

function summary(document: BalanceDocument): string {
  const counts = verdictCounts(document);
  const width = medianIntervalWidth(document);
  // A unit without a verdict has no price at all (its score never crossed ½, or the list's line is flat): counted, not left out.
  const unpriced = document.units.filter((unit) => unit.verdict === undefined).length;
  const named = (verdict: 'under-costed' | 'over-costed') =>
    document.units
      .filter((unit) => unit.verdict === verdict)
      .map((unit) => `${unit.name} ${unit.published} → ${costText(unit.deserved ?? Number.NaN)}`)
      .join('; ');
  return [
    `At a tolerance of ${toleranceText(document.tolerance)}: ${counts['under-costed']} under-costed, ${counts['over-costed']} over-costed, ${counts.uncertain} uncertain and ${counts.fair} fair${unpriced === 0 ? '' : `, ${unpriced} without a price (see the table's note)`}, of ${document.units.length}.${width === undefined ? '' : ` The median 95% interval spans ${width.toFixed(0)}% of the proposed cost.`}`,
    counts['under-costed'] > 0 ? `Under-costed (published → proposed): ${named('under-costed')}.` : '',
    counts['over-costed'] > 0 ? `Over-costed: ${named('over-costed')}.` : '',
  ]
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

function priceListSection(document: BalanceDocument, slug: string): PageSection {
  const points: CostPoint[] = document.units.flatMap((unit) =>
    unit.deserved === undefined || unit.interval === undefined || unit.verdict === undefined
      ? []
      : [
          {
            id: unit.id,
            name: unit.name,
            published: unit.published,
            fitted: unit.deserved,
            low: unit.interval.low,
            high: unit.interval.high ?? Infinity,
            verdict: unit.verdict,
          },
        ],
  );
  return {
    heading: 'The price list',
    text: summary(document),
    // One unit has nothing to set its price beside: the table says it all.
    chart:
      points.length < 2
        ? undefined
        : costScatterChart(points, {
            id: `${slug}-cost-scatter`,
            xTitle: `Published cost (${unitWord(document)})`,
            yTitle: `Proposed cost (${unitWord(document)})`,
            rangeText: rangeTextFor(document),
          }),
    table: pageTable(priceList(document)),
  };
}

function situationSection(document: BalanceDocument): PageSection | undefined {
  if (document.situations.length < 2) return undefined;
  const nameOf = new Map<string, string>(document.units.map((unit) => [unit.id, unit.name]));
  if (document.fielded === 'by-count') for (const entry of document.entries) nameOf.set(entry.id, entry.name);
  else for (const entry of document.matchups.entries) nameOf.set(entry.id, entry.name);
  // One paragraph a situation, its name quoted: they start in lower case.
  const described = document.situations.map((situation) => {
    const leftOut = [...new Set(situation.leftOut.map((entry) => leftOutText(situation, entry, nameOf)))].join('; ');
    return `“${situation.name}”, ${Math.round(situation.share * 100)}% of the games${situation.description === undefined ? '' : `: ${situation.description}`}${leftOut === '' ? '' : `. In it, ${leftOut}`}.`;
  });
  const sensitive = document.units.filter((unit) => unit.mixSensitive === true).map((unit) => unit.name);
  return {
    heading: 'By situation',
    text: [
      'Every pairing was played in each situation, and the price list weighs them by their shares:',
      ...described,
      sensitive.length === 0
        ? "No unit's deserved cost moves by more than twice the tolerance from one situation to another: the list does not hang on the mix."
        : `Depends on the mix (deserved costs more than twice the tolerance apart between situations): ${sensitive.join(', ')}. Their right price depends on how often each situation happens in play.`,
    ].join('\n\n'),
    table: pageTable(situationTable(document)),
  };
}

function countCheckSection(document: CountBalanceDocument): PageSection | undefined {
  if (document.check === undefined) return undefined;
  const scores = document.units.flatMap((unit) => (unit.check === undefined ? [] : [unit.check.score.value]));
  const farthest = scores.length === 0 ? 0 : Math.max(...scores.map((score) => Math.abs(score - 0.5)));
  return {
    heading: 'The check: the proposed prices played again',
    text: `Every ${document.scope === 'list' ? 'unit at its proposed price against every other at its own' : 'proposed price against the others at their published costs'}, on fresh dice (seed ${document.check.seed}), at equal points; the farthest replayed score lies ${(farthest * 100).toFixed(1)} points from ½. ${checkFinding(document)} The replayed scores are the price list's last column.`,
  };
}

function unitSections(document: CountBalanceDocument, slug: string): PageSection[] {
  if (document.scope !== 'unit') return [];
  return document.units.flatMap((unit, i) => {
    const counts = unit.curve.map((point) => point.count);
    const logX = counts.length > 1 && Math.max(...counts) / Math.min(...counts) > 8;
    const fair =
      unit.count === undefined || unit.deserved === undefined
        ? undefined
        : { x: unit.count, label: `even: ${unit.count.toFixed(2)} models (${costText(unit.deserved)} points each)` };
    const chart = balanceCurveChart(
      {
        points: unit.curve.map((point) => ({
          x: point.count,
          score: point.score.value,
          low: point.score.interval.low,
          high: point.score.interval.high,
          note: `${point.count} × ${pointsText(unit.published)} = ${pointsText(point.count * unit.published)} points at the published cost${point.fine ? '' : ' (coarse, while searching)'}`,
        })),
        xTitle: `Models of ${unit.name} fielded${logX ? ' (log scale)' : ''}`,
        xNote: `each opponent fields ${pointsText(document.budget)} points at its published cost, on average`,
        integerX: true,
        logX,
        targetLabel: '½: an even match',
        ...(fair === undefined ? {} : { fair }),
      },
      { id: `${slug}-curve-${i + 1}`, title: `${unit.name}: expected score against the list by models fielded` },
    );
    return [
      {
        heading: `${unit.name}: score by models fielded`,
        text: `Points joined by a line: no curve is fitted. Between two whole counts the score is exactly the line (a side that fields 3.6 models on average fields 4 in 60% of games and 3 in 40%).`,
        chart,
        table: pageTable(curveTable(document, unit.id)),
      },
      {
        heading: `${unit.name}: against each opponent alone`,
        text: `The models it needs for an even game against each opponent alone, and the price that makes that many equal points; "wins at 1 model" or "loses at" the most measured when no count is even. These searches run at the coarse precision (±${(Math.min(0.45, 3 * document.precision) * 100).toFixed(0)} points).`,
        table: pageTable(opponentTable(document, unit.id)),
      },
    ];
  });
}

function wholeCheckSection(document: WholeBalanceDocument): PageSection {
  const { heldOut } = document;
  const name = (id: string) => document.matchups.entries.find((entry) => entry.id === id)?.name ?? id;
  const worst = heldOut.worst
    .map(
      (pairing) =>
        `${name(pairing.row)} against ${name(pairing.column)}: predicted ${(pairing.predicted * 100).toFixed(0)}%, played ${(pairing.played * 100).toFixed(0)}%`,
    )
    .join('; ');
  return {
    heading: 'The check: pairings held out of the fit',
    text: `A new price changes no game of units fielded whole, so the model is checked instead. Each pairing's expected score was predicted from strengths fitted without it (${heldOut.folds} folds) and compared with the score it played: off by ±${(heldOut.rmsError * 100).toFixed(1)} points (root mean square over ${countText(heldOut.pairings)} pairings), where the simulation noise alone would give ±${(heldOut.rmsNoise * 100).toFixed(1)}. ${heldOut.rmsError > 3 * heldOut.rmsNoise ? 'The difference is the model\'s: strengths do not capture every matchup (one unit may counter another whatever their strengths); the "Model error" column says for whom most.' : 'The strengths capture the matchups to within noise.'} Worst: ${worst}.`,
  };
}

export function balancePage(document: BalanceDocument, options: BalancePageOptions = {}): ReportPage {
  const one = document.fielded === 'by-count' && document.scope === 'unit' ? document.units[0] : undefined;
  const slug = options.slug ?? slugify(`balance-${document.roster}${one === undefined ? '' : `-${one.id}`}`);
  const sections: PageSection[] = [priceListSection(document, slug)];
  const bySituation = situationSection(document);
  if (bySituation !== undefined) sections.push(bySituation);
  if (document.fielded === 'by-count') {
    const check = countCheckSection(document);
    if (check !== undefined) sections.push(check);
    sections.push(...unitSections(document, slug));
  } else {
    sections.push(wholeCheckSection(document));
    sections.push(
      ...matchupSections(
        document.matchups,
        { ...(options.measure === undefined ? {} : { measure: options.measure }) },
        `${slug}-heatmap`,
      ).map((section) => ({ ...section, heading: `Round robin: ${section.heading.charAt(0).toLowerCase()}${section.heading.slice(1)}` })),
    );
  }
  const provenance: Provenance[] =
    document.fielded === 'whole'
      ? [
          {
            scenario: `${document.roster} (its template, once per ordered pairing and situation)`,
            file: document.file,
            ruleset: document.ruleset,
            engineVersion: document.engineVersion,
            seed: document.matchups.seed,
            trials: document.matchups.trialsPerSeat,
            runs: runsOf(document.matchups),
          },
        ]
      : document.runsBy.map((entry) => ({
          scenario: `${document.roster} (its template, at each pair of counts measured)`,
          variant:
            entry.purpose === 'search'
              ? 'the search: coarse runs'
              : entry.purpose === 'answer'
                ? 'the answer: fine runs where the prices lie'
                : 'the check: the proposed prices replayed',
          file: document.file,
          ruleset: document.ruleset,
          engineVersion: document.engineVersion,
          seed: entry.purpose === 'check' && document.check !== undefined ? document.check.seed : document.seed,
          trials: entry.trials,
          runs: entry.runs,
        }));
  return {
    slug,
    title:
      options.title ?? (one === undefined ? `${document.roster}: a price list` : `${one.name}: what it should cost in ${document.roster}`),
    howToRead: BALANCE_HOW_TO_READ,
    question:
      one === undefined
        ? `What should each unit of “${document.roster}” cost, and which published costs are off?`
        : `What should ${one.name} cost against “${document.roster}” as published?`,
    sections,
    provenance,
    methods: [
      'Expected score = P(win) + ½ P(draw); every pairing played in both seatings (each side first) and every situation, each run on its own seed derived from the analysis seed and the game.',
      ...priceListLegend(document),
      document.fielded === 'whole'
        ? `Strengths: Bradley–Terry with draws (Davidson's model) with a first-seat advantage ${document.seatAdvantage.toFixed(3)} ± ${(1.96 * document.seatAdvantageStandardError).toFixed(3)} and draw parameter ${document.drawParameter.toFixed(3)}; the cost line by Huber's M-estimator, each unit priced against the line through the others (docs/statistics.md).`
        : 'Prices solve the equal-points conditions from measured scores alone (a coarse search, then fine runs at the counts where the answer lies); intervals by the delta method through those conditions (docs/statistics.md).',
      ...rulesNotes(document),
      `Made from crucible balance --json for ${document.file}.`,
    ],
  };
}
