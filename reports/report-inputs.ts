import { z } from 'zod';
import { intervalSchema, pluginSchema } from '../documents/document-parts.js';
import type { MetricSummary, ValueProbability } from '../statistics/summary.js';
import { fileSystemMessage, jsonNestingProblem, parseWith, readInputText } from '../input/data-file.js';

/** Saved results are KBs (a run's summary; 100 of them still under a few MB): 16 MB bounds the memory a report reads into; a device or a FIFO is refused whatever its size. */
const MAX_REPORT_INPUT_BYTES = 16 * 1024 * 1024;
import { InputError, type Problem, ROOT_PATH } from '../input/errors.js';
import { describeValue } from '../input/zod-issues.js';
import { ANSWER_METHODS, MONTE_CARLO_METHODS } from '../sim/methods.js';
import { type AnalysisDocument, isAnalysisKind, parseAnalysisDocument } from '../documents/analysis-documents.js';

/**
 * What `crucible report` reads: the JSON `crucible run --json` prints (one result, a list, or
 * several documents one after another) and the analysis commands' --json documents (`kind`:
 * matchups, compare, sweep, balance). Every problem of a file is found at once, as
 * `<file>: <path>: <problem>`. Only zod here: the charts load after every file has passed.
 */
/**
 * What one page can show, bounded so crafted results cannot stall or crash the charts (vega nests
 * an expression per value: a thousand labels overflow its stack): values of one metric, metrics of
 * one result, and the length of names and labels. Every bundled rule system stays far inside them.
 */
export const REPORT_LIMITS = { values: 500, metrics: 1_000, name: 1_000, text: 10_000, results: 100 } as const;
const name = z.string().max(REPORT_LIMITS.name, `must be at most ${REPORT_LIMITS.name} characters long (a report's limit)`);
const text = z.string().max(REPORT_LIMITS.text, `must be at most ${REPORT_LIMITS.text} characters long (a report's limit)`);
const values = <T extends z.ZodType>(item: T) =>
  z.array(item).max(REPORT_LIMITS.values, `a report charts at most ${REPORT_LIMITS.values} values of a metric`);

const interval = intervalSchema;
const valueProbability = z.object({
  value: z.number().int(),
  label: name.optional(),
  count: z.number().int().min(0),
  probability: z.number().min(0).max(1),
  interval,
});
const metricSchema = z.object({
  name: name.min(1),
  kind: z.enum(['category', 'flag', 'count']),
  description: text,
  trials: z.number().int().min(1),
  mean: z.number(),
  sd: z.number().min(0),
  standardError: z.number().min(0),
  meanInterval: interval,
  distribution: values(valueProbability).min(1),
  atLeast: values(valueProbability),
});
// An exact summary sampled nothing: `crucible run --json` writes its trials as null and no counts
// (results saved before that have 0s). Read back, it has 0 trials, which is how charts.ts tells it apart.
const NOTHING_SAMPLED = 'must be null in an exact result (nothing was sampled)';
const exactValueProbability = valueProbability.extend({
  count: z
    .number()
    .refine((count) => count === 0, NOTHING_SAMPLED)
    .optional(),
});
const exactMetricSchema = metricSchema.extend({
  trials: z.union([z.null(), z.number()]).refine((trials) => trials === null || trials === 0, NOTHING_SAMPLED),
  distribution: values(exactValueProbability).min(1),
  atLeast: values(exactValueProbability),
});
const precisionSchema = z.object({ target: z.number(), maxTrials: z.number(), reached: z.boolean(), widestHalfWidth: z.number() });
const runFields = {
  scenario: text,
  file: text,
  ruleset: z.string(),
  engineVersion: z.string(),
  mode: z.string().optional(),
  // Provenance (input/provenance.ts); results saved before it existed have none.
  rulesChanged: z.record(z.string(), z.unknown()).optional(),
  unitsDigest: z.string().optional(),
  plugin: pluginSchema.optional(),
};
const exactResultSchema = z.object({
  ...runFields,
  method: z.literal('exact'),
  exact: z
    .object({ paths: z.number().int().min(1), errorBound: z.number().min(0) })
    .describe("how many paths one trial can take, and the bound on every probability's error"),
  metrics: z.array(exactMetricSchema).min(1).max(REPORT_LIMITS.metrics),
});
const monteCarloResultSchema = z.object({
  ...runFields,
  // Results saved before --method existed have none: Monte Carlo, method unknown.
  method: z.enum(MONTE_CARLO_METHODS).optional(),
  seed: z.number().int().min(0),
  trials: z.number().int().min(1),
  precision: precisionSchema.optional(),
  metrics: z.array(metricSchema).min(1).max(REPORT_LIMITS.metrics),
});
const resultSchema = z.discriminatedUnion('method', [exactResultSchema, monteCarloResultSchema]);
export type SavedResult = z.output<typeof resultSchema>;
export type ExactResult = z.output<typeof exactResultSchema>;
const METHODS: readonly unknown[] = [...ANSWER_METHODS, undefined];

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

