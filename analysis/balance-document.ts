import { z } from 'zod';
import { intervalSchema } from './document-parts.js';
import type { CountBalance } from './balance.js';
import { matchupsDocumentSchema } from './matchups-document.js';
import { SEATINGS } from './matchups.js';
import { outcomeSchema } from './outcome.js';
import type { WholeUnitCosts } from './whole-unit-costs.js';

/**
 * `crucible balance --json`: fitted costs as one self-describing document, every number at full
 * precision — by count (a fit per unit, with its per-count and per-opponent tables) or, for a
 * roster fielded whole, the round robin's fitted strengths and costs. `crucible report` reads it back.
 */
const interval = intervalSchema;
const estimate = z.object({ value: z.number(), interval });
/** A fitted cost's interval: `high` null when the data bound it only from below. */
const costInterval = z.object({ low: z.number(), high: z.number().nullable() });
const observation = z.object({ opponent: z.string(), count: z.number().int().min(1), opponentCount: z.number().int().min(1), opponentPoints: z.number().min(0), first: outcomeSchema.optional(), second: outcomeSchema.optional(), combined: outcomeSchema });
const countBalance = z.object({
  ruleset: z.string(),
  engineVersion: z.string(),
  seed: z.number().int().min(0),
  unit: z.string(),
  name: z.string(),
  budget: z.number().positive(),
  publishedCost: z.number().min(0).optional(),
  fairCost: z.number().optional(),
  costInterval: costInterval.optional(),
  fairCount: z.number().optional(),
  fit: z
    .object({
      intercepts: z.array(z.object({ opponent: z.string(), opponentPoints: z.number(), alpha: z.number() })),
      beta: z.number(),
      dispersion: z.number(),
      degreesOfFreedom: z.number(),
      intervalBasis: z.enum(['simulation-noise', 'dispersion']),
    })
    .optional(),
  problem: z.string().optional(),
  curve: z.array(z.object({ count: z.number().int().min(1), score: estimate, trials: z.number().int().min(1) })),
  opponents: z.array(z.object({ opponent: z.string(), name: z.string(), count: z.number().int(), points: z.number(), fairCount: z.number().optional(), cost: z.number().optional() })),
  observations: z.array(observation),
  trials: z.number().int().min(0),
});
const common = {
  kind: z.literal('balance'),
  roster: z.string(),
  file: z.string(),
  ruleset: z.string(),
  engineVersion: z.string(),
  seed: z.number().int().min(0).optional(),
  precision: z.number().positive(),
  seating: z.enum(SEATINGS),
};
const byCountSchema = z.object({ ...common, fielded: z.literal('by-count'), budget: z.number().positive(), results: z.array(countBalance).min(1) });
const verdict = z.object({
  id: z.string(),
  name: z.string(),
  points: z.number(),
  strength: z.number(),
  strengthStandardError: z.number(),
  /** null when the line does not rise with points (no cost can be read off it). */
  fittedCost: z.number().nullable(),
  costInterval,
  residual: z.number(),
  studentizedResidual: z.number(),
  verdict: z.enum(['under-costed', 'fair', 'over-costed']),
});
const wholeSchema = z.object({
  ...common,
  fielded: z.literal('whole'),
  units: z.array(verdict).min(1),
  regression: z.object({ intercept: z.number(), slope: z.number(), slopeInterval: interval, residualSd: z.number(), degreesOfFreedom: z.number() }),
  drawParameter: z.number(),
  drawInterval: interval,
  seatAdvantage: z.number(),
  seatAdvantageStandardError: z.number(),
  converged: z.boolean(),
  matchups: matchupsDocumentSchema,
});
export const balanceDocumentSchema = z.discriminatedUnion('fielded', [byCountSchema, wholeSchema]);
export type BalanceDocument = z.output<typeof balanceDocumentSchema>;

interface DocumentHead {
  readonly roster: string;
  readonly file: string;
  readonly ruleset: string;
  readonly engineVersion: string;
  readonly seed?: number;
  readonly precision: number;
  readonly seating: (typeof SEATINGS)[number];
}

/** As JSON has it: an unbounded end of an interval (Infinity) is null. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, item: unknown) => (typeof item === 'number' && !Number.isFinite(item) ? null : item)));
}

export function countBalanceDocument(head: DocumentHead, budget: number, results: readonly CountBalance[]): BalanceDocument {
  return balanceDocumentSchema.parse(plain({ kind: 'balance', ...head, fielded: 'by-count', budget, results }));
}

export function wholeBalanceDocument(head: DocumentHead, costs: WholeUnitCosts): BalanceDocument {
  const { matchups, ...rest } = costs;
  return balanceDocumentSchema.parse(plain({ kind: 'balance', ...head, fielded: 'whole', ...rest, matchups: { kind: 'matchups', ...matchups } }));
}
