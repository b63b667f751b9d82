import path from 'node:path';
import { type Command, Option } from 'commander';
import { metricTitle } from '../../input/field-labels.js';
import { MEASURES, type Measure } from '../../documents/matchup-tables.js';
import type { MetricSummary, ValueProbability } from '../../statistics/summary.js';
import type { PageSection, PageTable, Provenance, ReportPage } from '../../reports/page.js';
import { DEFAULT_REPORT_DIRECTORY } from '../../reports/page-model.js';
import {
  asSummary,
  type ExactResult,
  type FiledDocument,
  readReportInputs,
  REPORT_LIMITS,
  type SavedResult,
} from '../../reports/report-inputs.js';
import { InputError, type Problem, ROOT_PATH } from '../../input/errors.js';
import { type TrustedPlugins, UntrustedPluginError } from '../../input/plugin-trust.js';
import { loadScenarioFile } from '../../input/scenario-file.js';
import { compactDistribution, percent } from '../../documents/format.js';
import { groupThousands } from '../../input/thousands.js';
import { methodText, type MonteCarloMethod } from '../../sim/methods.js';
import { EXIT_BAD_INPUT, EXIT_OK, type Io } from './io.js';
import { pluginOption, type Trusting, trustOf } from './plugins.js';
import { needing, REPORT_PACKAGES } from '../optional-packages.js';

/** The report modules load vega and resvg: only `crucible report` pays for that, not every command. */
const reports = async () => {
  const [{ distributionChart }, { slugify, writePage }, { writeAnalysisReport }] = await needing(REPORT_PACKAGES, () =>
    Promise.all([import('../../reports/charts.js'), import('../../reports/page.js'), import('../../reports/analysis-pages.js')]),
  );
  return { distributionChart, slugify, writePage, writeAnalysisReport };
};

/**
 * `crucible report <files…>`: HTML pages from saved JSON. Run results (what `crucible run --json`
 * printed: one document per scenario, an array of them, or several documents one after another)
 * make one page together, with a distribution chart for every category and flag metric and a table
 * of every metric. An analysis document (`matchups`, `compare`, `sweep` or `balance` with --json)
 * makes a page of its own (reports/analysis-pages.ts). The two cannot share a command: run results
 * are one page, analyses a page each, and --title/--slug could not say which they name.
 */

export interface ReportOptions {
  readonly out?: string;
  readonly title?: string;
  readonly slug?: string;
  /** Matchup heatmaps and matrices: what they show (default the expected score). */
  readonly show?: Measure;
  /** The plugin modules a result's scenario may run, to read its description (input/plugin-trust.ts); none when not given. */
  readonly plugins?: TrustedPlugins | undefined;
  /** Also print each page to a PDF beside it, on this paper (reports/pdf.ts). */
  readonly pdf?: boolean;
  readonly paper?: 'a4' | 'letter';
}

/**
 * The scenario file's description and options, if it still loads under the same name. The saved
 * result does not record them, so the options are labelled as read when the page was made.
 */
async function scenarioNotes(
  result: SavedResult,
  plugins: TrustedPlugins | undefined,
): Promise<{ description?: string; options?: string }> {
  let scenario: { readonly name: string; readonly description?: unknown; readonly options?: unknown };
  try {
    scenario = (await loadScenarioFile(result.file, { plugins })).scenario;
  } catch (error) {
    // A results file names its scenario, which may name a module: that says so rather than running it.
    if (error instanceof UntrustedPluginError) throw error;
    return {};
  }
  if (scenario.name !== result.scenario) return {};
  const notes: { description?: string; options?: string } = {};
  if (typeof scenario.description === 'string' && scenario.description.trim() !== '') notes.description = scenario.description.trim();
  const options = scenario.options;
  if (typeof options === 'object' && options !== null && Object.keys(options).length > 0) {
    const pairs = Object.entries(options).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    notes.options = `${result.scenario}: options in force as ${result.file} reads when this page was made (the saved result does not record them): ${pairs.join('; ')}.`;
  }
  return notes;
}

const interval95 = (entry: ValueProbability): string => `${percent(entry.interval.low)} – ${percent(entry.interval.high)}`;

const isExact = (result: SavedResult): result is ExactResult => result.method === 'exact';
/** An exact result's error bound as `crucible run` prints it: "8.4e-15". */
const bound = (result: ExactResult): string => `±${result.exact.errorBound.toExponential(1)}`;