const NOT_A_RESULT =
  'not a crucible result: expected what `crucible run --json` prints (an object with scenario, engineVersion, metrics and either seed and trials or method "exact", or a list of them), or what matchups, compare, sweep or balance print with --json (an object with its kind)';

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

/** MetricSummary without zod's `| undefined` on optional fields (exactOptionalPropertyTypes); an exact metric with 0 trials and counts. */
export function asSummary(metric: z.output<typeof metricSchema> | z.output<typeof exactMetricSchema>): MetricSummary {
  type Entry = z.output<typeof valueProbability> | z.output<typeof exactValueProbability>;
  const entry = (value: Entry): ValueProbability => {
    const { label, count, ...rest } = value;
    return { ...rest, count: count ?? 0, ...(label === undefined ? {} : { label }) };
  };
  return {
    ...metric,
    trials: metric.trials ?? 0,
    distribution: (metric.distribution as readonly Entry[]).map(entry),
    atLeast: (metric.atLeast as readonly Entry[]).map(entry),
  };
}

/** A file's analysis documents, each with the file it came from. */
export interface FiledDocument {
  readonly file: string;
  readonly document: AnalysisDocument;
}

export interface ReportInputs {
  readonly results: SavedResult[];
  readonly documents: FiledDocument[];
}

/** Every run result and analysis document of one saved file; every problem of the file at once. */
export async function readReportInputs(file: string): Promise<ReportInputs> {
  let text: string;
  try {
    text = (await readInputText(file, MAX_REPORT_INPUT_BYTES)).replace(/^\uFEFF/, '');
  } catch (error) {
    throw InputError.at(file, ROOT_PATH, fileSystemMessage(error));
  }
  // Nesting is refused before JSON.parse builds it: 16 MB of `[[[…` took 923 MB.
  const tooDeep = jsonNestingProblem(file, text);
  if (tooDeep !== undefined) throw new InputError([tooDeep]);
  const documents = jsonDocuments(file, text);
  const results: SavedResult[] = [];
  const analyses: FiledDocument[] = [];
  const problems: Problem[] = [];
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
      if (typeof item === 'object' && item !== null && !Array.isArray(item) && 'kind' in item) {
        // An analysis command's document: its kind names its schema.
        const kind: unknown = item.kind;
        if (!isAnalysisKind(kind)) {
          problems.push({
            file,
            path: at('kind'),
            message: `must be "matchups", "compare", "sweep" or "balance" (what those commands print with --json), got ${describeValue(kind)}`,
          });
          return;
        }
        const parsed = parseAnalysisDocument(file, kind, item);
        problems.push(...parsed.problems.map((problem) => ({ ...problem, path: at(problem.path) })));
        if (parsed.value !== undefined) analyses.push({ file, document: parsed.value });
        return;
      }
      if (typeof item !== 'object' || item === null || Array.isArray(item) || !('metrics' in item || 'scenario' in item)) {
        problems.push({ file, path: at(ROOT_PATH), message: NOT_A_RESULT });
        return;
      }
      const schema = schemaFor(item);
      if (schema === undefined) {
        problems.push({
          file,
          path: at('method'),
          message: `must be "exact", "mc" or "mc-dice" (or absent: Monte Carlo), got ${describeValue((item as { method?: unknown }).method)}`,
        });
        return;
      }
      const parsed = parseWith(schema, file, item);
      problems.push(...parsed.problems.map((problem) => ({ ...problem, path: at(problem.path) })));
      if (parsed.value !== undefined) results.push(parsed.value);
    });
  });
  if (problems.length > 0) throw new InputError(problems);
  return { results, documents: analyses };
}
