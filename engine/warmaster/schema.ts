import { z } from 'zod';
import { combatFlagsSchema, TROOP_TYPES } from './units.js';

/**
 * The Warmaster scenario format. There is no table geometry: a scenario states what the combat rules
 * measure — which stands touch an enemy and on which edge, supporting stands, open/defended/fortified
 * positions, blocked retreats, terrain a pursuer cannot enter — and the engine plays the rounds,
 * retreats, pursuits and advances (engine/warmaster/README.md). Units are army-list entries named
 * `<army>/<unit id>` from data/warmaster/armies. Every object is strict; cross-references are checked
 * in validate.ts.
 */

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes (e.g. "orcs-2")');
const nonNegativeInt = z.number().int().min(0);
const positiveInt = z.number().int().min(1);
const chance = z.number().min(0).max(1);
/** `<army>/<unit id>` as in data/warmaster/armies/<army>.yaml. */
export const unitReference = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/, 'must be "<army>/<unit id>", e.g. "empire/knights"');

/**
 * Stands of this unit touching enemy stands of one enemy unit, by the edge of this unit's stand that
 * the enemy touches. Every stand touching an enemy fights (Attacks: stands touching).
 */
export const contactSchema = z.strictObject({
  target: id.optional().describe('enemy unit these stands attack (default: the first engaged enemy unit)'),
  front: nonNegativeInt.default(0).describe('stands touching the enemy with their front edge: the only stands that can be supported'),
  flank: nonNegativeInt.default(0).describe('stands with an enemy front edge or corner on their side edge: −1 Attack'),
  rear: nonNegativeInt.default(0).describe('stands with an enemy front edge or corner on their rear edge or rear corner: −1 Attack'),
  corner: nonNegativeInt.default(0).describe('stands touching only corner-to-corner (no enemy front on their side or rear)'),
});

export const shootingSchema = z.strictObject({
  target: id.optional().describe('the charging (or advancing) enemy unit shot at (default: the first such unit it fights)'),
  attacks: nonNegativeInt.optional().describe('shooting dice (default: the unit\'s shooting Attacks × stands)'),
  hitOn: z.number().int().min(2).max(6).default(4).describe('D6 score to hit (4+ against a target in the open)'),
  armourOneWorse: z.boolean().optional().describe('the target\'s Armour counts one worse (default: the unit\'s shotsMakeArmourOneWorse flag)'),
});

export const blockedRetreatSchema = z.strictObject({
  chance: chance.default(1).describe('probability that a retreat of this unit is blocked'),
  stands: positiveInt.optional().describe('stands destroyed when it is (default: every stand)'),
});

export const POSITIONS = ['open', 'defended', 'fortified'] as const;

export const scenarioUnitSchema = z.strictObject({
  id: id.describe('unique in the scenario; names its metrics (e.g. orcs.standsLost) and is what a contact\'s target names'),
  unit: unitReference.describe('army-list entry, e.g. "orcs/orc-warriors"'),
  name: z.string().min(1).optional().describe('shown in results (default: the army list\'s name)'),
  stands: positiveInt.optional().describe('stands at the start (default: the unit size)'),
  hits: nonNegativeInt.default(0).describe('outstanding hits at the start'),
  charging: z.boolean().default(false).describe('charged this turn: +1 Attack (monsters and chariots +2) against enemy in the open in round 1'),
  irregular: z.boolean().default(false).describe('in irregular formation (infantry that charge it may pursue it although it is cavalry, chariots or flyers)'),
  position: z.enum(POSITIONS).optional().describe('open, defended (hit on 5+) or fortified (hit on 6); infantry and artillery only (default: open, or defended for units that always are)'),
  confused: z.boolean().default(false).describe('−1 Attack for every stand; cannot support'),
  characters: z.array(unitReference).default([]).describe('characters (and mounts) with the unit: the highest Attack bonus goes on one stand; a terrifying mount makes the unit terrifying'),
  flags: combatFlagsSchema.optional().describe('combat flags added to the army list\'s (e.g. {terror: true})'),
  armourPiercing: z.boolean().default(false).describe('its close-combat attacks make the enemy\'s Armour one worse (6+ becomes no save)'),
  contact: z
    .union([contactSchema, z.array(contactSchema).min(1)])
    .optional()
    .describe('stands touching enemy stands (a list when they touch several enemy units); omitted: the unit only supports, or waits in reserve'),
  supports: nonNegativeInt.default(0).describe('infantry stands not touching an enemy, placed behind or beside a friendly infantry stand fighting to its front: +1 to the combat result each'),
  supporting: id.optional().describe('the friendly infantry unit whose stands it supports (default: itself if it fights to its front, else the first friendly such unit)'),
  shootsAtChargers: z.union([z.literal(true), shootingSchema]).optional().describe('shoots at a charging (or advancing) enemy before round 1; its hits count toward round 1'),
  retreatBlocked: z.union([z.boolean(), chance, blockedRetreatSchema]).default(false).describe('its retreats are blocked (true, a probability, or {chance, stands})'),
  retreatTerrain: z.array(z.enum(TROOP_TYPES)).default([]).describe('troop types that cannot enter the terrain it retreats into, and so cannot pursue it'),
  reserve: z
    .strictObject({ chance: chance.default(1).describe('probability that an advance can reach it') })
    .optional()
    .describe('not in the first engagement: an enemy advance may meet it, chance being the probability that the advance reaches it (reserves are met in file order)'),
  newContact: contactSchema
    .omit({ target: true })
    .optional()
    .describe('its stands touching a new enemy: when it advances, or when it only supported and is pursued into contact (default: every stand to its front)'),
});

