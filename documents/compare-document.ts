import { z } from 'zod';
import { provenanceJson } from '../input/provenance.js';
import { fieldSchema, intervalSchema, pluginSchema } from './document-parts.js';
import type { ComparedOutcome, ComparedVariant, ComparisonResult } from '../analysis/compare.js';
import { METHOD_WORDS, MONTE_CARLO_METHODS } from '../sim/methods.js';

/**
 * `crucible compare --json`: a comparison as one self-describing document — what was compared, how
 * (seed, trials, method, paired dice), each variant's changes in words and its provenance, and every
 * outcome's numbers at full precision — from which `crucible report` can build a page. The schema
 * checks a document read back; numbers JSON cannot hold (an infinite factor, the unbounded interval
 * of a single trial) are null, as each field's description says.
 */
const interval = intervalSchema;

const variantSchema = z.object({
  name: z.string().describe('the variant\'s name, or "(as written)" for the scenario without changes'),
  asWritten: z.boolean(),
  description: z.string().optional(),
  changes: z.array(z.object({ field: fieldSchema, value: z.unknown() })).describe('the fields the variant sets, and to what'),
  ruleset: z.string(),
  engineVersion: z.string(),
  mode: z.string().optional(),
  rulesChanged: z.record(z.string(), z.unknown()).optional().describe("rule constants set to other than the text's value"),
  unitsDigest: z.string().describe('SHA-256 of the unit profiles the kernel read'),
  bundledData: z
    .record(z.string(), z.string())
    .optional()
    .describe("data fields read from crucible's bundled data, their default leading nowhere beside the scenario: field → path"),
  plugin: pluginSchema.optional(),
});

const estimateSchema = z.object({
  estimate: z.number().describe('the probability, or the mean'),
  variance: z.number().min(0).describe('per-trial sample variance'),
  interval: interval.describe('95%: Wilson for a probability, t for a mean'),
});

const outcomeSchema = z.object({
  metric: z.string().describe("the metric's name (what --metric takes)"),
  kind: z.enum(['count', 'category', 'flag']),
  description: z.string().describe("the metric's description"),
  title: z.string().describe('the outcome in words'),
  label: z.string().optional().describe('a category\'s label, or "yes" for a flag'),
  value: z.number().int().min(0).optional().describe("the label's code"),
  measure: z.enum(['probability', 'mean']),
  baseline: estimateSchema,
  variant: estimateSchema,
  difference: z
    .object({
      estimate: z.number(),
      standardError: z.number().min(0),
      interval: z
        .object({ low: z.number().nullable(), high: z.number().nullable() })
        .describe('95% t interval; null bounds: unbounded (a single trial)'),
      pValue: z.number().min(0).max(1).describe('two-sided paired t test of no difference'),
    })
    .describe('variant − baseline, paired trial by trial'),
  unpairedTrialsFactor: z
    .number()
    .min(0)
    .nullable()
    .describe(
      'how many times more trials independent dice would need for the same precision; null: infinitely many (pairing removed all the noise)',
    ),
  neverSeen: z.boolean().describe('0 in every trial of both variants'),
});

export const compareDocumentSchema = z.object({
  kind: z.literal('compare'),
  scenario: z.string(),
  description: z.string().optional(),
  file: z.string(),
  ruleset: z.string(),
  engineVersion: z.string(),
  method: z.enum(MONTE_CARLO_METHODS).describe(MONTE_CARLO_METHODS.map((method) => `${method}: ${METHOD_WORDS[method]}`).join('; ')),
  seed: z.number().int().min(0),
  trials: z.number().int().min(1),
  paired: z
    .boolean()
    .describe('true: trial t of both variants starts from the same dice, the baseline drawing exactly as `crucible run` does'),
  sameScenario: z
    .boolean()
    .optional()
    .describe(
      'true: the variants are one scenario once their changes are made (the variant changes nothing the rules read), so every result is identical',
    ),
  pairingVersion: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "how the two variants drew their random numbers: 2 = every trial's numbers are its own (paired, the variant rereads the baseline's numbers of the trial and draws any more from streams of its own); absent in documents written before it (1: the variant's extra numbers were those the next baseline trial read), whose results for the same seed can differ",
    ),
  baseline: variantSchema,
  variant: variantSchema,
  metrics: z.array(z.string()).describe('the metrics compared, in order'),
  outcomes: z.array(outcomeSchema),
});
export type CompareDocument = z.output<typeof compareDocumentSchema>;

const finiteOrNull = (value: number): number | null => (Number.isFinite(value) ? value : null);

function variantJson(variant: ComparedVariant): z.input<typeof variantSchema> {
  const { name, asWritten, description, changes } = variant;
  return {
    name,
    asWritten,
    ...(description === undefined ? {} : { description }),
    changes: changes.map((change) => ({ field: { ...change.field }, value: change.value })),
    ...provenanceJson(variant),
  };
}

function outcomeJson(outcome: ComparedOutcome): z.input<typeof outcomeSchema> {
  const estimate = (side: ComparedOutcome['baseline']) => ({
    estimate: side.mean,
    variance: side.variance,
    interval: { ...side.interval },
  });
  const { difference } = outcome;
  return {
    metric: outcome.metric,
    kind: outcome.kind,
    description: outcome.description,
    title: outcome.title,
    ...(outcome.label === undefined ? {} : { label: outcome.label }),
    ...(outcome.value === undefined ? {} : { value: outcome.value }),
    measure: outcome.measure,
    baseline: estimate(outcome.baseline),
    variant: estimate(outcome.variant),
    difference: {
      estimate: difference.mean,
      standardError: difference.standardError,
      interval: { low: finiteOrNull(difference.interval.low), high: finiteOrNull(difference.interval.high) },
      pValue: difference.pValue,
    },
    unpairedTrialsFactor: finiteOrNull(outcome.unpairedTrialsFactor),
    neverSeen: outcome.neverSeen,
  };
}

/** The document of a comparison, checked against its schema. */
export function compareDocument(result: ComparisonResult): CompareDocument {
  return compareDocumentSchema.parse({
    kind: 'compare',
    scenario: result.scenario,
    ...(result.description === undefined ? {} : { description: result.description }),
    file: result.file,
    ruleset: result.ruleset,
    engineVersion: result.engineVersion,
    method: result.method,
    seed: result.seed,
    trials: result.trials,
    paired: result.paired,
    ...(result.sameScenario ? { sameScenario: true } : {}),
    pairingVersion: result.pairingVersion,
    baseline: variantJson(result.baseline),
    variant: variantJson(result.variant),
    metrics: [...result.metrics],
    outcomes: result.outcomes.map(outcomeJson),
  });
}

/** Said when the variant changes nothing the rules read. */
export const SAME_SCENARIO_TEXT =
  'The two are the same scenario (the variant changes nothing the rules read): their results are identical in every trial.';
/** Said when the two gave the same result in every trial on every outcome. */
export const IDENTICAL_TEXT =
  'The two variants gave identical results in every trial, on every outcome compared: nothing tells them apart.';