/**
 * Every metric as rows: metric, value, estimate, 95% interval (as `crucible run` prints them). An
 * exact result has no sampling error: its interval column stays empty, as in `crucible run`.
 */
function metricsTable(metrics: readonly MetricSummary[], exact: boolean): PageTable {
  const rows: (readonly string[])[] = [];
  for (const summary of metrics) {
    if (summary.kind === 'count') {
      const only = summary.distribution.length === 1 ? summary.distribution[0] : undefined;
      if (only !== undefined) rows.push([summary.name, 'always', String(only.value), '']);
      else {
        rows.push([
          summary.name,
          'mean',
          summary.mean.toFixed(3),
          exact ? '' : `${summary.meanInterval.low.toFixed(3)} – ${summary.meanInterval.high.toFixed(3)}`,
        ]);
        rows.push(['', 'P(=v)', '', compactDistribution(summary)]);
      }
      continue;
    }
    const shown = summary.kind === 'flag' ? summary.distribution.filter((entry) => entry.value === 1) : summary.distribution;
    shown.forEach((entry, i) =>
      rows.push([
        i === 0 ? summary.name : '',
        entry.label ?? String(entry.value),
        percent(entry.probability),
        exact ? '' : interval95(entry),
      ]),
    );
  }
  return { columns: exact ? ['metric', 'value', 'exact', ''] : ['metric', 'value', 'estimate', '95% interval'], rows };
}

/** A metric's distribution; an exact one has no trial counts (they would all read 0) and no intervals. */
function distributionTable(summary: MetricSummary, exact: boolean): PageTable {
  if (exact)
    return {
      columns: ['value', 'exact probability'],
      rows: summary.distribution.map((entry) => [entry.label ?? String(entry.value), percent(entry.probability)]),
    };
  return {
    columns: ['value', 'trials', 'probability', '95% interval'],
    rows: summary.distribution.map((entry) => [
      entry.label ?? String(entry.value),
      entry.count,
      percent(entry.probability),
      interval95(entry),
    ]),
  };
}

/** How a Monte Carlo result drew its trials; results saved before --method existed do not say. */
const MONTE_CARLO: Readonly<Record<MonteCarloMethod | 'unknown', string>> = {
  mc: methodText('mc'),
  'mc-dice': methodText('mc-dice'),
  unknown: 'Monte Carlo',
};

