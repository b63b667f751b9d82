import { z } from 'zod';
import { runFields, scenarioHeading } from '../scenario-base.js';
import { POSITIONS, WINNER_POLICIES } from './codes.js';
import { combatFlagsSchema, TROOP_TYPES } from './units.js';

export { POSITIONS, type Position, WINNER_POLICIES, type WinnerPolicy } from './codes.js';

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
  attacks: nonNegativeInt.optional().describe("shooting dice (default: the unit's shooting Attacks × stands)"),
  hitOn: z.number().int().min(2).max(6).optional().describe('D6 score to hit (default: rules.hitOnOpen, 4+: a charger is in the open)'),
  armourOneWorse: z
    .boolean()
    .optional()
    .describe("the target's Armour counts one worse (default: the unit's shotsMakeArmourOneWorse flag)"),
});

export const blockedRetreatSchema = z.strictObject({
  chance: chance.default(1).describe('probability that a retreat of this unit is blocked'),
  stands: positiveInt.optional().describe('stands destroyed when it is (default: every stand)'),
});

export const scenarioUnitSchema = z.strictObject({
  id: id.describe("unique in the scenario; names its metrics (e.g. orcs.standsLost) and is what a contact's target names"),
  unit: unitReference.describe('army-list entry, e.g. "orcs/orc-warriors"'),
  name: z.string().min(1).optional().describe("shown in results (default: the army list's name)"),
  stands: positiveInt.optional().describe('stands at the start (default: the unit size)'),
  hits: nonNegativeInt.default(0).describe('outstanding hits at the start'),
  charging: z
    .boolean()
    .default(false)
    .describe('charged this turn: +1 Attack (monsters and chariots +2; rules.chargeBonus) against enemy in the open in round 1'),
  irregular: z
    .boolean()
    .default(false)
    .describe('in irregular formation (infantry that charge it may pursue it although it is cavalry, chariots or flyers)'),
  position: z
    .enum(POSITIONS)
    .optional()
    .describe(
      'open, defended (hit on 5+, rules.hitOnDefended) or fortified (hit on 6, rules.hitOnFortified); infantry and artillery only (default: open, or defended for units that always are)',
    ),
  confused: z.boolean().default(false).describe('−1 Attack for every stand (rules.confusedPenalty); cannot support'),
  characters: z
    .array(unitReference)
    .default([])
    .describe(
      'characters (and mounts) with the unit: the highest Attack bonus goes on one stand; a terrifying mount makes the unit terrifying',
    ),
  flags: combatFlagsSchema.optional().describe("combat flags added to the army list's (e.g. {terror: true})"),
  armourPiercing: z
    .boolean()
    .default(false)
    .describe("its close-combat attacks make the enemy's Armour one worse (6+ becomes no save; rules.armourOneWorseFaces)"),
  contact: z
    .union([contactSchema, z.array(contactSchema).min(1)])
    .optional()
    .describe(
      'stands touching enemy stands (a list when they touch several enemy units); omitted: the unit only supports, or waits in reserve',
    ),
  supports: nonNegativeInt
    .default(0)
    .describe(
      'infantry stands not touching an enemy, placed behind or beside a friendly infantry stand fighting to its front: +1 to the combat result each (rules.supportBonus)',
    ),
  supporting: id
    .optional()
    .describe(
      'the friendly infantry unit whose stands it supports (default: itself if it fights to its front, else the first friendly such unit)',
    ),
  shootsAtChargers: z
    .union([z.literal(true), shootingSchema])
    .optional()
    .describe('shoots at a charging (or advancing) enemy before round 1; its hits count toward round 1'),
  retreatBlocked: z
    .union([z.boolean(), chance, blockedRetreatSchema])
    .default(false)
    .describe('its retreats are blocked (true, a probability, or {chance, stands})'),
  retreatTerrain: z
    .array(z.enum(TROOP_TYPES))
    .default([])
    .describe('troop types that cannot enter the terrain it retreats into, and so cannot pursue it'),
  reserve: z
    .strictObject({ chance: chance.default(1).describe('probability that an advance can reach it') })
    .optional()
    .describe(
      'not in the first engagement: an enemy advance may meet it, chance being the probability that the advance reaches it (reserves are met in file order)',
    ),
  newContact: contactSchema
    .omit({ target: true })
    .optional()
    .describe(
      'its stands touching a new enemy: when it advances, or when it only supported and is pursued into contact (default: every stand to its front)',
    ),
});

