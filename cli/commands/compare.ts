import { type Command, Option } from 'commander';
import { type ComparedOutcome, type ComparedVariant, compareVariants, type ComparisonResult } from '../../analysis/compare.js';
import { compareDocument, IDENTICAL_TEXT, SAME_SCENARIO_TEXT } from '../../documents/compare-document.js';
import { metricTitle } from '../../input/field-labels.js';
import { DEFAULT_MONTE_CARLO, METHOD_WORDS, methodText, MONTE_CARLO_METHODS, type MonteCarloMethod } from '../../sim/methods.js';
import { writeTextFile } from '../../documents/table-files.js';
import { formatOfFile, formatTable, tableOf } from '../../documents/tables.js';
import { InputError, ROOT_PATH } from '../../input/errors.js';
import { isUnitsFileName, readScenarioData } from '../../input/scenario-file.js';
import { groupThousands, headerBlock, markdownTable, percent, provenanceEntries, type TextFlavor } from '../../documents/format.js';
import type { Io } from './io.js';
import { type Common, common, progressLine, writeReport } from './analysis-common.js';
import { parseTrials } from './options.js';
import { compareVerdict } from '../../reports/compare-page.js';
import { trustOf } from './plugins.js';

/** `crucible compare`: a variant against a baseline on the same dice, baseline first, differences variant − baseline. */

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

const differenceHeading = (result: ComparisonResult): string => `${result.variant.name} − ${result.baseline.name}`;

/** The difference was the same in every trial: 0 in each (the outcomes agreed every time). */
const sameEveryTrial = (outcome: ComparedOutcome): boolean => outcome.difference.variance === 0 && outcome.difference.mean === 0;

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

/** The line under the table: what pairing saved, or why there is nothing to say. */
function pairingSummary(result: ComparisonResult): string {
  if (result.trials < 2) return 'One trial: no spread to measure. Run more trials for intervals, p-values and what pairing saves.';
  if (result.outcomes.every(sameEveryTrial)) {
    return result.sameScenario ? SAME_SCENARIO_TEXT : IDENTICAL_TEXT;
  }
  const factors = result.outcomes
    .filter((outcome) => !outcome.neverSeen && outcome.difference.variance > 0)
    .map((outcome) => outcome.unpairedTrialsFactor)
    .sort((x, y) => x - y);
  const median = factors[Math.floor(factors.length / 2)];
  return median === undefined
    ? 'Every difference was the same in every trial: there was no noise for pairing to remove.'
    : `An unpaired comparison (independent dice) would need ${median.toFixed(1)}× the trials for the same precision (median over the outcomes whose difference varied).`;
}

/** The comparison as the table people read: baseline column first, then the variant, then variant − baseline. */
export function comparisonTable(result: ComparisonResult): string {
  const header = ['outcome', result.baseline.name, result.variant.name, differenceHeading(result), '95% interval', 'p', 'unpaired would need', 'metric'];
  const rows = result.outcomes
    .filter((outcome) => !outcome.neverSeen)
    .map((outcome) => {
      const { interval } = outcome.difference;
      const unit = isProbability(outcome) ? ' pts' : '';
      return [
        outcome.title,
        shown(outcome, outcome.baseline.mean),
        shown(outcome, outcome.variant.mean),
        `${differenceText(outcome, outcome.difference.mean)}${unit}`,
        `[${differenceText(outcome, interval.low)}, ${differenceText(outcome, interval.high)}]`,
        pValueText(outcome.difference.pValue),
        unpairedText(outcome),
        outcome.metric,
      ];
    });
  return markdownTable(header, rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l']);
}

/**
 * The comparison as numbers for a spreadsheet (`--out .csv`; `.json` is the document): one row per outcome, full
 * precision, columns named for what they hold whatever the variants are called.
 */
export function comparisonNumbers(result: ComparisonResult) {
  return tableOf(
    result.outcomes.map((outcome) => ({
      outcome: outcome.title,
      metric: outcome.metric,
      label: outcome.label ?? '',
      measure: outcome.measure,
      baseline: outcome.baseline.mean,
      'baseline low': outcome.baseline.interval.low,
      'baseline high': outcome.baseline.interval.high,
      variant: outcome.variant.mean,
      'variant low': outcome.variant.interval.low,
      'variant high': outcome.variant.interval.high,
      'variant − baseline': outcome.difference.mean,
      'difference low': Number.isFinite(outcome.difference.interval.low) ? outcome.difference.interval.low : null,
      'difference high': Number.isFinite(outcome.difference.interval.high) ? outcome.difference.interval.high : null,
      p: outcome.difference.pValue,
      'unpaired trials factor': Number.isFinite(outcome.unpairedTrialsFactor) ? outcome.unpairedTrialsFactor : null,
    })),
  );
}

const quoted = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value));

