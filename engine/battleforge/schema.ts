import { z } from 'zod';
import { runFields, scenarioHeading } from '../scenario-base.js';
import { MAX_DICE_PER_ACTION } from '../validation.js';
import { CHARGE_REACTIONS, COVERS, PLANS, SHOOTING_REACTIONS } from './terms.js';

/**
 * The Battle Forge scenario format. No table geometry: units stand on one line between the two
 * sides, a scenario gives the distance between the sides and each unit's cover, and moves and
 * charges change distances along that line (engine/battleforge/README.md). Units are faction
 * entries named `<faction>/<unit id>` from data/battleforge/factions. Every object is strict.
 */

const id = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be lower-case letters, digits, dashes and underscores (e.g. "men-at-arms")');
const nonNegativeInt = z.number().int().min(0);
/** The most Shock a unit may start with: far past any unit's Courage (at most 10 on a D10). */
export const MAX_START_SHOCK = 100;
const positiveInt = z.number().int().min(1);
const chance = z.number().min(0).max(1);

export const unitReference = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*\/[a-z0-9][a-z0-9_-]*$/, 'must be "<faction>/<unit id>", e.g. "human_kingdoms/men_at_arms"');

export { COVERS, type Cover, PLANS, type Plan, SHOOTING_REACTIONS, CHARGE_REACTIONS } from './terms.js';

export const reactionsSchema = z.strictObject({
  toShooting: z
    .enum(SHOOTING_REACTIONS)
    .default('counter-attack')
    .describe('reaction tried when a Shoot action is declared against the unit'),
  toFighting: z
    .enum(SHOOTING_REACTIONS)
    .default('counter-attack')
    .describe('reaction tried when a Fight action is declared against the unit'),
  toCharge: z.enum(CHARGE_REACTIONS).default('overwatch').describe('reaction tried when a Charge is declared against the unit'),
  beforeActivating: z
    .boolean()
    .default(false)
    .describe('react also with units that have not activated yet (a reaction ends their round); units on Hold always react'),
});

export const scenarioUnitSchema = z.strictObject({
  id: id.describe('unique in the scenario; names its metrics, e.g. bowmen.modelsLost'),
  unit: unitReference.describe('faction entry, e.g. "human_kingdoms/men_at_arms"'),
  name: z.string().min(1).optional().describe("shown in results (default: the faction's name)"),
  // Bounded here too, not only by the loader's dice-per-action check: a queue worker checks a stored spec against this schema alone.
  models: z
    .union([positiveInt.max(MAX_DICE_PER_ACTION), z.record(z.string().min(1), nonNegativeInt.max(MAX_DICE_PER_ACTION))])
    .optional()
    .describe("a number (for a unit of one model type) or counts by model name (default: each type's minimum, at least 1)"),
  position: z.number().min(0).default(0).describe("inches forward of its side's line"),
  cover: z
    .enum(COVERS)
    .default('none')
    .describe('cover against shooting (Soft +1, Hard +2, Fortified +3, Negative −1 to Save; none at 3" or less)'),
  terrain: z.boolean().default(false).describe('attackers fight it across intervening terrain: −1 Strength'),
  // Bounded (issue 17): a rally rolls one test per Shock, and the Shock metric's histogram grows with it.
  shock: nonNegativeInt
    .max(MAX_START_SHOCK)
    .default(0)
    .describe(`Shock at the start (at most ${MAX_START_SHOCK}, ten times the highest Courage)`),
  focus: z.boolean().default(false).describe('starts with a Focus (from an earlier action): +1 on its next attack'),
  evade: z.boolean().default(false).describe('starts with an Evade token: −1 to the next attack against it'),
  plan: z.enum(PLANS).optional().describe("overrides the side's plan"),
  powers: z
    .array(z.string().regex(/^[a-z0-9][a-z0-9_-]*$/))
    .default([])
    .describe(
      "powers it knows (ids from the faction or index): its first action is a Power action casting them, up to its power rule's x, when one has a target in range",
    ),
  rallyAt: positiveInt.optional().describe("overrides the side's rallyAt"),
});

export const sideSchema = z.strictObject({
  name: z.string().min(1).describe('labels the side in results; the two names must differ (they name the winner)'),
  plan: z.enum(PLANS).default('shoot-then-charge').describe('what its units do with their two actions'),
  rallyAt: positiveInt
    .optional()
    .describe('rally when shaken: with this much Shock or more after activation tests, the first action is Rally'),
  bid: nonNegativeInt
    .default(0)
    .describe('Shock bid each round for the first activations (assigned to its units below half their Courage)'),
  reactions: reactionsSchema
    .default({ toShooting: 'counter-attack', toFighting: 'counter-attack', toCharge: 'overwatch', beforeActivating: false })
    .describe('the reaction its units try to each kind of attack declared against them'),
  units: z.array(scenarioUnitSchema).min(1).describe('its units, activated in file order'),
});

