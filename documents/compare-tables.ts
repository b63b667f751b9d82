import type { ComparedOutcome, ComparisonResult } from '../analysis/compare.js';
import { metricTitle } from '../input/field-labels.js';
import { percent } from './format.js';
import type { Cell, Column, DataTable } from './table-model.js';

/**
 * `crucible compare` as a table: one row per outcome seen in either variant — the baseline's value,
 * the variant's, the difference variant − baseline with its 95% interval, the paired test's p-value,
 * and how many times the trials independent dice would need — printed as the run output prints
 * (percent, percentage points), in CSV and JSON at full precision with each interval's ends.
 */

function signed(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return /^-0\.?0*$/.test(text) ? text.slice(1) : `${value > 0 ? '+' : ''}${text}`;
}

function pValueText(p: number): string {
  return p < 1e-4 ? '<0.0001' : p.toFixed(4);
}

const isProbability = (outcome: ComparedOutcome): boolean => outcome.measure === 'probability';

/** A value as the run output prints it: a probability in percent, a mean with 3 decimals. */
const shown = (outcome: ComparedOutcome, value: number): string => (isProbability(outcome) ? percent(value, 2) : value.toFixed(3));

/** A difference: percentage points for probabilities, the count's own unit for means. */
function differenceText(outcome: ComparedOutcome, value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+∞' : '−∞';
  return isProbability(outcome) ? signed(value * 100, 2) : signed(value, 3);
}

export const differenceHeading = (result: ComparisonResult): string => `${result.variant.name} − ${result.baseline.name}`;

/** The difference was the same in every trial: 0 in each (the outcomes agreed every time). */
export const sameEveryTrial = (outcome: ComparedOutcome): boolean => outcome.difference.variance === 0 && outcome.difference.mean === 0;

/**
 * How many times the trials an unpaired comparison would need, in words where the factor says
 * nothing: the same result in every trial, or a difference that never varied — infinitely many when
 * the outcomes varied (pairing removed all the noise), none to speak of when they did not.
 */
function unpairedText(outcome: ComparedOutcome): string {
  if (outcome.difference.variance > 0) return `${outcome.unpairedTrialsFactor.toFixed(1)}×`;
  if (sameEveryTrial(outcome)) return 'same every trial';
  return outcome.baseline.variance > 0 ? '∞' : '—';
}

/** The outcomes 0 in every trial of both variants, a category's labels together: "When it was destroyed (Orcs): in round 4, in round 5". */
function neverSeen(result: ComparisonResult): string {
  const byMetric = new Map<string, string[]>();
  for (const outcome of result.outcomes.filter((candidate) => candidate.neverSeen)) {
    const title =
      outcome.kind === 'category'
        ? metricTitle({ name: outcome.metric, kind: outcome.kind, description: outcome.description })
        : outcome.title;
    byMetric.set(title, [
      ...(byMetric.get(title) ?? []),
      ...(outcome.kind === 'category' && outcome.label !== undefined ? [outcome.label] : []),
    ]);
  }
  return [...byMetric].map(([title, labels]) => (labels.length === 0 ? title : `${title}: ${labels.join(', ')}`)).join('; ');
}

/** The comparison's table, baseline column first, then the variant, then variant − baseline; `title` the printout's. */
export function comparisonTable(result: ComparisonResult, title: string): DataTable {
  const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);
  const columns: Column[] = [
    { name: 'outcome', description: 'the outcome in words' },
    {
      name: 'baseline',
      align: 'right',
      heading: result.baseline.name,
      description: `the probability or mean with ${result.baseline.name}`,
      bounds: true,
    },
    {
      name: 'variant',
      align: 'right',
      heading: result.variant.name,
      description: `the probability or mean with ${result.variant.name}`,
      bounds: true,
    },
    {
      name: 'difference',
      align: 'right',
      heading: differenceHeading(result),
      description: 'variant - baseline, paired trial by trial (probabilities as fractions: 0.01 is a percentage point)',
      bounds: true,
      boundsHeading: '95% interval',
    },
    { name: 'p', align: 'right', description: 'two-sided paired t test of no difference' },
    {
      name: 'unpaired trials factor',
      align: 'right',
      heading: 'unpaired would need',
      description:
        'how many times the trials independent dice would need for the same precision (empty: infinitely many, or nothing varied)',
    },
    { name: 'metric', description: 'the metric (what --metric takes)' },
    { name: 'label', only: 'data', description: 'a category\'s label, or "yes" for a flag' },
    { name: 'measure', only: 'data', description: 'probability or mean' },
  ];
  const side = (outcome: ComparedOutcome, estimate: ComparedOutcome['baseline']): Cell => ({
    value: estimate.mean,
    text: shown(outcome, estimate.mean),
    low: estimate.interval.low,
    high: estimate.interval.high,
  });
  const rows = result.outcomes
    .filter((outcome) => !outcome.neverSeen)
    .map((outcome): Cell[] => {
      const { difference } = outcome;
      const unit = isProbability(outcome) ? ' pts' : '';
      return [
        outcome.title,
        side(outcome, outcome.baseline),
        side(outcome, outcome.variant),
        {
          value: difference.mean,
          text: `${differenceText(outcome, difference.mean)}${unit}`,
          low: finite(difference.interval.low),
          high: finite(difference.interval.high),
          boundsText: `[${differenceText(outcome, difference.interval.low)}, ${differenceText(outcome, difference.interval.high)}]`,
        },
        { value: difference.pValue, text: pValueText(difference.pValue) },
        { value: finite(outcome.unpairedTrialsFactor), text: unpairedText(outcome) },
        outcome.metric,
        outcome.label ?? '',
        outcome.measure,
      ];
    });
  const never = neverSeen(result);
  return { title, columns, rows, notes: never === '' ? [] : [`Never in either (0 in every trial of both): ${never}.`] };
}
