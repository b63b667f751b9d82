import type { ColumnTable } from 'arquero';
import { z } from 'zod';
import { fieldSchema, intervalSchema, pluginSchema } from './document-parts.js';
import type { MetricSpec } from '../engine/kernel.js';
import { metricTitle, outcomeTitle } from '../input/field-labels.js';
import type { MetricSummary, ValueProbability } from '../statistics/summary.js';
import type { LabelledAxis, SweepPoint } from '../analysis/sweep.js';
import { ANSWER_METHODS, type Method, METHODS } from '../sim/methods.js';
import { tableOf } from './tables.js';

/**
 * `crucible sweep --json`: a sweep as one self-describing document — the scenario, the fields swept
 * (in words and as paths) and their values, how each point was answered (exact, or Monte Carlo with
 * its seed and trials) with its provenance, and every metric at every point at full precision —
 * from which `crucible report` can build a page. A category or flag is its labels' probabilities
 * (never a mean of its codes), a count its mean and distribution. An exact point sampled nothing:
 * its trials, counts and intervals are null rather than zeros that look like data.
 */
const interval = intervalSchema;

const entrySchema = z.object({
  value: z.number().int().min(0),
  label: z.string().optional().describe('a category\'s label, or "no"/"yes" for a flag'),
  probability: z.number().min(0).max(1),
  interval: interval.nullable().describe('95% Wilson interval; null at an exact point'),
  count: z.number().int().min(0).nullable().describe('trials with this value; null at an exact point'),
});

const countResultSchema = z.object({
  metric: z.string(),
  kind: z.literal('count'),
  mean: z.number(),
  sd: z.number().min(0),
  meanInterval: interval.nullable().describe('95% t interval; null at an exact point'),
  distribution: z.array(entrySchema).describe('the values that occurred'),
});
const labelledResultSchema = z.object({
  metric: z.string(),
  kind: z.enum(['category', 'flag']),
  distribution: z.array(entrySchema).describe('every label, seen or not'),
});
const metricResultSchema = z.discriminatedUnion('kind', [countResultSchema, labelledResultSchema]);

const pointSchema = z.object({
  values: z.array(z.unknown()).describe("the axes' values at this point, in axis order"),
  method: z.enum(ANSWER_METHODS),
  seed: z.number().int().min(0).nullable().describe('null at an exact point'),
  trials: z.number().int().min(1).nullable().describe('null at an exact point (nothing was sampled)'),
  exact: z
    .object({ paths: z.number().int().min(1), errorBound: z.number().min(0) })
    .nullable()
    .describe("paths enumerated and the bound on every probability's error; null for Monte Carlo"),
  mode: z.string().optional(),
  rulesChanged: z.record(z.string(), z.unknown()).optional().describe("rule constants set to other than the text's value at this point"),
  unitsDigest: z.string().describe('SHA-256 of the unit profiles the kernel read at this point'),
  results: z.array(metricResultSchema),
});

export const sweepDocumentSchema = z.object({
  kind: z.literal('sweep'),
  scenario: z.string(),
  description: z.string().optional(),
  file: z.string(),
  ruleset: z.string(),
  engineVersion: z.string(),
  plugin: pluginSchema.optional(),
  method: z.enum(METHODS).describe('as asked; each point says how it was answered'),
  precision: z
    .number()
    .positive()
    .nullable()
    .describe('Monte Carlo points ran until every probability was within ±precision; null: a fixed number of trials'),
  axes: z
    .array(z.object({ field: fieldSchema, values: z.array(z.unknown()) }))
    .min(1)
    .max(2),
  metrics: z
    .array(
      z.object({
        name: z.string(),
        kind: z.enum(['count', 'category', 'flag']),
        description: z.string(),
        title: z.string(),
        labels: z.array(z.string()).optional(),
      }),
    )
    .describe('the metrics reported, in order'),
  points: z.array(pointSchema).min(1),
});
export type SweepDocument = z.output<typeof sweepDocumentSchema>;
export type SweepDocumentPoint = z.output<typeof pointSchema>;
export type SweepMetricResult = z.output<typeof metricResultSchema>;

function entryJson(entry: ValueProbability, exact: boolean): z.input<typeof entrySchema> {
  return {
    value: entry.value,
    ...(entry.label === undefined ? {} : { label: entry.label }),
    probability: entry.probability,
    interval: exact ? null : { ...entry.interval },
    count: exact ? null : entry.count,
  };
}

function resultJson(summary: MetricSummary, exact: boolean): z.input<typeof metricResultSchema> {
  const distribution = summary.distribution.map((entry) => entryJson(entry, exact));
  if (summary.kind !== 'count') return { metric: summary.name, kind: summary.kind, distribution };
  return {
    metric: summary.name,
    kind: 'count',
    mean: summary.mean,
    sd: summary.sd,
    meanInterval: exact ? null : { ...summary.meanInterval },
    distribution,
  };
}