export const optionsSchema = z.strictObject({
  focusEvade: z
    .enum(['text', 'token'])
    .default('text')
    .describe(
      'rulings §24: Focus +1 Accuracy and Strength on the next attack, Evade −1 to both for one attack against it (text); or the later one-stat tokens',
    ),
  surrender: chance
    .default(0)
    .describe('rulings §22: chance that a broken unit cannot fall back 6" and surrenders (destroyed) rather than leaving the fight'),
  failedReaction: z
    .enum(['spends-round', 'keeps-actions'])
    .default('spends-round')
    .describe(
      "rulings §23: a failed reaction test still counts as the unit's reaction (no more actions this round), or it keeps its actions",
    ),
  allocation: z
    .enum(['finish-damaged', 'best-save-first'])
    .default('finish-damaged')
    .describe('rulings §20: the defender gives hits to damaged models first, or to the model with the best Save first'),
});

/** A count of Shock, dice faces or inches a knob may be set to: small and whole. */
const knob = (min: number, max: number) => z.number().int().min(min).max(max);

/**
 * The core rules' numbers (wargame-engine/battle-forge `data/rules.md`; rulings §19–25), each
 * defaulting to the printed value. compile.ts hands them to the kernel as `CompiledScenario.rules`
 * (and folds the cover bonuses, Rush, bid limit into per-unit numbers): the dice, the outcome tables
 * and exact enumeration all read the same values. Cross-field checks are in validate.ts.
 */
export const rulesSchema = z.strictObject({
  autoPassFace: knob(1, 9)
    .default(1)
    .describe(
      'a D10 showing this or less passes every test and save whatever the modifiers, in D10 faces (Dice And Modifiers: "Rolls of 1 are automatically passed"; rulings §19)',
    ),
  autoFailFace: knob(2, 10)
    .default(10)
    .describe(
      'a D10 showing this or more fails every test and save whatever the modifiers, and miscasts a power, in D10 faces (Dice And Modifiers; Save Rolls: Automatic Failures; Using Powers; rulings §19)',
    ),
  longRangePenalty: knob(0, 9).default(1).describe("Accuracy lost shooting beyond a weapon's short band, in D10 faces (Long Range: −1)"),
  focusBonus: knob(0, 9)
    .default(1)
    .describe("Accuracy and Strength a Focus adds to the unit's next attack, in D10 faces (Focus: +1; rulings §24)"),
  evadePenalty: knob(0, 9)
    .default(1)
    .describe('Accuracy and Strength lost by an attack on a unit that spends its Evade, in D10 faces (Evade: −1; rulings §24)'),
  terrainPenalty: knob(0, 9)
    .default(1)
    .describe('Strength lost fighting across intervening terrain, in D10 faces (Intervening Terrain: −1)'),
  softCover: knob(-9, 9).default(1).describe('Save bonus of Soft cover against shooting, in D10 faces (Soft Cover: +1)'),
  hardCover: knob(-9, 9).default(2).describe('Save bonus of Hard cover against shooting, in D10 faces (Hard Cover: +2)'),
  fortifiedCover: knob(-9, 9).default(3).describe('Save bonus of Fortified cover against shooting, in D10 faces (Fortified Cover: +3)'),
  negativeCover: knob(-9, 9)
    .default(-1)
    .describe('Save bonus (a negative one) of Negative cover against shooting, in D10 faces (Negative Cover: −1)'),
  pointBlankRange: z
    .number()
    .min(0)
    .max(48)
    .default(3)
    .describe('at this many inches or less a shot or power ignores cover (Point Blank Range: 3")'),
  accuracyPerShock: knob(0, 9).default(1).describe('Accuracy lost per Shock, in D10 faces (Effects of Shock: −1; rulings §21)'),
  strengthPerShock: knob(0, 9).default(1).describe('Strength lost per Shock, in D10 faces (Effects of Shock: −1; rulings §21)'),
  movementPerShock: knob(0, 12).default(1).describe('Movement lost per Shock, in inches (Effects of Shock: −1; rulings §21)'),
  initiativePerShock: knob(0, 9).default(1).describe('Initiative lost per Shock, in D10 faces (Effects of Shock: −1; rulings §21)'),
  shockWhenHit: knob(0, 10)
    .default(1)
    .describe(
      'Shock a unit gains from an attack that hits it, however many hits (Gaining Shock: a Shock when hit, "a maximum of one Shock" per unit attacking; rulings §21)',
    ),
  shockFromDestroyed: knob(0, 10)
    .default(1)
    .describe('Shock each unit gains when a unit near it is destroyed (Gaining Shock; rulings §21)'),
  destroyedShockRange: z
    .number()
    .min(0)
    .max(48)
    .default(3)
    .describe('how near, in inches, a destroyed unit gives Shock (Gaining Shock: "within 3"")'),
  failedReactionShock: knob(0, 10)
    .default(1)
    .describe("Shock a unit takes when it fails a reaction's Initiative test (Making A Reaction: 1 Shock; rulings §23)"),
  failedRushShock: knob(0, 10)
    .default(1)
    .describe('Shock a unit takes at the end of its move when it fails a Rush (Rushing: "takes a Shock")'),
  miscastShock: knob(0, 10)
    .default(2)
    .describe('Shock a caster gains when its power roll is an automatic failure (Using Powers: "On a roll of a 10 … 2 Shock")'),
  stopPowerRange: z
    .number()
    .min(0)
    .max(200)
    .default(24)
    .describe('how near, in inches, an enemy caster may try to stop a power (Stopping Powers: "within 24"")'),
  rushPercent: knob(0, 200)
    .default(50)
    .describe(
      'a passed Rush adds this % of the Movement characteristic, rounded down, to the charge (Rushing: "half its movement characteristic rounded down")',
    ),
  heavyLossPercent: knob(0, 100)
    .default(50)
    .describe(
      'a unit that loses more than this % of its models (of its Wounds, for Wounds(x) models) in one attack takes a break test (Break Tests: "more than half"; rulings §22)',
    ),
  bidLimitPercent: knob(0, 200)
    .default(50)
    .describe(
      'bid Shock may be given to a unit only while its Shock stays strictly below this % of its Courage (Shock Limit: "below half their Courage"; rulings §25)',
    ),
  actionsPerActivation: knob(1, 4)
    .default(2)
    .describe(
      'actions a unit takes when activated; a third or fourth follows its plan\'s second-action choice (Actions Phase: "two actions")',
    ),
  closestApproach: z
    .number()
    .min(0)
    .max(12)
    .default(1)
    .describe('a Move or a charge that falls short stops this many inches from the enemy (Movement: "not within 1" … unless charging")'),
  woundsPerHit: knob(1, 10)
    .default(1)
    .describe(
      'Wounds an unsaved hit takes from the model it is given to; more than the model has are lost with it (Save Rolls: "lose 1 wound")',
    ),
});

