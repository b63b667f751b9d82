import type { BalanceDocument, CountBalanceDocument, WholeBalanceDocument } from './balance-document.js';
import { estimateText } from './matchup-tables.js';
import { type Tolerance, toleranceText, verdictText } from '../analysis/price-verdict.js';
import type { Cell, Column, DataTable } from './table-model.js';

/**
 * `crucible balance` as tables: the price list (current → proposed cost, its interval, the change,
 * the verdict, and what drives it), each unit's deserved cost in each situation, and the check —
 * the replay of a price list bought by count, or the held-out pairings of a round robin. Costs to
 * three significant figures; scores to the precision the runs achieved.
 */

type Row = BalanceDocument['units'][number];

/** Decimals for three significant figures (at least): 175, 64.6, 8.09. */
const costDigits = (value: number): number => (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2);

/** A cost to three significant figures: 175, 64.6, 8.09. */
export function costText(value: number): string {
  return value.toFixed(costDigits(value));
}

/** "50.2% ±0.4": a score averaged over many runs is known to a tenth of a point, which is what the check is read at. */
function tenthText(estimate: { value: number; interval: { low: number; high: number } }): string {
  const half = Math.max(estimate.value - estimate.interval.low, estimate.interval.high - estimate.value) * 100;
  return `${(estimate.value * 100).toFixed(1)}% ±${(Math.ceil(half * 10) / 10).toFixed(1)}`;
}

/** A minus sign, not a hyphen, as compare and the pages print it; a value that rounds to 0 has no sign. */
function signed(value: number, digits: number): string {
  const text = Math.abs(value).toFixed(digits);
  if (Number(text) === 0) return text;
  return `${value < 0 ? '−' : '+'}${text}`;
}

/**
 * A cost interval as printed: ends the data cannot bound read as such — "any price" above 10× the
 * dearest published cost, 0 below a thousandth of the cheapest — not as 597393.4 or 1e-113.
 */
export function costRange(low: number, high: number | null, cheapest: number, dearest: number): string {
  const unboundedAbove = high === null || high > 10 * dearest;
  // A lower end below a tenth of the cheapest published cost bounds nothing a designer would price at.
  const unboundedBelow = low < cheapest / 10;
  if (unboundedAbove && unboundedBelow) return 'any price';
  if (unboundedAbove) return `from ${costText(low)}`;
  if (unboundedBelow) return `up to ${costText(high)}`;
  const bottom = costText(low);
  // A narrow interval keeps its width visible: a digit more until its ends differ ([10.97, 11.03], not [11.0, 11.0]).
  for (let extra = 1; costText(high) === bottom && high !== low && extra <= 2; extra++) {
    const digits = costDigits(high) + extra;
    if (low.toFixed(digits) !== high.toFixed(digits)) return `[${low.toFixed(digits)}, ${high.toFixed(digits)}]`;
  }
  return `[${bottom}, ${costText(high)}]`;
}

/** For CSV: a cost rounded to 0.01 point, or blank where the data cannot bound it (see costRange). */
function costNumber(value: number | null | undefined, dearest: number): number | null {
  if (value === undefined || value === null || value > 10 * dearest) return null;
  return Number(value.toFixed(2));
}

export function publishedRange(document: BalanceDocument): { cheapest: number; dearest: number } {
  const costs = document.units.map((unit) => unit.published).filter((cost) => cost > 0);
  return costs.length === 0 ? { cheapest: 1, dearest: 1 } : { cheapest: Math.min(...costs), dearest: Math.max(...costs) };
}

const VERDICT_ORDER: Record<string, number> = { 'under-costed': 0, 'over-costed': 1, uncertain: 2, fair: 3 };

/** Units as a designer reads them: under-costed, over-costed, uncertain, fair; each by how far its price is off. */
function rankedUnits<Unit extends Row>(units: readonly Unit[]): Unit[] {
  return [...units].sort(
    (a, b) =>
      (VERDICT_ORDER[a.verdict ?? ''] ?? 4) - (VERDICT_ORDER[b.verdict ?? ''] ?? 4) ||
      Math.abs(b.changePercent ?? 0) - Math.abs(a.changePercent ?? 0) ||
      a.name.localeCompare(b.name),
  );
}

