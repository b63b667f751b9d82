import { type Command, Option } from 'commander';
import { type ComparedVariant, compareVariants, type ComparisonResult } from '../../analysis/compare.js';
import { compareDocument, IDENTICAL_TEXT, SAME_SCENARIO_TEXT } from '../../documents/compare-document.js';
import { DEFAULT_MONTE_CARLO, METHOD_WORDS, methodText, MONTE_CARLO_METHODS, type MonteCarloMethod } from '../../sim/methods.js';
import { comparisonTable, differenceHeading, sameEveryTrial } from '../../documents/compare-tables.js';
import { type OutputDocument, printDocument } from '../../documents/table-model.js';
import { InputError, ROOT_PATH } from '../../input/errors.js';
import { readScenarioData } from '../../input/scenario-file.js';
import { dataFileNamed } from '../../input/data-file-kinds.js';
import { provenanceEntries } from '../../documents/format.js';
import { groupThousands } from '../../input/thousands.js';
import type { Io } from './io.js';
import { type Common, common, inSession, sessionOf, writeReport } from './analysis-common.js';
import { parseTrials } from './options.js';
import { compareVerdict } from '../../reports/compare-page.js';
import { trustOf } from './plugins.js';
import { checkOut, writeOut } from './table-out.js';
import { listOption } from '../list-options.js';

/** `crucible compare`: a variant against a baseline on the same dice, baseline first, differences variant − baseline. */

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

const quoted = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value)));

/** "no-regeneration: the same Ogre without Regeneration", then each field it sets, in words. */
function variantEntries(role: string, variant: ComparedVariant): [string, string][] {
  const about = variant.asWritten ? 'the scenario as written' : (variant.description ?? 'a variant declared in the file');
  return [
    [role, `${variant.name}: ${about}`],
    ...variant.changes.map((change): [string, string] => [
      '',
      `sets ${change.field.label} (${change.field.path}) to ${quoted(change.value)}`,
    ]),
  ];
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
  return [
    ...baseline.filter((entry) => variant.some((other) => same(entry, other))),
    ...marked(baseline, nameOf(result.baseline), variant),
    ...marked(variant, nameOf(result.variant), baseline),
  ];
}

/** The whole comparison as printed (the terminal, .md, .html): the verdict first, how it was run, the table, what pairing saved. */
export function comparisonPrintout(result: ComparisonResult): OutputDocument {
  const modes = [...new Set([result.baseline.mode, result.variant.mode].filter((mode) => mode !== undefined))];
  const from = result.baseline.asWritten ? 'the scenario as written' : result.baseline.name;
  const title = `${result.scenario}: ${from} → ${result.variant.name}, on the same dice`;
  const table = comparisonTable(result, title);
  return {
    title,
    // The verdict leads, under the title: the one sentence a reader who stops there needs.
    lead: [compareVerdict(compareDocument(result))],
    entries: [
      ...variantEntries('baseline', result.baseline),
      ...variantEntries('variant', result.variant),
      ['file', result.file],
      ['ruleset', `${result.ruleset} (engine ${result.engineVersion})${modes.length === 0 ? '' : `, mode ${modes.join(' / ')}`}`],
      ...sharedProvenance(result),
      [
        'method',
        `${methodText(result.method)}, ${result.paired ? `paired: trial t of both starts from the same random numbers, any more the variant needs are its own (pairing ${result.pairingVersion})` : 'unpaired: independent dice'}`,
      ],
      ['seed', String(result.seed)],
      ['trials', groupThousands(result.trials)],
    ],
    before: [
      `The ${result.baseline.name} column is what \`crucible run\` gives for it with this seed, trials and method. ` +
        `"${differenceHeading(result)}" is the variant's value minus the baseline's (probabilities in percentage points): ` +
        "positive when the variant makes the outcome more likely or larger. Then its 95% interval and the paired t test's p-value.",
    ],
    tables: [table],
    after: [pairingSummary(result)],
    data: table,
    wrap: false,
  };
}

/**
 * `crucible compare <file>` without --variant: the variants the file declares, each with its
 * description and the fields it sets; a file that declares none is an input error.
 */