/** The page of a set of results. */
export async function resultsPage(
  results: readonly SavedResult[],
  files: readonly string[],
  options: ReportOptions = {},
): Promise<ReportPage> {
  const first = results[0];
  if (first === undefined) throw new RangeError('a report page needs at least one result');
  const { distributionChart, slugify } = await reports();
  const slug =
    options.slug ??
    slugify(
      files.length === 1
        ? path.basename(files[0] ?? 'report', path.extname(files[0] ?? ''))
        : `${first.scenario}-and-${results.length - 1}-more`,
    );
  const several = results.length > 1;
  const sections: PageSection[] = [];
  results.forEach((result, r) => {
    const metrics = result.metrics.map(asSummary);
    const exact = isExact(result);
    const lead = several ? `${result.scenario}: ` : '';
    for (const summary of metrics) {
      if (summary.kind === 'count') continue;
      // The metric in words (its description); its name, which --metric and the JSON use, in the text.
      const words = metricTitle(summary);
      const title = `${lead}${words}`;
      // slugify() keeps 80 characters: shorten the page's part, or a long slug leaves every chart the same id.
      const own = slugify(`${r + 1}-${summary.name}`);
      const chart = distributionChart(summary, {
        title,
        percent: (probability) => percent(probability),
        id: slugify(`${slug.slice(0, Math.max(1, 79 - own.length))}-${own}`),
      });
      const said = summary.description.trim();
      const text =
        said === '' || said.toLowerCase() === words.toLowerCase() ? `Metric ${summary.name}.` : `Metric ${summary.name}: ${said}.`;
      sections.push({ heading: title, text, chart, table: distributionTable(summary, exact) });
    }
    const how = isExact(result)
      ? `exact: every outcome enumerated (${groupThousands(result.exact.paths)} paths; each probability within ${bound(result)})`
      : `${groupThousands(result.trials)} trials, seed ${result.seed}`;
    sections.push({
      heading: `${lead}every metric`,
      text: `${result.scenario} (${result.file}): ${how}.`,
      table: metricsTable(metrics, exact),
    });
  });
  const provenance: Provenance[] = results.map((result) => {
    const run = { scenario: result.scenario, file: result.file, ruleset: result.ruleset, engineVersion: result.engineVersion };
    return isExact(result) ? { ...run, exact: result.exact } : { ...run, seed: result.seed, trials: result.trials };
  });
  const descriptions: (string | undefined)[] = [];
  // The interval sentence is for sampled results only: an exact page would otherwise claim intervals it does not show.
  const sampled = results.filter((result) => !isExact(result)).length;
  const methods: string[] = [];
  if (sampled > 0)
    methods.push(
      `${sampled === results.length ? 'Probabilities' : 'Monte Carlo probabilities'} are the share of trials with that outcome, with 95% Wilson score intervals; means have 95% t intervals.`,
    );
  for (const result of results) {
    const changed = Object.entries(result.rulesChanged ?? {}).map(([name, value]) => `${name} ${JSON.stringify(value)}`);
    const rules = [
      `${result.scenario}: ${result.ruleset} rules (engine ${result.engineVersion})${result.mode === undefined ? '' : `, mode ${result.mode}`}`,
      result.plugin === undefined
        ? ''
        : `, a plugin (${result.plugin.module}, version ${result.plugin.version}, code sha256 ${result.plugin.codeHash.slice(0, 12)})`,
      changed.length === 0 ? '' : `, with rule constants changed from the text: ${changed.join(', ')}`,
    ].join('');
    const units = result.unitsDigest === undefined ? '' : ` Unit profiles used: sha256 ${result.unitsDigest.slice(0, 12)}.`;
    if (isExact(result)) {
      methods.push(
        `${rules}. Probabilities are exact (every path of one trial enumerated, float64, within ${bound(result)}; ${groupThousands(result.exact.paths)} paths): nothing was sampled, so there are no intervals or trial counts.${units}`,
      );
    } else {
      const how =
        result.precision === undefined
          ? `a fixed ${groupThousands(result.trials)} trials`
          : `trials until every probability's 95% interval was within ±${percent(result.precision.target, 3)} (${result.precision.reached ? 'reached' : 'NOT reached'}: widest ±${percent(result.precision.widestHalfWidth, 4)})`;
      methods.push(`${rules}, ${MONTE_CARLO[result.method ?? 'unknown']}, seed ${result.seed}, ${how}.${units}`);
    }
    const notes = await scenarioNotes(result, options.plugins);
    if (notes.options !== undefined) methods.push(notes.options);
    descriptions.push(notes.description);
  }
  methods.push(`Built by crucible report from ${files.join(', ')}.`);
  return {
    slug,
    title:
      options.title ??
      (!several
        ? first.scenario
        : results.length <= 3
          ? results.map((result) => result.scenario).join('; ')
          : `${first.scenario} and ${results.length - 1} more scenarios`),
    question: several
      ? 'What happens in each of these scenarios, and how sure are we?'
      : (descriptions[0] ?? `What happens in “${first.scenario}”, and how sure are we?`),
    sections,
    provenance,
    methods,
  };
}

/** Run results and analyses cannot share a command: the first file of each kind, named in one problem. */
function mixingProblem(results: readonly { file: string }[], documents: readonly FiledDocument[]): Problem | undefined {
  const [run] = results;
  const [analysis] = documents;
  if (run === undefined || analysis === undefined) return undefined;
  return {
    file: analysis.file,
    path: ROOT_PATH,
    message: `a ${analysis.document.kind} document cannot be reported together with run results (${run.file}): run results make one page between them, an analysis a page of its own; run crucible report once for each`,
  };
}

