import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import type { MetricSummary, ValueProbability } from '../../analysis/summary.js';
import type { PageSection, PageTable, Provenance, ReportPage } from '../../reports/page.js';
import { fileSystemMessage, parseWith } from '../../sim/data-file.js';
import { InputError, type InputProblem, ROOT_PATH } from '../../sim/errors.js';
import { loadScenarioFile } from '../../sim/scenario-file.js';
import { describeValue } from '../../sim/zod-issues.js';
import { compactDistribution, groupThousands, percent } from '../format.js';
import { EXIT_BAD_INPUT, EXIT_OK, type Io } from './io.js';

/** The report modules load vega and resvg: only `crucible report` pays for that, not every command. */
const reports = async () => {
  const [{ distributionChart }, { slugify, writePage }] = await Promise.all([import('../../reports/charts.js'), import('../../reports/page.js')]);
  return { distributionChart, slugify, writePage };
};

/** Where the report goes unless --out says otherwise (reports/page.ts's default). */
const DEFAULT_REPORT_DIRECTORY = 'reports';

/**
 * `crucible report <results…>`: one HTML page from the JSON that `crucible run --json` printed
 * (one document per scenario, an array of them, or several such documents one after another),
 * with a distribution chart for every category and flag metric and a table of every metric.
 */

export interface ReportOptions {
  readonly out?: string;
  readonly title?: string;
  readonly slug?: string;
}

const interval = z.object({ low: z.number(), high: z.number() });
const valueProbability = z.object({
  value: z.number().int(),
  label: z.string().optional(),
  count: z.number().int().min(0),
  probability: z.number().min(0).max(1),
  interval,
});
const metricSchema = z.object({
  name: z.string().min(1),
  kind: z.enum(['category', 'flag', 'count']),
  description: z.string(),
  trials: z.number().int().min(1),
  mean: z.number(),
  sd: z.number().min(0),
  standardError: z.number().min(0),
  meanInterval: interval,
  distribution: z.array(valueProbability).min(1),
  atLeast: z.array(valueProbability),
});
// An exact summary sampled nothing: its trials (and counts) are 0, which is how charts.ts tells it apart.
const exactMetricSchema = metricSchema.extend({ trials: z.number().refine((trials) => trials === 0, 'must be 0 in an exact result (nothing was sampled)') });
const precisionSchema = z.object({ target: z.number(), maxTrials: z.number(), reached: z.boolean(), widestHalfWidth: z.number() });
const runFields = {
  scenario: z.string(),
  file: z.string(),
  ruleset: z.string(),
  engineVersion: z.string(),
  mode: z.string().optional(),
  // Provenance (sim/provenance.ts); results saved before it existed have none.
  rulesChanged: z.record(z.string(), z.unknown()).optional(),
  unitsDigest: z.string().optional(),
  plugin: z.object({ module: z.string(), id: z.string(), version: z.string(), codeHash: z.string() }).optional(),
};
const exactResultSchema = z.object({
  ...runFields,
  method: z.literal('exact'),
  exact: z.object({ paths: z.number().int().min(1), errorBound: z.number().min(0) }).describe("how many paths one trial can take, and the bound on every probability's error"),
  metrics: z.array(exactMetricSchema).min(1),
});
const monteCarloResultSchema = z.object({
  ...runFields,
  // Results saved before --method existed have none: Monte Carlo, method unknown.
  method: z.enum(['mc', 'mc-dice']).optional(),
  seed: z.number().int().min(0),
  trials: z.number().int().min(1),
  precision: precisionSchema.optional(),
  metrics: z.array(metricSchema).min(1),
});
const resultSchema = z.discriminatedUnion('method', [exactResultSchema, monteCarloResultSchema]);
type SavedResult = z.output<typeof resultSchema>;
type ExactResult = z.output<typeof exactResultSchema>;
const METHODS: readonly unknown[] = ['exact', 'mc', 'mc-dice', undefined];

/**
 * The branch of resultSchema an item picks by its `method`, or undefined for an unknown method.
 * Parsing against one branch names that shape's fields and their ranges in errors (zod-issues.ts
 * cannot see into a union: "missing required field "exact"", not zod's "invalid input"). An item
 * with an `exact` field but no method is taken as exact, so the error names the missing method
 * rather than a seed and trials it never had.
 */
function schemaFor(item: object): typeof exactResultSchema | typeof monteCarloResultSchema | undefined {
  const method: unknown = (item as { method?: unknown }).method;
  if (!METHODS.includes(method)) return undefined;
  return method === 'exact' || (method === undefined && 'exact' in item) ? exactResultSchema : monteCarloResultSchema;
}