const several = (document: BalanceDocument): boolean => document.situations.length > 1;

/** "40–95 (depends on the mix)": the deserved costs across situations. */
function mixRange(unit: Row): string {
  const costs = (unit.situations ?? []).flatMap((entry) => (entry.deserved === undefined ? [] : [entry.deserved]));
  if (costs.length === 0) return '';
  const range = `${costText(Math.min(...costs))}–${costText(Math.max(...costs))}`;
  return unit.mixSensitive === true ? `${range} (depends on the mix)` : range;
}

function verdictCell(unit: Row, tolerance: Tolerance): string {
  if (unit.verdict === undefined) return unit.problem === undefined ? '' : 'no price';
  return verdictText(unit.verdict, tolerance);
}

/** A column and how each row fills it. */
interface ColumnOf<Item> {
  readonly column: Column;
  readonly cell: (item: Item) => Cell;
}

function tableFrom<Item>(title: string, items: readonly Item[], specs: readonly ColumnOf<Item>[], notes?: readonly string[]): DataTable {
  return {
    title,
    columns: specs.map((spec) => spec.column),
    rows: items.map((item) => specs.map((spec) => spec.cell(item))),
    ...(notes === undefined ? {} : { notes }),
  };
}

/**
 * The price list: one row per unit, verdicts first. Printed, costs to three significant figures
 * with the interval in words where the data cannot bound it ("from 12", "any price"); in CSV and
 * JSON, costs to 0.01 point (empty where unbounded), the interval's ends beside the proposal, the
 * verdict as its keyword, and the numbers behind it (ids, strengths, model counts).
 */
