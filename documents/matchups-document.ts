import { z } from 'zod';
import { intervalSchema, pluginSchema } from './document-parts.js';
import type { MatchupsResult } from '../analysis/matchups.js';
import { SEATINGS } from '../analysis/matchups.js';

const estimate = z.object({ value: z.number().min(0).max(1), interval: intervalSchema });
/** statistics/outcome.ts Outcome, as a document holds it. */
const outcomeSchema = z.object({
  trials: z.number().int().min(1),
  win: estimate,
  draw: estimate,
  loss: estimate,
  score: estimate,
  scoreVariance: z.number().min(0),
  seed: z.number().int().min(0).optional(),
});

export const playedSituationSchema = z.object({
  name: z.string(),
  share: z.number().positive().max(1),
  description: z.string().optional(),
  changes: z.array(z.object({ path: z.string(), value: z.unknown() })),
  leftOut: z.array(
    z.object({
      change: z.string(),
      field: z.string(),
      entries: z.array(z.object({ id: z.string(), runs: z.number().int().min(1), of: z.number().int().min(1) })),
    }),
  ),
});

/**
 * `crucible matchups --json`: the whole matrix as one self-describing document, every number at
 * full precision, which `crucible report` turns into a page. The schema checks a document read back.
 */

export const matchupsDocumentSchema = z.object({
  kind: z.literal('matchups'),
  roster: z.string(),
  file: z.string(),
  description: z.string().optional(),
  ruleset: z.string(),
  engineVersion: z.string(),
  mode: z.string().optional(),
  rulesChanged: z.record(z.string(), z.unknown()).optional(),
  plugin: pluginSchema.optional(),
  seating: z.enum(SEATINGS),
  seed: z.number().int().min(0),
  trialsPerSeat: z.number().int().min(1),
  precision: z.number().positive(),
  adaptive: z.literal(true).optional(),
  trialsInAll: z.number().int().min(0).optional(),
  entries: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        count: z.number().int().min(1),
        cost: z.number().min(0).optional(),
        points: z.number().min(0).optional(),
      }),
    )
    .min(1),
  cells: z
    .array(
      z.object({
        row: z.string(),
        column: z.string(),
        first: outcomeSchema.optional(),
        second: outcomeSchema.optional(),
        combined: outcomeSchema,
        situations: z
          .array(
            z.object({ situation: z.string(), first: outcomeSchema.optional(), second: outcomeSchema.optional(), combined: outcomeSchema }),
          )
          .optional(),
      }),
    )
    .min(1),
  /** The fights every pairing was played in, each with its share of the games (absent in documents written before situations). */
  situations: z.array(playedSituationSchema).min(1).optional(),
});
export type MatchupsDocument = z.output<typeof matchupsDocumentSchema>;

export function matchupsDocument(result: MatchupsResult): MatchupsDocument {
  // Through JSON: the readonly arrays of the result become the document's plain ones.
  return matchupsDocumentSchema.parse(JSON.parse(JSON.stringify({ kind: 'matchups', ...result })));
}