export const sideSchema = z.strictObject({
  name: z.string().min(1).describe('labels the side in results; the two names must differ (they name the winner)'),
  policy: z
    .enum(WINNER_POLICIES)
    .default('pursue')
    .describe(
      "the winner's choice: pursue (or advance) whenever allowed; pursue-while-ahead: only while its side has lost no more stands than the enemy in this engagement; stand; fall-back",
    ),
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
    .describe("rulings §15: stands destroyed by shooting at chargers are removed before they fight, or with round 1's casualties"),
  advanceChargeBonus: z
    .boolean()
    .default(false)
    .describe("rulings §17: the text's optional rule: a unit that destroyed its enemy in round 1 gets the charge bonus when it advances"),
});

/** A whole-number knob of `rules:` between `min` and `max`, defaulting to the text's value. */
const knob = (min: number, max: number, printed: number) => z.number().int().min(min).max(max).default(printed);

/**
 * The numbers the combat text (combat.adoc, cited by section) and the army lists' special rules fix,
 * each a knob defaulting to the printed value (rulings §12–18). The kernel, its outcome tables and
 * exact enumeration all read them from here through compile.ts.
 */
export const rulesSchema = z.strictObject({
  hitOnOpen: knob(1, 6, 4).describe(
    'D6 score to hit a target in the open, in combat and when shooting at chargers; also what alwaysHitsOn4 units need against any target (How to calculate damage: "normally four"; rulings §13)',
  ),
  hitOnDefended: knob(1, 6, 5).describe(
    'D6 score to hit a defended target, or one braced against a mounted charge (Defended & fortified troops: 5+; rulings §13)',
  ),
  hitOnFortified: knob(1, 6, 6).describe('D6 score to hit a fortified target (Defended & fortified troops: 6; rulings §13)'),
  chargeBonus: knob(0, 10, 1).describe(
    'Attacks per stand for a unit that charged, in the first round of the engagement against enemy in the open (Attack modifiers, Charging against enemy in the open: +1; rulings §12)',
  ),
  monsterChariotChargeBonus: knob(0, 10, 1).describe(
    'Attacks per stand monsters and chariots (and monsterChargeBonus units) add on top of chargeBonus (Attack modifiers, Monster/chariot charging: +1, "a total bonus of +2"; rulings §12)',
  ),
  pursuitBonus: knob(0, 10, 1).describe(
    'Attacks per stand of a unit that pursued, against the enemy it pursued (Attack modifiers, Pursuit attack: +1; rulings §12)',
  ),
  pursuitStepCm: knob(1, 100, 3).describe(
    "cm of the pursued enemy's retreat that earn a further pursuitStepBonus, per full step (Attack modifiers, Pursuit attack per full 3cm; rulings §12)",
  ),
  pursuitStepBonus: knob(0, 10, 1).describe(
    'Attacks per stand added for each full pursuitStepCm the pursued enemy retreated (Attack modifiers, Pursuit attack per full 3cm: +1; rulings §12)',
  ),
  terrorPenalty: knob(0, 10, 1).describe(
    'Attacks per stand lost fighting a terrifying enemy, unless terrifying or immune (Attack modifiers, Fighting terrifying enemy: −1; rulings §12)',
  ),
  flankRearPenalty: knob(0, 10, 1).describe(
    'Attacks per stand lost by stands with an enemy front on their side or rear (Attack modifiers, Enemy facing own side or rear: −1; rulings §12)',
  ),
  confusedPenalty: knob(0, 10, 1).describe('Attacks per stand lost by a confused unit (Attack modifiers, Confused: −1; rulings §12)'),
  lastDitchDice: knob(0, 10, 1).describe(
    'dice a unit rolls when its fighting stands\' Attacks are all 0 (The Last Ditch Dice: "one Attack dice"; rulings §12)',
  ),
  armourOneWorseFaces: knob(0, 6, 1).describe(
    'D6 faces an Armour counts worse against armourPiercing attacks and shots that make Armour one worse; past 6+ there is no save (army lists\' special rules: "one worse"; rulings §13)',
  ),
  supportBonus: knob(0, 10, 1).describe('added to the combat result per supporting stand (Support: "add +1"; rulings §15)'),
  retreatCmPerHit: knob(0, 20, 1).describe(
    'cm the loser retreats per point of difference in the combat results, before dividing by the losing units (One Side Scores More Hits – Win!: "1cm for each hit"; rulings §16)',
  ),
  minimumRetreat: knob(0, 100, 1).describe(
    'the shortest retreat, in cm (Retreats: "the minimum possible retreat is therefore 1cm"; rulings §16)',
  ),
  fallBackDice: knob(1, 10, 3).describe(
    'D6 rolled and added for the cm a side may fall back, after a draw or as a winner falling back (Hits Equal – Draw!; Fall backs: "rolling three dice"; rulings §16)',
  ),
  roundsPerTurn: knob(1, 10, 2).describe(
    'rounds an engagement fights in one Combat phase: a pursuit after the last leaves the combat unresolved until the next turn (Unresolved combats: "after two rounds"; rulings §17)',
  ),
  advancesPerPhase: knob(0, 10, 1).describe(
    'advances a unit may make in one Combat phase (Advance: "only allowed to advance once in a Combat phase"; rulings §17)',
  ),
  regenerationHits: knob(0, 10, 1).describe(
    'outstanding hits a regenerating unit removes after each round\'s casualties (army lists\' special rules, e.g. Trolls: "regenerate one outstanding hit"; rulings §18)',
  ),
  oneStandBonusAttacks: knob(0, 10, 1).describe("Attacks a bonusAttackOnOneStand unit adds to one stand (army lists' special rules: +1)"),
  firstRoundFrontBonusAttacks: knob(0, 10, 1).describe(
    "Attacks per stand a firstRoundFrontBonus unit adds in the first round for stands fighting to their front (army lists' special rules, e.g. Cold One Knights: +1)",
  ),
  vsMonstersBonusAttacks: knob(0, 10, 1).describe(
    "Attacks per stand a bonusAttackVsMonsters unit adds against a monster (army lists' special rules: +1)",
  ),
  chargeBonusD6Dice: knob(0, 10, 1).describe(
    'D6 a chargeBonusD6 unit rolls and adds as Attacks when it charges enemy in the open (army lists\' special rules: "+D6 Attacks")',
  ),
});