export function priceList(document: BalanceDocument): DataTable {
  const { cheapest, dearest } = publishedRange(document);
  const anyUnusual = document.fielded === 'whole' && document.units.some((unit) => unit.unusual !== undefined);
  // A reason every unit shares is said once, under the table (priceListLegend), not on every row.
  const printedNotes = sharedProblem(document) === undefined && document.units.some((unit) => unit.problem !== undefined);
  const anyNote = document.units.some((unit) => unit.problem !== undefined);
  const specs: ColumnOf<Row>[] = [
    { column: { name: 'unit', heading: 'Unit' }, cell: (unit) => unit.name },
    { column: { name: 'id', only: 'data' }, cell: (unit) => unit.id },
    { column: { name: 'published', heading: 'Published' }, cell: (unit) => unit.published },
    {
      column: {
        name: 'proposed',
        heading: 'Proposed',
        description: 'the cost the unit deserves (empty: no price could be read, or unbounded)',
        bounds: true,
        boundsHeading: '95% interval',
      },
      cell: (unit) => ({
        value: costNumber(unit.deserved, dearest),
        text: unit.deserved === undefined ? '—' : costText(unit.deserved),
        low: unit.interval === undefined ? null : costNumber(unit.interval.low, dearest),
        high: unit.interval === undefined ? null : costNumber(unit.interval.high, dearest),
        boundsText: unit.interval === undefined ? '' : costRange(unit.interval.low, unit.interval.high, cheapest, dearest),
      }),
    },
    {
      column: { name: 'change %', heading: 'Change', description: 'proposed against published, in percent' },
      cell: (unit) =>
        unit.changePercent === undefined
          ? null
          : { value: Number(unit.changePercent.toFixed(1)), text: `${signed(unit.changePercent, 0)}%` },
    },
    {
      column: { name: 'verdict', heading: 'Verdict', description: 'under-costed, over-costed, uncertain or fair' },
      cell: (unit) => ({ value: unit.verdict ?? null, text: verdictCell(unit, document.tolerance) }),
    },
  ];
  if (several(document)) {
    specs.push(
      { column: { name: 'driven by', heading: 'Driven by' }, cell: (unit) => unit.drivenBy ?? '' },
      {
        column: {
          name: 'depends on the mix',
          heading: 'By situation',
          description: 'true when the costs deserved in the situations differ by more than twice the tolerance',
        },
        cell: (unit) => ({ value: unit.mixSensitive === true, text: mixRange(unit) }),
      },
      ...document.situations.map(
        (situation): ColumnOf<Row> => ({
          column: { name: `${situation.name}: deserved`, only: 'data' },
          cell: (unit) => costNumber(unit.situations?.find((entry) => entry.situation === situation.name)?.deserved, dearest),
        }),
      ),
    );
  }
  if (document.fielded === 'by-count') {
    const counted = (unit: Row) => unit as CountBalanceDocument['units'][number];
    specs.push(
      {
        column: { name: 'models at proposed', only: 'data', description: 'models the unit fields at its proposed price, on average' },
        cell: (unit) => (counted(unit).count === undefined ? null : Number((counted(unit).count as number).toFixed(3))),
      },
      {
        column: {
          name: 'score at published',
          heading: 'Score at published costs',
          description: 'its expected score against the list as published',
        },
        cell: (unit) => {
          const score = counted(unit).publishedScore;
          return score === undefined ? null : { value: Number(score.value.toFixed(4)), text: estimateText(score, document.precision) };
        },
      },
      {
        column: { name: 'replayed score', heading: 'Replayed score', ...(document.check === undefined ? { only: 'data' as const } : {}) },
        cell: (unit) => {
          const check = counted(unit).check;
          return check === undefined
            ? null
            : { value: Number(check.score.value.toFixed(4)), text: `${tenthText(check.score)}${check.pass ? '' : ' MISS'}` };
        },
      },
      {
        column: {
          name: 'replay within 2 points',
          only: 'data',
          description: "the replayed score within 2 points of 1/2, beyond the replay's own noise",
        },
        cell: (unit) => counted(unit).check?.pass ?? null,
      },
    );
  } else {
    const whole = (unit: Row) => unit as WholeBalanceDocument['units'][number];
    const heldOut = document.heldOut.rmsError;
    specs.push(
      {
        column: { name: 'strength', only: 'data', description: 'the fitted strength (log-odds)' },
        cell: (unit) => Number(whole(unit).strength.toFixed(4)),
      },
      {
        column: { name: 'strength se', only: 'data', description: "the strength's standard error" },
        cell: (unit) => Number(whole(unit).strengthStandardError.toFixed(4)),
      },
      {
        column: { name: 'unusual', heading: 'Unusual for this list', ...(anyUnusual ? {} : { only: 'data' as const }) },
        cell: (unit) => ({ value: whole(unit).unusual ?? '', text: whole(unit).unusual ?? 'no' }),
      },
      {
        column: {
          name: 'held-out error',
          heading: 'Model error (RMS)',
          description: "root mean square error of its held-out pairings' predicted scores",
        },
        cell: (unit) => {
          const error = whole(unit).heldOutError;
          return error === undefined
            ? null
            : { value: Number(error.toFixed(4)), text: `${(error * 100).toFixed(1)} pts${error > 2 * heldOut ? ' (high)' : ''}` };
        },
      },
    );
  }
  if (printedNotes || anyNote)
    specs.push({
      column: { name: 'note', heading: 'Note', ...(printedNotes ? {} : { only: 'data' as const }) },
      cell: (unit) => unit.problem ?? '',
    });
  return tableFrom(
    'Price list (under-costed first, then over-costed, uncertain and fair; each by how far its price is off)',
    rankedUnits<Row>(document.units),
    specs,
    priceListLegend(document),
  );
}

