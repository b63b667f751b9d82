import { type CompareDocument, IDENTICAL_TEXT, SAME_SCENARIO_TEXT } from '../documents/compare-document.js';
import { capitalized } from './chart-kit.js';
import { type DifferenceRow, differenceChart } from './charts.js';
import { countText, decimalsFor, differenceText, estimateText, meanText, percentText } from './format.js';
import type { MeasuredCell, PageTable, Provenance, ReportPage } from './page-model.js';
import { measuredCell, slugify } from './page-model.js';
import { rulesNotes } from './page-notes.js';

/**
 * The page of a `crucible compare --json` document: the difference variant − baseline of every
 * outcome with its 95% interval, and the table with the baseline's column first, then the
 * variant's, then the difference — as the command prints it.
 */
export interface ComparePageOptions {
  readonly slug?: string;
  readonly title?: string;
}

type Variant = CompareDocument['baseline'];
type Outcome = CompareDocument['outcomes'][number];

/** "as written" rather than "(as written)"; a variant by its name. */
const variantName = (variant: Variant): string => (variant.asWritten ? 'as written' : variant.name);

/** What a variant changes, in words: "Regenerating Ogre › ogre: unit = ogre". */
function changesText(variant: Variant): string {
  if (variant.asWritten) return 'the scenario as written';
  const changes = variant.changes.map(
    (change) => `${change.field.label} = ${typeof change.value === 'string' ? change.value : JSON.stringify(change.value)}`,
  );
  return [variant.description, changes.length === 0 ? 'no field changes' : `sets ${changes.join('; ')}`]
    .filter((part) => part !== undefined && part !== '')
    .join(': ');
}

/** A side's value as the table shows it ("62% ±1", "2.31 [2.28, 2.34]"), with its numbers for the CSV. */
function valueCell(outcome: Outcome, side: 'baseline' | 'variant'): MeasuredCell {
  const estimate = { value: outcome[side].estimate, interval: outcome[side].interval };
  return measuredCell(outcome.measure === 'probability' ? estimateText(estimate) : meanText(estimate.value, estimate.interval), estimate);
}

/** An interval with an unbounded end (a single trial) cannot be drawn: such outcomes stay in the table only. */
function differenceRow(outcome: Outcome): DifferenceRow | undefined {
  const { low, high } = outcome.difference.interval;
  if (low === null || high === null || outcome.neverSeen) return undefined;
  return {
    label: outcome.title,
    kind: outcome.measure === 'probability' ? 'chance' : 'mean',
    baseline: outcome.baseline.estimate,
    variant: outcome.variant.estimate,
    difference: outcome.difference.estimate,
    low,
    high,
    pValue: outcome.difference.pValue,
  };
}

/** Said when the two gave the same result in every trial (each difference 0 with no spread), else ''. */
function identicalText(document: CompareDocument): string {
  if (document.sameScenario === true) return SAME_SCENARIO_TEXT;
  const identical =
    document.trials > 1 &&
    document.outcomes.every((outcome) => outcome.difference.estimate === 0 && outcome.difference.standardError === 0);
  return identical ? IDENTICAL_TEXT : '';
}

/**
 * The outcome a verdict is about: of the first metric compared that was ever seen (the scenario's
 * headline metric, or the first --metric asked for), the outcome that moved most; of equal moves
 * (a win that became a draw), the one more common in the baseline.
 */
export function leadOutcome(document: CompareDocument): Outcome | undefined {
  for (const metric of document.metrics) {
    const seen = document.outcomes.filter((outcome) => outcome.metric === metric && !outcome.neverSeen);
    const moved = (outcome: Outcome) => Math.abs(outcome.difference.estimate);
    const lead = seen.reduce<Outcome | undefined>(
      (best, outcome) =>
        best === undefined ||
        moved(outcome) > moved(best) ||
        (moved(outcome) === moved(best) && outcome.baseline.estimate > best.baseline.estimate)
          ? outcome
          : best,
      undefined,
    );
    if (lead !== undefined) return lead;
  }
  return undefined;
}

/** "p < 0.001", "p = 0.004", "p = 0.41". */
function pText(p: number): string {
  if (p < 0.001) return 'p < 0.001';
  return `p = ${p < 0.01 ? p.toFixed(3) : p.toFixed(2)}`;
}

/** "“singly”", or "the scenario as written". */
const sideName = (variant: Variant): string => (variant.asWritten ? 'the scenario as written' : `“${variant.name}”`);

