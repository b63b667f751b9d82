import { z } from 'zod';
import { seedField, trialsField } from './run-limits.js';

/**
 * The fields every scenario has, whatever its rule system — ruleset (the file key), name, description, seed and
 * trials — defined once, with their limits (run-limits.ts). Each rule system's scenario schema
 * spreads them into its own strict object: `...scenarioHeading(id)` first, `...runFields(noun)`
 * where its format puts the size of a run. Spread rather than `.extend`: each format keeps its
 * field order, which its JSON Schema, its README table, the workbench's form and the parsed
 * scenario (hashed into the kernel spec that checkpoints and queued runs are keyed by) all follow.
 */

/** What `ruleset:` says, in a built-in's format. */
export const RULE_SYSTEM_FIELD_DESCRIPTION = 'the rule system: it decides the rest of the format';

/** A scenario's opening fields: `ruleset` (the rule system's id), `name` and `description`. */
export function scenarioHeading<const Id extends string>(id: Id, idDescription: string = RULE_SYSTEM_FIELD_DESCRIPTION) {
  return {
    ruleset: z.literal(id).describe(idDescription),
    name: z.string().min(1).describe('shown in every result'),
    description: z.string().optional().describe('the question the scenario answers'),
  };
}

/** A scenario's `seed` and `trials`; `noun` names what one trial simulates ("fights", "games"). */
export const runFields = (noun: string) => ({ seed: seedField(), trials: trialsField(noun) });

/**
 * Those fields as every rule system's parsed scenario has them (`ruleset` whatever id, other fields
 * let through): what loading checks a plugin's scenario schema produced.
 */
export const scenarioBaseSchema = z.object({ ...scenarioHeading(''), ruleset: z.string().min(1), ...runFields('trials') });

/** The fields every scenario has (engine/rule-system.ts re-exports it). */
export type ScenarioBase = Readonly<z.output<typeof scenarioBaseSchema>>;