/** Each unit's deserved cost in each situation (with several situations). */
export function situationTable(document: BalanceDocument): DataTable {
  const { cheapest, dearest } = publishedRange(document);
  const specs: ColumnOf<Row>[] = [
    { column: { name: 'unit', heading: 'Unit' }, cell: (unit) => unit.name },
    { column: { name: 'published', heading: 'Published' }, cell: (unit) => unit.published },
    {
      column: { name: 'all situations', heading: 'All situations' },
      cell: (unit) => ({ value: costNumber(unit.deserved, dearest), text: unit.deserved === undefined ? '—' : costText(unit.deserved) }),
    },
    ...document.situations.map(
      (situation): ColumnOf<Row> => ({
        column: {
          name: situation.name,
          heading: `${situation.name} (${Math.round(situation.share * 100)}%)`,
          description: `the cost deserved if every game were "${situation.name}"`,
          bounds: true,
        },
        cell: (unit) => {
          const own = unit.situations?.find((entry) => entry.situation === situation.name);
          const range = own?.interval === undefined ? '' : costRange(own.interval.low, own.interval.high, cheapest, dearest);
          const text =
            own?.deserved === undefined
              ? '—'
              : `${costText(own.deserved)}${range === '' ? '' : range.startsWith('[') ? ` ${range}` : ` (${range})`}`;
          return {
            value: costNumber(own?.deserved, dearest),
            text,
            low: own?.interval === undefined ? null : costNumber(own.interval.low, dearest),
            high: own?.interval === undefined ? null : costNumber(own.interval.high, dearest),
          };
        },
      }),
    ),
  ];
  return tableFrom(
    'Deserved cost in each situation (its share of the games), with its 95% interval',
    rankedUnits<Row>(document.units),
    specs,
  );
}

type Point = CountBalanceDocument['units'][number]['curve'][number];

/** One unit bought by count: its score against the list at each whole count measured (the proposed prices). */
export function curveTable(document: CountBalanceDocument, unit: string): DataTable {
  const result = document.units.find((entry) => entry.id === unit);
  const specs: ColumnOf<Point>[] = [
    { column: { name: 'models', heading: 'Models' }, cell: (point) => point.count },
    {
      column: { name: 'score', heading: 'Expected score against the list', bounds: true },
      cell: (point) => ({
        value: point.score.value,
        text: estimateText(point.score, point.fine ? document.precision : Math.min(0.45, 3 * document.precision)),
        low: point.score.interval.low,
        high: point.score.interval.high,
      }),
    },
    {
      column: { name: 'measured', heading: 'Measured' },
      cell: (point) => ({ value: point.fine ? 'fine' : 'coarse', text: point.fine ? 'fine' : 'coarse (search)' }),
    },
  ];
  return tableFrom(
    `${result?.name ?? unit}: expected score against the list by models fielded (the others at their published costs)`,
    result?.curve ?? [],
    specs,
  );
}

/** Every unit bought by count: its score at each whole count measured, against the list at the proposed prices (`--out x.csv` writes it beside, as x.curves.csv). */
export function curvesTable(document: CountBalanceDocument): DataTable {
  const points = document.units.flatMap((unit) => unit.curve.map((point) => ({ unit: unit.name, point })));
  const specs: ColumnOf<{ unit: string; point: Point }>[] = [
    { column: { name: 'unit' }, cell: ({ unit }) => unit },
    { column: { name: 'models' }, cell: ({ point }) => point.count },
    {
      column: { name: 'score against the list at the proposed prices', bounds: true },
      cell: ({ point }) => ({
        value: Number(point.score.value.toFixed(4)),
        text: estimateText(point.score, document.precision),
        low: Number(point.score.interval.low.toFixed(4)),
        high: Number(point.score.interval.high.toFixed(4)),
      }),
    },
    {
      column: { name: 'measured', description: "fine: at the answer's precision; coarse: during the search" },
      cell: ({ point }) => (point.fine ? 'fine' : 'coarse'),
    },
  ];
  return tableFrom(
    `${document.roster}: each unit's expected score by models fielded, against the list at the proposed prices`,
    points,
    specs,
  );
}

type Opponent = CountBalanceDocument['units'][number]['opponents'][number];