/**
 * The comparison's answer in one sentence, about its lead outcome: how much more or less often (or
 * larger) the variant makes it, with the 95% interval and p-value, or that no clear difference was
 * found. The terminal (cli/commands/compare.ts) and the page both lead with it.
 */
export function compareVerdict(document: CompareDocument): string {
  const variant = sideName(document.variant);
  const baseline = sideName(document.baseline);
  const lead = leadOutcome(document);
  if (lead === undefined) return `No difference: neither ${variant} nor ${baseline} ever showed any outcome compared.`;
  const title = `“${lead.title}”`;
  const { estimate, standardError, pValue } = lead.difference;
  if (estimate === 0 && standardError === 0 && document.trials > 1)
    return `No difference in ${title}: ${variant} and ${baseline} gave the same result in every trial.`;
  const { low, high } = lead.difference.interval;
  if (low === null || high === null) return `One trial is too few to tell ${variant} from ${baseline}: run more trials for a verdict.`;
  const chance = lead.measure === 'probability';
  const scale = chance ? 100 : 1;
  const digits = decimalsFor(Math.max(estimate - low, high - estimate) * scale);
  const number = (value: number) => (value * scale).toFixed(digits);
  const signed = (value: number) =>
    Number(number(value)) === 0 ? number(Math.abs(value)) : value > 0 ? `+${number(value)}` : `−${number(-value)}`;
  const unit = chance ? ' points' : '';
  if (low <= 0 && high >= 0) {
    return `No clear difference in ${title} between ${variant} and ${baseline}: ${signed(estimate)}${unit} (95% interval ${signed(low)} to ${signed(high)}${unit}; ${pText(pValue)}).`;
  }
  const more = estimate > 0;
  const [near, far] = more ? [low, high] : [-high, -low];
  const values = chance
    ? `${percentText(lead.variant.estimate)} against ${percentText(lead.baseline.estimate)}`
    : `${lead.variant.estimate.toFixed(digits)} against ${lead.baseline.estimate.toFixed(digits)}`;
  const change = chance
    ? `happens ${number(Math.abs(estimate))} points ${more ? 'more' : 'less'} often`
    : `averages ${number(Math.abs(estimate))} ${more ? 'more' : 'less'}`;
  return `With ${variant}, ${title} ${change} than with ${baseline}: ${values} (95% interval ${number(near)} to ${number(far)}${unit} ${more ? 'more' : 'less'}; ${pText(pValue)}).`;
}

/** The page's "how to read this" line, for a reader who is not a statistician. */
export const COMPARE_HOW_TO_READ =
  'Each outcome is given with the baseline and with the variant, and their difference (variant minus baseline; chances differ in percentage points). The 95% interval is the range the true difference very likely lies in, given the dice rolled: if it does not include 0, the difference is real, not luck. The p-value is how often luck alone would give a difference at least this large if the two were really the same: below 0.05 is the usual line for a real difference.';

/** How the variant's numbers beyond the baseline's were drawn, by the document's pairing version. */
/**
 * The outcomes never seen with either version, one entry per metric ("When it was destroyed
 * (Knights): in round 6, in round 7"): listed one by one, a metric of twenty rounds was a paragraph.
 */
function neverSeenText(outcomes: readonly Outcome[]): string[] {
  const byMetric = new Map<string, { readonly heading: string; readonly labels: string[] }>();
  for (const outcome of outcomes) {
    if (!outcome.neverSeen) continue;
    const { label } = outcome;
    const labelled = label !== undefined && outcome.title.endsWith(`: ${label}`);
    const heading = labelled ? outcome.title.slice(0, -(label.length + 2)) : outcome.title;
    const entry = byMetric.get(outcome.metric) ?? { heading, labels: [] };
    if (labelled) entry.labels.push(label);
    byMetric.set(outcome.metric, entry);
  }
  return [...byMetric.values()].map((entry) =>
    entry.labels.length === 0 ? entry.heading : `${entry.heading}: ${entry.labels.join(', ')}`,
  );
}

function pairingText(document: CompareDocument): string {
  return document.pairingVersion === undefined
    ? "Made before pairing version 2: numbers the variant drew beyond the baseline's were those of the next trial, which made consecutive differences correlated and these intervals somewhat too narrow."
    : "Numbers the variant draws beyond the baseline's come from a stream of its own, so every trial is independent of the others.";
}