export async function reportCommand(files: readonly string[], options: ReportOptions, io: Io): Promise<number> {
  const results: (SavedResult & { readonly savedIn: string })[] = [];
  const documents: FiledDocument[] = [];
  const problems: Problem[] = [];
  for (const file of files) {
    try {
      const inputs = await readReportInputs(file);
      results.push(...inputs.results.map((result) => ({ ...result, savedIn: file })));
      documents.push(...inputs.documents);
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (results.length > REPORT_LIMITS.results) {
    problems.push({
      file: results[REPORT_LIMITS.results]?.savedIn ?? '',
      path: ROOT_PATH,
      message: `one page holds at most ${REPORT_LIMITS.results} results, and these files hold ${results.length}: report them in parts`,
    });
  }
  const mixed = mixingProblem(
    results.map((result) => ({ file: result.savedIn })),
    documents,
  );
  if (mixed !== undefined) problems.push(mixed);
  if (problems.length > 0) throw new InputError(problems);
  if (documents.length > 1 && (options.slug !== undefined || options.title !== undefined)) {
    io.stderr(
      `error: ${options.slug !== undefined ? '--slug' : '--title'} names one page, but these files hold ${documents.length} analysis documents, a page each: leave it out, or report one document at a time\n`,
    );
    return EXIT_BAD_INPUT;
  }
  const out = options.out ?? DEFAULT_REPORT_DIRECTORY;
  const { writePage, writeAnalysisReport } = await reports();
  const pages: string[] = [];
  if (documents.length > 0) {
    const pageOptions = {
      ...(options.slug === undefined ? {} : { slug: options.slug }),
      ...(options.title === undefined ? {} : { title: options.title }),
      ...(options.show === undefined ? {} : { measure: options.show }),
    };
    for (const { document } of documents) pages.push(await writeAnalysisReport(document, out, pageOptions));
  } else {
    pages.push(await writePage(await resultsPage(results, files, options), out));
  }
  for (const page of pages) io.stdout(`wrote ${page} (index: ${path.join(out, 'index.html')})\n`);
  if (options.pdf === true) {
    const { printPdfs } = await import('../../reports/pdf.js');
    for (const pdf of await printPdfs(pages, options.paper ?? 'a4')) io.stdout(`wrote ${pdf}\n`);
  }
  return EXIT_OK;
}

export function registerReport(program: Command, io: Io, setStatus: (status: number) => void): void {
  pluginOption(program.command('report'))
    .description(
      'build HTML report pages (charts, tables, provenance) from saved `crucible run --json` results, or from the --json of matchups, compare, sweep or balance',
    )
    .argument(
      '<files...>',
      'JSON files: crucible run --json output (one result, a list, or several documents one after another), or analysis documents; - for standard input',
    )
    .option('-o, --out <dir>', 'report directory: the pages, their charts, assets and index.html', DEFAULT_REPORT_DIRECTORY)
    .option('--title <text>', "the page's title (default: the scenario's or roster's name)")
    .option('--slug <name>', "the page's file name without .html (default: from the first file's name, or the analysis)")
    .option('--pdf', 'also print each page to a PDF beside it (landscape; headless Chromium: node scripts/setup-browser.mjs installs it)')
    .addOption(new Option('--paper <size>', "the PDF's paper").choices(['a4', 'letter']).default('a4'))
    .addOption(
      new Option('--show <measure>', 'matchup heatmaps and matrices: expected score (win + ½ draw), or P(win), P(draw), P(loss)')
        .choices([...MEASURES])
        .default('score'),
    )
    .addHelpText(
      'after',
      `
Run results make one page between them; each analysis document (matchups, compare, sweep, balance
--json) makes a page of its own. The two cannot be mixed in one command.

A page opens offline: charts are SVG images, made interactive by the vega bundles copied into
<dir>/assets/; each chart's Vega-Lite spec and a PNG are written beside it in <dir>/charts/.
<dir>/index.html lists every page written into <dir>.

Examples:
  $ crucible run data/heroic/scenarios --json --quiet > heroic.json
  $ crucible report heroic.json --out reports
  $ crucible run fight.yaml --json --quiet | crucible report -
  $ crucible matchups data/heroic/rosters/core.yaml --json > matchups.json
  $ crucible report matchups.json --show win
  $ crucible report matchups.json --pdf --paper letter   (also out/<slug>.pdf)`,
    )
    .action(async (files: string[], options: ReportOptions & Trusting) => {
      const { slugify } = await reports();
      if (options.slug !== undefined && slugify(options.slug) !== options.slug) {
        io.stderr(`error: --slug must be a file name of lower-case letters, digits, ".", "_" and "-", e.g. ${slugify(options.slug)}\n`);
        setStatus(EXIT_BAD_INPUT);
        return;
      }
      if (options.pdf === true) {
        // Said before any page is written, not after.
        const problem = (await import('../../reports/pdf.js')).pdfProblem();
        if (problem !== undefined) {
          io.stderr(`error: ${problem}\n`);
          setStatus(EXIT_BAD_INPUT);
          return;
        }
      }
      setStatus(await reportCommand(files, { ...options, plugins: trustOf(options) }, io));
    });
}