function pointJson(point: SweepPoint, metrics: readonly string[]): z.input<typeof pointSchema> {
  const { result } = point;
  const exact = point.method === 'exact';
  return {
    values: [...point.values],
    method: point.method,
    seed: point.method === 'exact' ? null : point.result.seed,
    trials: point.method === 'exact' ? null : point.result.trials,
    exact: point.method === 'exact' ? { paths: point.result.paths, errorBound: point.result.errorBound } : null,
    ...(result.mode === undefined ? {} : { mode: result.mode }),
    ...(result.rulesChanged === undefined ? {} : { rulesChanged: { ...result.rulesChanged } }),
    unitsDigest: result.unitsDigest,
    results: result.summary.filter((summary) => metrics.includes(summary.name)).map((summary) => resultJson(summary, exact)),
  };
}

export interface SweepDocumentInput {
  readonly file: string;
  readonly description?: string;
  readonly axes: readonly LabelledAxis[];
  readonly points: readonly SweepPoint[];
  /** The metrics to report (sweep.ts `sweptMetrics`). */
  readonly metrics: readonly string[];
  readonly method: Method;
  readonly precision?: number;
}

/** The document of a sweep, checked against its schema. */
export function sweepDocument(input: SweepDocumentInput): SweepDocument {
  const first = input.points[0];
  if (first === undefined) throw new RangeError('a sweep document needs at least one point');
  const specs = new Map<string, MetricSpec>();
  for (const point of input.points) for (const spec of point.result.metrics) if (!specs.has(spec.name)) specs.set(spec.name, spec);
  const metrics = input.metrics.flatMap((name) => {
    const spec = specs.get(name);
    return spec === undefined
      ? []
      : [
          {
            name,
            kind: spec.kind,
            description: spec.description,
            title: metricTitle(spec),
            ...(spec.labels === undefined ? {} : { labels: [...spec.labels] }),
          },
        ];
  });
  return sweepDocumentSchema.parse({
    kind: 'sweep',
    scenario: first.result.scenario,
    ...(input.description === undefined ? {} : { description: input.description }),
    file: input.file,
    ruleset: first.result.ruleset,
    engineVersion: first.result.engineVersion,
    ...(first.result.plugin === undefined ? {} : { plugin: { ...first.result.plugin } }),
    method: input.method,
    precision: input.precision ?? null,
    axes: input.axes.map((axis) => ({ field: { ...axis.field }, values: [...axis.values] })),
    metrics,
    points: input.points.map((point) => pointJson(point, input.metrics)),
  });
}

/** One outcome of a metric at a point, as a report lists it. */
export interface SweptOutcome {
  /** In words, e.g. "Side whose enemies were all vanquished: Sylvan Knights". */
  readonly title: string;
  /** A category's label or a flag's "yes"; null for a count. */
  readonly label: string | null;
  readonly measure: 'mean' | 'probability';
  readonly estimate: number;
  /** 95%; null at an exact point. */
  readonly interval: { readonly low: number; readonly high: number } | null;
}

/** A metric's outcomes: a count's mean, a flag's "yes", each label of a category. */
export function outcomesOf(result: SweepMetricResult, metric: Pick<MetricSpec, 'name' | 'kind' | 'description'>): SweptOutcome[] {
  if (result.kind === 'count')
    return [{ title: metricTitle(metric), label: null, measure: 'mean', estimate: result.mean, interval: result.meanInterval }];
  const shown = result.kind === 'flag' ? result.distribution.filter((entry) => entry.value === 1) : result.distribution;
  return shown.map((entry) => {
    const label = entry.label ?? String(entry.value);
    return { title: outcomeTitle(metric, label), label, measure: 'probability', estimate: entry.probability, interval: entry.interval };
  });
}

/**
 * The sweep as a tidy table of numbers (`--out .csv/.json`): one row per point and outcome — the
 * axes' values (columns named by their fields in words), the metric, the outcome in words, what is
 * measured, the estimate and its 95% interval at full precision (empty at an exact point, which has
 * no sampling error), the trials (empty: exact) and the method.
 */
export function sweepTable(document: SweepDocument): ColumnTable {
  const rows: Record<string, unknown>[] = [];
  for (const point of document.points) {
    const head = Object.fromEntries(document.axes.map((axis, i) => [axis.field.label, point.values[i]]));
    for (const result of point.results) {
      const metric = document.metrics.find((candidate) => candidate.name === result.metric);
      if (metric === undefined) continue;
      for (const outcome of outcomesOf(result, metric)) {
        rows.push({
          ...head,
          metric: result.metric,
          outcome: outcome.title,
          label: outcome.label,
          measure: outcome.measure,
          estimate: outcome.estimate,
          low: outcome.interval?.low ?? null,
          high: outcome.interval?.high ?? null,
          trials: point.trials,
          method: point.method,
        });
      }
    }
  }
  return tableOf(rows);
}
