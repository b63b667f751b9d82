import { z } from 'zod';
import type { CountCosts } from '../analysis/count-costs.js';
import { intervalSchema } from './document-parts.js';
import { matchupsDocumentSchema, playedSituationSchema } from './matchups-document.js';
import { PRICE_VERDICTS } from '../analysis/price-verdict.js';
import type { WholeUnitCosts } from '../analysis/whole-unit-costs.js';

/**
 * `crucible balance --json`: a price list as one self-describing document, every number at full
 * precision — units bought by count (analysis/count-costs.ts: prices from games at equal points,
 * checked by replaying them) or fielded whole (analysis/whole-unit-costs.ts: prices from a round
 * robin's strengths and the list's cost line, checked on held-out pairings). `crucible report`
 * reads it back. An interval's end the data cannot bound is null.
 */
const interval = intervalSchema;
const estimate = z.object({ value: z.number(), interval });
/** A cost's interval: `high` null when the data bound it only from below. */
const costInterval = z.object({ low: z.number(), high: z.number().nullable() });
const tolerance = z.object({ kind: z.enum(['percent', 'points']), value: z.number().min(0) });
const situationPrice = z.object({
  situation: z.string(),
  share: z.number().positive().max(1),
  deserved: z.number().optional(),
  interval: costInterval.optional(),
});

/** The columns every price row has (analysis/price-list.ts). */
const priceRow = {
  id: z.string(),
  name: z.string(),
  published: z.number().min(0),
  deserved: z.number().optional(),
  interval: costInterval.optional(),
  changePercent: z.number().optional(),
  verdict: z.enum(PRICE_VERDICTS).optional(),
  situations: z.array(situationPrice).optional(),
  mixSensitive: z.boolean().optional(),
  drivenBy: z.string().optional(),
  problem: z.string().optional(),
};

const countUnit = z.object({
  ...priceRow,
  count: z.number().optional(),
  status: z.enum(['priced', 'wins at 1 model', 'loses at the maximum']),
  publishedScore: estimate.optional(),
  curve: z.array(z.object({ count: z.number().int().min(1), score: estimate, fine: z.boolean() })),
  opponents: z.array(
    z.object({
      opponent: z.string(),
      name: z.string(),
      count: z.number(),
      fairCount: z.number().optional(),
      cost: z.number().optional(),
      status: z.enum(['priced', 'wins at 1 model', 'loses at the maximum']),
    }),
  ),
  check: z.object({ score: estimate, pass: z.boolean() }).optional(),
});

const line = z.object({
  situation: z.string().optional(),
  intercept: z.number(),
  slope: z.number(),
  slopeInterval: interval,
  scatter: z.number(),
  degreesOfFreedom: z.number(),
  noiseSd: z.number(),
});

const wholeUnit = z.object({
  ...priceRow,
  points: z.number(),
  strength: z.number(),
  strengthStandardError: z.number(),
  unusual: z.enum(['stronger', 'weaker']).optional(),
  lineWeight: z.number(),
  heldOutError: z.number().optional(),
});

const common = {
  kind: z.literal('balance'),
  roster: z.string(),
  file: z.string(),
  ruleset: z.string(),
  engineVersion: z.string(),
  seed: z.number().int().min(0),
  precision: z.number().positive(),
  tolerance,
  situations: z.array(playedSituationSchema).min(1),
};

const byCountSchema = z.object({
  ...common,
  fielded: z.literal('by-count'),
  scope: z.enum(['list', 'unit']),
  budget: z.number().positive(),
  maxCount: z.number().int().min(2),
  entries: z.array(z.object({ id: z.string(), name: z.string(), published: z.number() })).min(1),
  units: z.array(countUnit).min(1),
  check: z.object({ seed: z.number().int().min(0), passed: z.boolean(), misses: z.array(z.string()) }).optional(),
  trials: z.number().int().min(0),
  runs: z.number().int().min(0),
  runsBy: z.array(
    z.object({ purpose: z.enum(['search', 'answer', 'check']), runs: z.number().int().min(1), trials: z.number().int().min(1) }),
  ),
  converged: z.boolean(),
});

const wholeSchema = z.object({
  ...common,
  fielded: z.literal('whole'),
  units: z.array(wholeUnit).min(1),
  regression: line,
  situationLines: z.array(line).optional(),
  drawParameter: z.number(),
  drawInterval: interval,
  seatAdvantage: z.number(),
  seatAdvantageStandardError: z.number(),
  converged: z.boolean(),
  heldOut: z.object({
    folds: z.number().int(),
    pairings: z.number().int(),
    rmsError: z.number(),
    rmsNoise: z.number(),
    worst: z.array(z.object({ row: z.string(), column: z.string(), predicted: z.number(), played: z.number() })),
  }),
  matchups: matchupsDocumentSchema,
});

export const balanceDocumentSchema = z.discriminatedUnion('fielded', [byCountSchema, wholeSchema]);
export type BalanceDocument = z.output<typeof balanceDocumentSchema>;
export type CountBalanceDocument = Extract<BalanceDocument, { fielded: 'by-count' }>;
export type WholeBalanceDocument = Extract<BalanceDocument, { fielded: 'whole' }>;

interface DocumentHead {
  readonly roster: string;
  readonly file: string;
}

/** As JSON has it: an unbounded end of an interval (Infinity) is null. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'number' && !Number.isFinite(item) ? null : item)));
}

export function countBalanceDocument(head: DocumentHead, costs: CountCosts): CountBalanceDocument {
  return balanceDocumentSchema.parse(plain({ kind: 'balance', ...head, fielded: 'by-count', ...costs })) as CountBalanceDocument;
}

export function wholeBalanceDocument(head: DocumentHead, costs: WholeUnitCosts): WholeBalanceDocument {
  const { matchups, ...rest } = costs;
  return balanceDocumentSchema.parse(
    plain({
      kind: 'balance',
      ...head,
      fielded: 'whole',
      ruleset: matchups.ruleset,
      engineVersion: matchups.engineVersion,
      seed: matchups.seed,
      precision: matchups.precision,
      situations: matchups.situations,
      ...rest,
      matchups: { kind: 'matchups', ...matchups },
    }),
  ) as WholeBalanceDocument;
}