export const scenarioSchema = z.strictObject({
  ...scenarioHeading('battleforge'),
  source: z.string().optional().describe('where the scenario comes from'),
  data: z
    .string()
    .default('..')
    .describe(
      'the Battle Forge data directory (index.yaml and factions/), relative to the scenario file; left at its default with no factions/ there (a scenario outside data/battleforge/scenarios/), the bundled factions',
    ),
  units: z
    .record(z.string().regex(/^[a-z0-9_-]+\/[a-z0-9_-]+$/, 'must be <faction>/<unit id>'), z.record(z.string(), z.unknown()))
    .default({})
    .describe(
      'changes to units\' combat profiles by <faction>/<unit id>, models and weapons by name (e.g. { "human/men-at-arms": { models: { Soldier: { save: 4 } } } }): tried without editing the faction files',
    ),
  ...runFields('games'),
  mode: z
    .enum(['game', 'attack'])
    .default('game')
    .describe(
      "game: up to `rounds` rounds; attack: side A's first unit makes one attack (a Shoot, or a Fight when the sides start in contact) on side B's first unit, no reactions, then its Shock and break test",
    ),
  rounds: positiveInt.max(20).default(6).describe('rounds played at most (the rules end a game after round 6)'),
  distance: z.number().min(0).max(200).default(24).describe("inches between the two sides' lines at the start"),
  options: optionsSchema
    .default({ focusEvade: 'text', surrender: 0, failedReaction: 'spends-round', allocation: 'finish-damaged' })
    .describe('readings of the rules where the text leaves a gap'),
  rules: rulesSchema
    .prefault({})
    .describe("the rule text's constants, each defaulting to the printed value; change one to try a house rule"),
  sides: z.array(sideSchema).length(2).describe('the two sides: A (first) and B'),
});

export type ScenarioUnit = z.output<typeof scenarioUnitSchema>;
export type Side = z.output<typeof sideSchema>;
export type BattleforgeOptions = z.output<typeof optionsSchema>;
export type Rules = z.output<typeof rulesSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