/** "no-regeneration: the same Ogre without Regeneration", then each field it sets, in words. */
function variantEntries(role: string, variant: ComparedVariant): [string, string][] {
  const about = variant.asWritten ? 'the scenario as written' : (variant.description ?? 'a variant declared in the file');
  return [[role, `${variant.name}: ${about}`], ...variant.changes.map((change): [string, string] => ['', `sets ${change.field.label} (${change.field.path}) to ${quoted(change.value)}`])];
}

/** Provenance, once when both variants share it, else each line marked with its variant. */
function sharedProvenance(result: ComparisonResult): [string, string][] {
  const baseline = provenanceEntries(result.baseline);
  const variant = provenanceEntries(result.variant);
  const same = (a: readonly string[], b: readonly string[]): boolean => a[0] === b[0] && a[1] === b[1];
  if (baseline.length === variant.length && baseline.every((entry, i) => same(entry, variant[i] ?? []))) return baseline;
  const marked = (entries: [string, string][], name: string, others: [string, string][]): [string, string][] =>
    entries.filter((entry) => !others.some((other) => same(entry, other))).map(([key, value]) => [key, `${value} [${name}]`]);
  const nameOf = (side: ComparedVariant): string => (side.asWritten ? 'as written' : side.name);
  return [...baseline.filter((entry) => variant.some((other) => same(entry, other))), ...marked(baseline, nameOf(result.baseline), variant), ...marked(variant, nameOf(result.variant), baseline)];
}

/** The outcomes 0 in every trial of both variants, a category's labels together: "When it was destroyed (Orcs): in round 4, in round 5". */
function neverSeen(result: ComparisonResult): string {
  const byMetric = new Map<string, string[]>();
  for (const outcome of result.outcomes.filter((candidate) => candidate.neverSeen)) {
    const title = outcome.kind === 'category' ? metricTitle({ name: outcome.metric, kind: outcome.kind, description: outcome.description }) : outcome.title;
    byMetric.set(title, [...(byMetric.get(title) ?? []), ...(outcome.kind === 'category' && outcome.label !== undefined ? [outcome.label] : [])]);
  }
  return [...byMetric].map(([title, labels]) => (labels.length === 0 ? title : `${title}: ${labels.join(', ')}`)).join('; ');
}

/** The whole comparison as text (the terminal) or Markdown (`--out x.md`). */
export function formatComparison(result: ComparisonResult, flavor: TextFlavor = 'text'): string {
  const never = neverSeen(result);
  const modes = [...new Set([result.baseline.mode, result.variant.mode].filter((mode) => mode !== undefined))];
  const from = result.baseline.asWritten ? 'the scenario as written' : result.baseline.name;
  const header = headerBlock(`${result.scenario}: ${from} → ${result.variant.name}, on the same dice`, [
    ...variantEntries('baseline', result.baseline),
    ...variantEntries('variant', result.variant),
    ['file', result.file],
    ['ruleset', `${result.ruleset} (engine ${result.engineVersion})${modes.length === 0 ? '' : `, mode ${modes.join(' / ')}`}`],
    ...sharedProvenance(result),
    ['method', `${methodText(result.method)}, ${result.paired ? `paired: trial t of both starts from the same random numbers, any more the variant needs are its own (pairing ${result.pairingVersion})` : 'unpaired: independent dice'}`],
    ['seed', String(result.seed)],
    ['trials', groupThousands(result.trials)],
  ], flavor);
  // The verdict leads, under the title: the one sentence a reader who stops there needs.
  const [titleLine = '', ...entries] = header;
  const verdict = compareVerdict(compareDocument(result));
  return [
    titleLine,
    ...(flavor === 'md' ? ['', verdict] : [verdict, '']),
    ...entries,
    '',
    `The ${result.baseline.name} column is what \`crucible run\` gives for it with this seed, trials and method. ` +
      `"${differenceHeading(result)}" is the variant's value minus the baseline's (probabilities in percentage points): ` +
      'positive when the variant makes the outcome more likely or larger. Then its 95% interval and the paired t test\'s p-value.',
    '',
    comparisonTable(result),
    ...(never === '' ? [] : ['', `Never in either (0 in every trial of both): ${never}.`]),
    '',
    pairingSummary(result),
    '',
  ].join('\n');
}

/**
 * `crucible compare <file>` without --variant: the variants the file declares, each with its
 * description and the fields it sets; a file that declares none is an input error.
 */