/** One unit bought by count: against each opponent alone, the models and price that make it even. */
export function opponentTable(document: CountBalanceDocument, unit: string): DataTable {
  const result = document.units.find((entry) => entry.id === unit);
  const specs: ColumnOf<Opponent>[] = [
    { column: { name: 'opponent', heading: 'Opponent' }, cell: (opponent) => opponent.name },
    {
      column: { name: 'opponent models', heading: 'Opponent fields (models, on average)' },
      cell: (opponent) => Number(opponent.count.toFixed(2)),
    },
    {
      column: { name: 'models for an even game', heading: 'Models for an even game' },
      cell: (opponent) =>
        opponent.fairCount === undefined
          ? { value: null, text: opponent.status === 'wins at 1 model' ? 'wins at 1 model' : `loses at ${document.maxCount}` }
          : { value: Number(opponent.fairCount.toFixed(2)), text: opponent.fairCount.toFixed(2) },
    },
    {
      column: { name: 'price against this opponent', heading: 'Price against this opponent alone' },
      cell: (opponent) => (opponent.cost === undefined ? null : { value: Number(opponent.cost.toFixed(2)), text: costText(opponent.cost) }),
    },
  ];
  return tableFrom(`${result?.name ?? unit}: against each opponent alone`, result?.opponents ?? [], specs);
}

/** The reason no unit could be priced, when every unit has the same one. */
function sharedProblem(document: BalanceDocument): string | undefined {
  const [first] = document.units;
  return first?.problem !== undefined && document.units.every((unit) => unit.problem === first.problem) ? first.problem : undefined;
}

/** The words under the price list: what every column means, for this document. */
export function priceListLegend(document: BalanceDocument): string[] {
  const byCount = document.fielded === 'by-count';
  const proposed = !byCount
    ? "where the list's own cost line (strength against ln points, fitted robustly to the other units) puts the unit's strength"
    : document.scope === 'list'
      ? `the price at which its expected score (win + ½ draw) against the list is ½, every unit at its proposed price and fielding ${document.budget} points on average`
      : `the price at which its expected score (win + ½ draw) against the list as published is ½, every other unit at its published cost and fielding ${document.budget} points on average`;
  const interval = byCount
    ? 'what the simulation noise of every score it reads leaves possible (a unit exactly even whatever the dice, against an identical twin, has an interval of one point)'
    : 'what the simulation noise of its strength and the uncertainty of the cost line leave possible — not how far other units scatter about the line, which is their mispricing';
  const uncertain = byCount ? 'a finer -p would tell' : 'more units, or situations in which the units fit the cost line better, would tell';
  const shared = sharedProblem(document);
  const lines = [
    ...(shared === undefined ? [] : [`No unit could be priced: ${shared.replace(/^no price: /, '')}.`]),
    `Proposed: the cost each unit deserves — ${proposed}. 95% interval: ${interval}. "—": no price could be read (the note says why).`,
    `Verdict: under-costed (over-costed) when the published cost lies below (above) the interval and the proposal differs from it by more than the tolerance, ${toleranceText(document.tolerance)} (--tolerance); fair when the whole interval lies within the tolerance; uncertain otherwise (${uncertain}).`,
  ];
  if (several(document)) {
    lines.push(
      `Situations: ${document.situations.map((situation) => `“${situation.name}” ${Math.round(situation.share * 100)}%`).join(', ')}. By situation: the costs deserved if every game were one situation (${!byCount ? 'each situation with its own cost line, so the price over the mix need not lie between them' : document.scope === 'list' ? 'the other units at their proposed prices' : 'the other units at their published costs'}); "depends on the mix" when they differ by more than twice the tolerance, "—" where no price could be read in that situation. Driven by: the situation whose share of the games times its pull (how far its price lies beyond the proposal, in the verdict's direction) is largest.`,
    );
  } else
    lines.push(
      "One situation: the roster's template. A price fitted from one fight is a price for that fight: list the situations the units meet (`situations:` in the roster) to price them over a mix.",
    );
  if (byCount) {
    lines.push(
      `Equal points: a unit priced c fields ${document.budget}/c models on average (the two whole counts around it, in the proportions that average it). Score at published costs: its expected score against the list as published today.${document.scope === 'list' ? ' The list keeps its overall level: the price changes of the middle half of the units average 0 (in logs), so a few units far off do not move the rest.' : ''}`,
    );
    if (!document.converged)
      lines.push(
        'The prices did not settle: the iteration that makes every unit even stopped before its counts stopped moving; read the replayed scores to see how far from even each unit is.',
      );
    if (document.check !== undefined)
      lines.push(
        `Replayed score: ${document.scope === 'list' ? 'the proposed prices' : 'the proposed price, against the others at their published costs,'} played again on fresh dice (seed ${document.check.seed}), at equal points: within ±2 points of ½ when ${document.scope === 'list' ? 'the prices are' : 'the price is'} right. ${checkFinding(document)}`,
      );
  } else {
    const { heldOut, regression } = document;
    const unusual = document.units.filter((unit) => (unit as WholeBalanceDocument['units'][number]).unusual !== undefined).length;
    const determined = regression.slopeInterval.low > 0;
    lines.push(
      `Cost line: strength = ${signed(regression.intercept, 2)} + ${regression.slope.toFixed(2)} · ln(points) (slope 95% [${regression.slopeInterval.low.toFixed(2)}, ${regression.slopeInterval.high.toFixed(2)}]${determined ? '' : ': it could be flat, so no price can be read off it — add units, or costs further apart'}), the units scattering ${regression.scatter.toFixed(2)} log-odds about it (simulation noise ${regression.noiseSd.toFixed(3)}). Unusual for this list: a strength outside the 95% prediction band of the line through the others${unusual === 0 ? ' (none is)' : ''}.`,
    );
    lines.push(
      `Model check: each pairing predicted from strengths fitted without it (${heldOut.folds}-fold) misses its played expected score by ${(heldOut.rmsError * 100).toFixed(1)} points root mean square over ${heldOut.pairings} pairings, where the noise alone would give ${(heldOut.rmsNoise * 100).toFixed(1)}. Model error: the same over each unit's pairings ("high" above twice the list's: its strength sums its matchups poorly, so its price is less sure than its interval says).`,
    );
  }
  lines.push(
    `Seed ${document.seed}; every score near the answer within ±${(document.precision * 100).toFixed(1)} points; engine ${document.engineVersion}.`,
  );
  return lines;
}