export const WINNER_POLICIES = ['pursue', 'pursue-while-ahead', 'stand', 'fall-back'] as const;
export type WinnerPolicy = (typeof WINNER_POLICIES)[number];

export const sideSchema = z.strictObject({
  name: z.string().min(1).describe('labels the side in results; the two names must differ (they name the winner)'),
  policy: z
    .enum(WINNER_POLICIES)
    .default('pursue')
    .describe('the winner\'s choice: pursue (or advance) whenever allowed; pursue-while-ahead: only while its side has lost no more stands than the enemy in this engagement; stand; fall-back'),
  units: z.array(scenarioUnitSchema).min(1).describe('its units, army-list entries'),
});

export const optionsSchema = z.strictObject({
  casualties: z
    .enum(['keep-fighting', 'keep-supports'])
    .default('keep-fighting')
    .describe('rulings §14: remaining stands fill fighting places before supporting ones (stands press forward), or the reverse'),
  shootingCasualties: z
    .enum(['before-combat', 'after-round-1'])
    .default('before-combat')
    .describe('rulings §15: stands destroyed by shooting at chargers are removed before they fight, or with round 1\'s casualties'),
  advanceChargeBonus: z
    .boolean()
    .default(false)
    .describe('rulings §17: the text\'s optional rule: a unit that destroyed its enemy in round 1 gets the charge bonus when it advances'),
});

export const scenarioSchema = z.strictObject({
  ruleset: z.literal('warmaster').describe('the rule system: it decides the rest of the format'),
  name: z.string().min(1).describe('shown in every result'),
  description: z.string().optional().describe('the question the scenario answers'),
  source: z.string().optional().describe('where the scenario comes from'),
  armies: z.string().default('../armies').describe('directory of army files, relative to the scenario file'),
  seed: z.number().int().min(0).max(4294967295).default(1).describe('random seed (crucible run --seed overrides it)'),
  trials: positiveInt.max(1e12).default(100000).describe('number of simulated engagements (crucible run --trials overrides it)'),
  maxTurns: positiveInt.max(50).default(6).describe('combat phases fought at most: an engagement still unresolved then is reported unresolved'),
  maxRounds: positiveInt
    .max(100)
    .optional()
    .describe('combat rounds fought at most: after that round\'s result and retreat (or draw) the engagement stops, with no pursuit or advance; 1 makes the scenario a single round, which `crucible run` answers exactly'),
  options: optionsSchema
    .default({ casualties: 'keep-fighting', shootingCasualties: 'before-combat', advanceChargeBonus: false })
    .describe('readings of the rules where the text leaves a gap'),
  sides: z.array(sideSchema).length(2).describe('the two sides'),
});

export type Contact = z.output<typeof contactSchema>;
export type Shooting = z.output<typeof shootingSchema>;
export type ScenarioUnit = z.output<typeof scenarioUnitSchema>;
export type Side = z.output<typeof sideSchema>;
export type WarmasterOptions = z.output<typeof optionsSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Position = (typeof POSITIONS)[number];