async function variantListing(file: string): Promise<{ names: string[]; text: string }> {
  const { variants } = await readScenarioData(file);
  if (variants.length === 0) {
    throw InputError.at(file, 'variants', 'the file declares no variants, so there is nothing to compare: add a `variants:` list of named field changes (docs/commands.md, compare), or try values of one field with `crucible sweep --set <field>=<a>,<b>`');
  }
  const width = Math.max(...variants.map((variant) => variant.name.length));
  const lines = variants.flatMap((variant) => [
    `  ${variant.name.padEnd(width)}  ${variant.description ?? '(no description)'}`,
    ...Object.entries(variant.set).map(([path, value]) => `  ${' '.repeat(width)}  sets ${path} to ${quoted(value)}`),
  ]);
  const count = variants.length === 1 ? 'one variant' : `${variants.length} variants`;
  const example = `crucible compare ${file} --variant ${variants[0]?.name ?? ''}`;
  return {
    names: variants.map((variant) => variant.name),
    text: `${file} declares ${count}: compare one with the scenario as written (--variant NAME) or two, the first the baseline (--variant BASELINE NAME).\n${lines.join('\n')}\n\ne.g. ${example}\n`,
  };
}

interface CompareCommandOptions extends Common {
  readonly variant?: string[];
  readonly method: MonteCarloMethod;
  readonly metric?: string[];
  readonly report?: string;
}

export function registerCompare(program: Command, io: Io): void {
  common(
    program
      .command('compare')
      .description('compare a variant of a scenario with the scenario as written (or with another variant) on the same dice: both values, the difference variant − baseline with its 95% interval and p-value')
      .argument('<scenario>', 'a scenario file that declares `variants`')
      .option('--variant <name...>', 'one variant (compared with the scenario as written, the baseline) or two (the first is the baseline); without it, the variants the file declares are listed')
      .addOption(new Option('-n, --trials <count>', "trials (default: the scenario's)").argParser(parseTrials))
      .addOption(new Option('--method <method>', `mc: ${METHOD_WORDS.mc} (as \`crucible run\` by default); mc-dice: ${METHOD_WORDS['mc-dice']}`).choices([...MONTE_CARLO_METHODS]).default(DEFAULT_MONTE_CARLO))
      .option('--metric <name...>', 'only these metrics (by name, e.g. winner B.modelsLost)')
      .option('--report <dir>', 'also write an HTML page (the difference chart with intervals, tables, provenance) into this folder')
      .option('--json', 'print the comparison as one JSON document (every number at full precision; for `crucible report`)'),
    { workers: false },
  )
    .addHelpText(
      'after',
      `
The baseline (the scenario as written, or the first --variant) draws exactly the random numbers
\`crucible run\` draws with the same seed, trials and method, so its column equals the run's; the
variant rereads each trial's numbers and draws any more it needs from a stream of its own, so every
trial is independent of the others. Compare runs on one thread.

Examples:
  $ crucible compare data/heroic/scenarios/knights-vs-regenerating-ogre.yaml   (lists its variants)
  $ crucible compare data/heroic/scenarios/knights-vs-regenerating-ogre.yaml --variant no-regeneration
  $ crucible compare fight.yaml --variant stand pursue --metric winner --out difference.csv`,
    )
    .action(async (file: string, options: CompareCommandOptions) => {
      if (isUnitsFileName(file)) throw InputError.at(file, ROOT_PATH, 'this is a units file; compare takes a scenario file that declares variants (e.g. data/heroic/scenarios/sylvan-knights-formation.yaml)');
      if (options.variant === undefined) {
        // Output meant for a program (a document, a file) cannot be a listing: that is a missing option.
        const listing = await variantListing(file);
        if (options.json === true || options.out !== undefined || options.report !== undefined) {
          throw InputError.at(file, '--variant', `missing: name one variant to compare with the scenario as written, or two (the baseline first); the file declares ${listing.names.join(', ')}`);
        }
        io.stdout(listing.text);
        return;
      }
      if (options.variant.length > 2) throw InputError.at(file, '--variant', `takes one or two names (the baseline first), got ${options.variant.length}`);
      if (options.out !== undefined) formatOfFile(options.out);
      const [first, second] = options.variant;
      const [baseline, variant] = second === undefined ? [undefined, first as string] : [first, second];
      if (baseline === variant) throw InputError.at(file, '--variant', `${variant} twice: a variant compared with itself differs in nothing`);
      const result = await compareVariants(file, baseline, variant, {
        method: options.method,
        onProgress: progressLine(io, 'trials'),
        plugins: trustOf(options),
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.trials === undefined ? {} : { trials: options.trials }),
        ...(options.metric === undefined ? {} : { metrics: options.metric }),
      });
      const document = compareDocument(result);
      if (options.out !== undefined) {
        const format = formatOfFile(options.out);
        await writeTextFile(options.out, format === 'md' ? formatComparison(result, 'md') : format === 'json' ? `${JSON.stringify(document, null, 2)}\n` : formatTable(comparisonNumbers(result), 'csv'));
      }
      if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
      io.stdout(options.json === true ? `${JSON.stringify(document, null, 2)}\n` : formatComparison(result));
    });
}