/** How many units got each verdict. */
export function verdictCounts(document: BalanceDocument): Record<'under-costed' | 'over-costed' | 'uncertain' | 'fair', number> {
  const counts = { 'under-costed': 0, 'over-costed': 0, uncertain: 0, fair: 0 };
  for (const unit of document.units) if (unit.verdict !== undefined) counts[unit.verdict] += 1;
  return counts;
}

/** The median width of the 95% intervals, in percent of the proposed cost; undefined when none is bounded. */
export function medianIntervalWidth(document: BalanceDocument): number | undefined {
  const widths = document.units
    .flatMap((unit) =>
      unit.deserved === undefined || unit.interval === undefined || unit.interval.high === null
        ? []
        : [((unit.interval.high - unit.interval.low) / unit.deserved) * 100],
    )
    .sort((a, b) => a - b);
  if (widths.length === 0) return undefined;
  const middle = widths.length >> 1;
  return widths.length % 2 === 1 ? widths[middle] : ((widths[middle - 1] as number) + (widths[middle] as number)) / 2;
}

/** The replay's own noise: the widest half-width of a replayed score's 95% interval. */
function replayNoise(document: CountBalanceDocument): number {
  return Math.max(
    0,
    ...document.units.flatMap((unit) =>
      unit.check === undefined ? [] : [(unit.check.score.interval.high - unit.check.score.interval.low) / 2],
    ),
  );
}

/**
 * What the replay found, in a sentence (the terminal's legend and the page say it alike): a unit
 * misses when its replayed score lies more than 2 points from ½ beyond the replay's own noise
 * (analysis/count-costs.ts, replayCheck).
 */
export function checkFinding(document: CountBalanceDocument): string {
  if (document.check === undefined) return '';
  const noise = replayNoise(document);
  const allowance = `allowing for the replay's own noise (its 95% intervals, up to ±${(noise * 100).toFixed(1)} points)`;
  const finding = document.check.passed
    ? `${document.scope === 'list' ? 'Every unit' : 'The unit'} scored within ±2 points of ½, ${allowance}.`
    : `Missed by ${document.check.misses.join(', ')}: more than 2 points from ½, beyond ${allowance}.`;
  // A replay noisier than what it checks passes what it cannot see: say so.
  return noise * 100 > 2
    ? `${finding} At this precision that noise is wider than the 2 points checked: a finer -p sharpens the check.`
    : finding;
}