export const scenarioSchema = z.strictObject({
  ...scenarioHeading('warmaster'),
  source: z.string().optional().describe('where the scenario comes from'),
  armies: z
    .string()
    .default('../armies')
    .describe(
      'directory of army files, relative to the scenario file; left at its default with nothing there (a scenario outside data/warmaster/scenarios/), the bundled army lists',
    ),
  units: z
    .record(z.string().regex(/^[a-z0-9-]+\/[a-z0-9-]+$/, 'must be <army>/<unit id>'), z.record(z.string(), z.unknown()))
    .default({})
    .describe(
      'changes to army-list entries by <army>/<unit id> (e.g. { "orcs/orc-warriors": { attacks: 4 } }), or whole new entries: tried without editing the army files',
    ),
  ...runFields('engagements'),
  maxTurns: positiveInt
    .max(50)
    .default(6)
    .describe('combat phases fought at most: an engagement still unresolved then is reported unresolved'),
  maxRounds: positiveInt
    .max(100)
    .optional()
    .describe(
      "combat rounds fought at most: after that round's result and retreat (or draw) the engagement stops, with no pursuit or advance; 1 makes the scenario a single round, which `crucible run` answers exactly",
    ),
  options: optionsSchema
    .default({ casualties: 'keep-fighting', shootingCasualties: 'before-combat', advanceChargeBonus: false })
    .describe('readings of the rules where the text leaves a gap'),
  rules: rulesSchema
    .prefault({})
    .describe("the rule text's constants, each defaulting to the printed value; change one to try a house rule"),
  sides: z.array(sideSchema).length(2).describe('the two sides'),
});

export type Contact = z.output<typeof contactSchema>;
export type Shooting = z.output<typeof shootingSchema>;
export type ScenarioUnit = z.output<typeof scenarioUnitSchema>;
export type Side = z.output<typeof sideSchema>;
export type WarmasterOptions = z.output<typeof optionsSchema>;
export type Rules = z.output<typeof rulesSchema>;
/** The printed values: every knob at its default. */
export const PRINTED_RULES: Rules = rulesSchema.parse({});
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