const NOT_A_RESULT = 'not a crucible result: expected what `crucible run --json` prints (an object with scenario, engineVersion, metrics and either seed and trials or method "exact", or a list of them)';

/** Where JSON.parse failed in `text`: V8 (Node 20) gives a position, or quotes 10 characters either side of the token. */
function errorOffset(message: string, text: string): number | undefined {
  const position = /at position (\d+)/.exec(message)?.[1];
  if (position !== undefined) return Number(position);
  if (message.startsWith('Unexpected end of JSON input')) return text.length;
  const quoted = /^Unexpected token .*?, (\.\.\.)?"([\s\S]*?)"(\.\.\.)? is not valid JSON$/.exec(message);
  const context = quoted?.[2];
  if (context === undefined) return undefined;
  if (quoted?.[1] !== undefined) {
    const start = text.indexOf(context);
    return start < 0 ? undefined : start + 10;
  }
  return quoted?.[3] !== undefined ? Math.max(0, context.length - 10) : undefined;
}

/** The JSON documents of a file: one, or several written one after another (`cat a.json b.json`). */
function jsonDocuments(file: string, text: string): unknown[] {
  const documents: unknown[] = [];
  let rest = text;
  let offset = 0;
  while (rest.trim() !== '') {
    try {
      documents.push(JSON.parse(rest));
      return documents;
    } catch (error) {
      const message = (error as Error).message;
      const after = /^Unexpected non-whitespace character after JSON at position (\d+)/.exec(message);
      if (after?.[1] !== undefined) {
        const end = Number(after[1]);
        documents.push(JSON.parse(rest.slice(0, end)));
        offset += end;
        rest = rest.slice(end);
        continue;
      }
      const position = errorOffset(message, rest);
      const at = position === undefined ? undefined : offset + position;
      const lines = at === undefined ? [] : text.slice(0, at).split('\n');
      const where = at === undefined ? ROOT_PATH : `line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
      const what = message.replace(/ in JSON at position \d+[\s\S]*$/, '').replace(/, (\.\.\.)?"[\s\S]*$/, '');
      throw InputError.at(file, where, `invalid JSON: ${what}`);
    }
  }
  if (documents.length === 0) throw InputError.at(file, ROOT_PATH, 'the file is empty');
  return documents;
}

/** MetricSummary without zod's `| undefined` on optional fields (exactOptionalPropertyTypes). */
function asSummary(metric: z.output<typeof metricSchema> | z.output<typeof exactMetricSchema>): MetricSummary {
  const entry = (value: z.output<typeof valueProbability>): ValueProbability => {
    const { label, ...rest } = value;
    return label === undefined ? rest : { ...rest, label };
  };
  return { ...metric, distribution: metric.distribution.map(entry), atLeast: metric.atLeast.map(entry) };
}

/** Every result of one saved file; every problem of the file at once. */
export async function readResults(file: string): Promise<SavedResult[]> {
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    throw InputError.at(file, ROOT_PATH, fileSystemMessage(error));
  }
  const documents = jsonDocuments(file, text);
  const results: SavedResult[] = [];
  const problems: InputProblem[] = [];
  documents.forEach((document, d) => {
    const prefix = documents.length === 1 ? '' : `document ${d + 1}, `;
    const items = Array.isArray(document) ? document : [document];
    if (items.length === 0) problems.push({ file, path: `${prefix}${ROOT_PATH}`, message: 'an empty list: no results to report' });
    items.forEach((item, i) => {
      const base = Array.isArray(document) ? `[${i}]` : '';
      const at = (where: string): string => {
        const inside = where === ROOT_PATH ? '' : base === '' || where.startsWith('[') ? where : `.${where}`;
        return `${prefix}${base + inside || ROOT_PATH}`;
      };
      if (typeof item !== 'object' || item === null || Array.isArray(item) || !('metrics' in item || 'scenario' in item)) {
        problems.push({ file, path: at(ROOT_PATH), message: NOT_A_RESULT });
        return;
      }
      const schema = schemaFor(item);
      if (schema === undefined) {
        problems.push({ file, path: at('method'), message: `must be "exact", "mc" or "mc-dice" (or absent: Monte Carlo), got ${describeValue((item as { method?: unknown }).method)}` });
        return;
      }
      const parsed = parseWith(schema, file, item);
      problems.push(...parsed.problems.map((problem) => ({ ...problem, path: at(problem.path) })));
      if (parsed.value !== undefined) results.push(parsed.value);
    });
  });
  if (problems.length > 0) throw new InputError(problems);
  return results;
}

/**
 * The scenario file's description and options, if it still loads under the same name. The saved
 * result does not record them, so the options are labelled as read when the page was made.
 */
async function scenarioNotes(result: SavedResult): Promise<{ description?: string; options?: string }> {
  let scenario: { readonly name: string; readonly description?: unknown; readonly options?: unknown };
  try {
    scenario = (await loadScenarioFile(result.file)).scenario;
  } catch {
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
        rows.push([summary.name, 'mean', summary.mean.toFixed(3), exact ? '' : `${summary.meanInterval.low.toFixed(3)} – ${summary.meanInterval.high.toFixed(3)}`]);
        rows.push(['', 'P(=v)', '', compactDistribution(summary)]);
      }
      continue;
    }
    const shown = summary.kind === 'flag' ? summary.distribution.filter((entry) => entry.value === 1) : summary.distribution;
    shown.forEach((entry, i) => rows.push([i === 0 ? summary.name : '', entry.label ?? String(entry.value), percent(entry.probability), exact ? '' : interval95(entry)]));
  }
  return { columns: exact ? ['metric', 'value', 'exact', ''] : ['metric', 'value', 'estimate', '95% interval'], rows };
}

/** A metric's distribution; an exact one has no trial counts (they would all read 0) and no intervals. */
function distributionTable(summary: MetricSummary, exact: boolean): PageTable {
  if (exact) return { columns: ['value', 'exact probability'], rows: summary.distribution.map((entry) => [entry.label ?? String(entry.value), percent(entry.probability)]) };
  return {
    columns: ['value', 'trials', 'probability', '95% interval'],
    rows: summary.distribution.map((entry) => [entry.label ?? String(entry.value), entry.count, percent(entry.probability), interval95(entry)]),
  };
}

/** How a Monte Carlo result drew its trials; results saved before --method existed do not say. */
const MONTE_CARLO: Readonly<Record<'mc' | 'mc-dice' | 'unknown', string>> = {
  mc: 'Monte Carlo (outcomes drawn from exact tables)',
  'mc-dice': 'Monte Carlo (every die rolled)',
  unknown: 'Monte Carlo',
};

/** The page of a set of results. */
export async function resultsPage(results: readonly SavedResult[], files: readonly string[], options: ReportOptions = {}): Promise<ReportPage> {
  const first = results[0];
  if (first === undefined) throw new RangeError('a report page needs at least one result');
  const { distributionChart, slugify } = await reports();
  const slug = options.slug ?? slugify(files.length === 1 ? path.basename(files[0] ?? 'report', path.extname(files[0] ?? '')) : `${first.scenario}-and-${results.length - 1}-more`);
  const several = results.length > 1;
  const sections: PageSection[] = [];
  results.forEach((result, r) => {
    const metrics = result.metrics.map(asSummary);
    const exact = isExact(result);
    const lead = several ? `${result.scenario}: ` : '';
    for (const summary of metrics) {
      if (summary.kind === 'count') continue;
      const title = `${lead}${summary.name}`;
      // slugify() keeps 80 characters: shorten the page's part, or a long slug leaves every chart the same id.
      const own = slugify(`${r + 1}-${summary.name}`);
      const chart = distributionChart(summary, { title, id: slugify(`${slug.slice(0, Math.max(1, 79 - own.length))}-${own}`) });
      sections.push({ heading: title, text: summary.description, chart, table: distributionTable(summary, exact) });
    }
    const how = isExact(result)
      ? `exact: every outcome enumerated (${groupThousands(result.exact.paths)} paths; each probability within ${bound(result)})`
      : `${groupThousands(result.trials)} trials, seed ${result.seed}`;
    sections.push({ heading: `${lead}every metric`, text: `${result.scenario} (${result.file}): ${how}.`, table: metricsTable(metrics, exact) });
  });
  const provenance: Provenance[] = results.map((result) => {
    const run = { scenario: result.scenario, file: result.file, ruleset: result.ruleset, engineVersion: result.engineVersion };
    return isExact(result) ? { ...run, exact: result.exact } : { ...run, seed: result.seed, trials: result.trials };
  });
  const descriptions: (string | undefined)[] = [];
  // The interval sentence is for sampled results only: an exact page would otherwise claim intervals it does not show.
  const sampled = results.filter((result) => !isExact(result)).length;
  const methods: string[] = [];
  if (sampled > 0) methods.push(`${sampled === results.length ? 'Probabilities' : 'Monte Carlo probabilities'} are the share of trials with that outcome, with 95% Wilson score intervals; means have 95% t intervals.`);
  for (const result of results) {
    const changed = Object.entries(result.rulesChanged ?? {}).map(([name, value]) => `${name} ${JSON.stringify(value)}`);
    const rules = [
      `${result.scenario}: ${result.ruleset} rules (engine ${result.engineVersion})${result.mode === undefined ? '' : `, mode ${result.mode}`}`,
      result.plugin === undefined ? '' : `, a plugin (${result.plugin.module}, version ${result.plugin.version}, code sha256 ${result.plugin.codeHash.slice(0, 12)})`,
      changed.length === 0 ? '' : `, with rule constants changed from the text: ${changed.join(', ')}`,
    ].join('');
    const units = result.unitsDigest === undefined ? '' : ` Unit profiles used: sha256 ${result.unitsDigest.slice(0, 12)}.`;
    if (isExact(result)) {
      methods.push(`${rules}. Probabilities are exact (every path of one trial enumerated, float64, within ${bound(result)}; ${groupThousands(result.exact.paths)} paths): nothing was sampled, so there are no intervals or trial counts.${units}`);
    } else {
      const how = result.precision === undefined
        ? `a fixed ${groupThousands(result.trials)} trials`
        : `trials until every probability's 95% interval was within ±${percent(result.precision.target, 3)} (${result.precision.reached ? 'reached' : 'NOT reached'}: widest ±${percent(result.precision.widestHalfWidth, 4)})`;
      methods.push(`${rules}, ${MONTE_CARLO[result.method ?? 'unknown']}, seed ${result.seed}, ${how}.${units}`);
    }
    const notes = await scenarioNotes(result);
    if (notes.options !== undefined) methods.push(notes.options);
    descriptions.push(notes.description);
  }
  methods.push(`Built by crucible report from ${files.join(', ')}.`);
  return {
    slug,
    title: options.title ?? (!several ? first.scenario : results.length <= 3 ? results.map((result) => result.scenario).join('; ') : `${first.scenario} and ${results.length - 1} more scenarios`),
    question: several ? 'What happens in each of these scenarios, and how sure are we?' : (descriptions[0] ?? `What happens in “${first.scenario}”, and how sure are we?`),
    sections,
    provenance,
    methods,
  };
}