async function variantListing(file: string): Promise<{ names: string[]; text: string }> {
  const { variants } = await readScenarioData(file);
  if (variants.length === 0) {
    throw InputError.at(
      file,
      'variants',
      'the file declares no variants, so there is nothing to compare: add a `variants:` list of named field changes (docs/commands.md, compare), or try values of one field with `crucible sweep --set <field>=<a>,<b>`',
    );
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

export function registerCompare(program: Command, io: Io, env: NodeJS.ProcessEnv, setStatus: (status: number) => void): void {
  common(
    program
      .command('compare')
      .description(
        'compare a variant of a scenario with the scenario as written (or with another variant) on the same dice: both values, the difference variant − baseline with its 95% interval and p-value',
      )
      .argument('<scenario>', 'a scenario file that declares `variants` (- for standard input)')
      .addOption(
        listOption(
          '--variant <name>',
          'one variant (compared with the scenario as written, the baseline) or two (the first is the baseline); without it, the variants the file declares are listed',
        ),
      )
      .addOption(new Option('-n, --trials <count>', "trials (default: the scenario's)").argParser(parseTrials))
      .addOption(
        new Option('--method <method>', `mc: ${METHOD_WORDS.mc} (as \`crucible run\` by default); mc-dice: ${METHOD_WORDS['mc-dice']}`)
          .choices([...MONTE_CARLO_METHODS])
          .default(DEFAULT_MONTE_CARLO),
      )
      .addOption(listOption('--metric <name>', 'only these metrics (by name, e.g. winner,B.modelsLost)'))
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
  $ crucible compare fight.yaml --variant stand,pursue --metric winner --out difference.csv`,
    )
    .action(async (file: string, options: CompareCommandOptions) => {
      const dataFile = await dataFileNamed(
        file,
        'compare takes a scenario file that declares variants (e.g. data/heroic/scenarios/sylvan-knights-formation.yaml)',
      );
      if (dataFile !== undefined) throw InputError.at(file, ROOT_PATH, dataFile);
      if (options.variant === undefined) {
        // Output meant for a program (a document, a file) cannot be a listing: that is a missing option.
        const listing = await variantListing(file);
        if (options.json === true || options.out !== undefined || options.report !== undefined) {
          throw InputError.at(
            file,
            '--variant',
            `missing: name one variant to compare with the scenario as written, or two (the baseline first); the file declares ${listing.names.join(', ')}`,
          );
        }
        io.stdout(listing.text);
        return;
      }
      if (options.variant.length > 2)
        throw InputError.at(file, '--variant', `takes one or two names (the baseline first), got ${options.variant.length}`);
      checkOut(options);
      const [first, second] = options.variant;
      const [baseline, variant] = second === undefined ? [undefined, first as string] : [first, second];
      if (baseline === variant)
        throw InputError.at(file, '--variant', `${variant} twice: a variant compared with itself differs in nothing`);
      // Compare runs on this thread: its session has no pool, only the signal its loop listens to between shards.
      const session = sessionOf(io, env, options, { command: 'compare', file, unit: 'trials' });
      const outcome = await inSession(session, () =>
        compareVariants(file, baseline, variant, {
          method: options.method,
          onProgress: session.progress,
          signal: session.signal,
          plugins: trustOf(options),
          ...(options.seed === undefined ? {} : { seed: options.seed }),
          ...(options.trials === undefined ? {} : { trials: options.trials }),
          ...(options.metric === undefined ? {} : { metrics: options.metric }),
        }),
      );
      if ('status' in outcome) {
        setStatus(outcome.status);
        return;
      }
      const result = outcome.result;
      const document = compareDocument(result);
      const printout = comparisonPrintout(result);
      const printed = await writeOut(options, printout, io);
      if (options.report !== undefined) io.stderr(`report: ${await writeReport(document, options.report)}\n`);
      if (!printed) io.stdout(options.json === true ? `${JSON.stringify(document, null, 2)}\n` : printDocument(printout, 'text'));
    });
}