export function comparePage(document: CompareDocument, options: ComparePageOptions = {}): ReportPage {
  const baseline = variantName(document.baseline);
  const variant = variantName(document.variant);
  const slug = options.slug ?? slugify(`compare-${document.scenario}-${variant}-vs-${baseline}`);
  const rows = document.outcomes.flatMap((outcome) => differenceRow(outcome) ?? []);
  const never = neverSeenText(document.outcomes);
  const dice = document.paired
    ? `${countText(document.trials)} trials on the same dice for both (common random numbers)`
    : `${countText(document.trials)} trials each, on independent dice`;
  const table: PageTable = {
    columns: ['Outcome', `Baseline: ${baseline}`, `Variant: ${variant}`, `Difference, ${variant} − ${baseline} (95% interval)`, 'p-value'],
    rows: document.outcomes.map((outcome) => {
      const { low, high } = outcome.difference.interval;
      const kind = outcome.measure === 'probability' ? 'chance' : 'mean';
      const difference =
        low === null || high === null
          ? `${differenceText(outcome.difference.estimate, undefined, kind)} (no interval: one trial)`
          : measuredCell(differenceText(outcome.difference.estimate, { low, high }, kind), {
              value: outcome.difference.estimate,
              interval: { low, high },
            });
      return [
        outcome.title,
        valueCell(outcome, 'baseline'),
        valueCell(outcome, 'variant'),
        difference,
        outcome.difference.pValue < 1e-4 ? '< 0.0001' : outcome.difference.pValue.toFixed(4),
      ];
    }),
  };
  const run = {
    scenario: document.scenario,
    file: document.file,
    ruleset: document.ruleset,
    engineVersion: document.engineVersion,
    seed: document.seed,
    trials: document.trials,
  };
  const provenance: Provenance[] = [
    { ...run, engineVersion: document.baseline.engineVersion, variant: `baseline: ${baseline}` },
    { ...run, engineVersion: document.variant.engineVersion, variant: `variant: ${variant}` },
  ];
  return {
    slug,
    title: options.title ?? `${document.scenario}: ${variant} against ${baseline}`,
    answer: compareVerdict(document),
    howToRead: COMPARE_HOW_TO_READ,
    question: `What does ${variant === 'as written' ? 'the scenario as written' : `the variant “${variant}”`} change against ${baseline === 'as written' ? 'the scenario as written' : `“${baseline}”`}, and by how much?`,
    sections: [
      {
        heading: capitalized(`${variant} minus ${baseline}`),
        text: [
          `Baseline (${baseline}): ${changesText(document.baseline)}. Variant (${variant}): ${changesText(document.variant)}.`,
          `Every difference is the variant minus the baseline, so an outcome the variant makes more likely shows right of 0. Chances differ in percentage points; averages in their own units. ${dice}.`,
          identicalText(document),
          never.length === 0 ? '' : `Never seen in either (left out of the chart): ${never.join('; ')}.`,
        ]
          .filter((paragraph) => paragraph !== '')
          .join('\n\n'),
        chart:
          rows.length === 0
            ? undefined
            : differenceChart(rows, {
                id: `${slug}-difference`,
                baseline,
                variant,
                title: capitalized(`${variant} against ${baseline}`),
                trialsNote: dice,
              }),
      },
      {
        heading: 'Every outcome',
        text: 'Chances as “62% ±1” (the estimate and the wider side of its 95% interval in points); averages with their 95% interval.',
        table,
      },
    ],
    provenance,
    methods: [
      document.paired
        ? `Common random numbers: trial t of both variants starts from the same dice, and the baseline draws exactly as crucible run does with the same seed, trials and method. ${pairingText(document)} Each difference is paired trial by trial: its 95% t interval and the paired t test's p-value.`
        : 'Independent dice for the two variants: each difference has the 95% t interval and p-value of two independent means.',
      `Monte Carlo, ${document.method === 'mc' ? 'outcomes drawn from exact tables' : 'every die rolled'}; seed ${document.seed}.`,
      ...rulesNotes(document.baseline).map((note) => `Baseline: ${note}`),
      ...rulesNotes(document.variant).map((note) => `Variant: ${note}`),
      `Unit profiles used: sha256 ${document.baseline.unitsDigest.slice(0, 12)} (baseline), ${document.variant.unitsDigest.slice(0, 12)} (variant).`,
      `Made from crucible compare --json for ${document.file}.`,
    ],
  };
}