export async function reportCommand(files: readonly string[], options: ReportOptions, io: Io): Promise<number> {
  const results: SavedResult[] = [];
  const problems: InputProblem[] = [];
  for (const file of files) {
    try {
      results.push(...(await readResults(file)));
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(...error.problems);
    }
  }
  if (problems.length > 0) throw new InputError(problems);
  const out = options.out ?? DEFAULT_REPORT_DIRECTORY;
  const { writePage } = await reports();
  const page = await writePage(await resultsPage(results, files, options), out);
  io.stdout(`wrote ${page} (index: ${path.join(out, 'index.html')})\n`);
  return EXIT_OK;
}

export function registerReport(program: Command, io: Io, setStatus: (status: number) => void): void {
  program
    .command('report')
    .description('build an HTML report page (charts, tables, provenance) from saved `crucible run --json` results')
    .argument('<results...>', 'JSON files written by crucible run --json (one result, a list, or several documents one after another)')
    .option('-o, --out <dir>', 'report directory: the page, its charts, assets and index.html', DEFAULT_REPORT_DIRECTORY)
    .option('--title <text>', "the page's title (default: the scenario's name)")
    .option('--slug <name>', "the page's file name without .html (default: from the first file's name)")
    .addHelpText(
      'after',
      `
The page opens offline: charts are SVG images, made interactive by the vega bundles copied into
<dir>/assets/; each chart's Vega-Lite spec and a PNG are written beside it in <dir>/charts/.
<dir>/index.html lists every page written into <dir>.

Examples:
  $ crucible run data/heroic/scenarios --json --quiet > heroic.json
  $ crucible report heroic.json --out reports`,
    )
    .action(async (files: string[], options: ReportOptions) => {
      const { slugify } = await reports();
      if (options.slug !== undefined && slugify(options.slug) !== options.slug) {
        io.stderr(`error: --slug must be a file name of lower-case letters, digits, ".", "_" and "-", e.g. ${slugify(options.slug)}\n`);
        setStatus(EXIT_BAD_INPUT);
        return;
      }
      setStatus(await reportCommand(files, options, io));
    });
}
