import { z } from 'zod';
import { runFields, scenarioHeading } from '../scenario-base.js';

/**
 * The Epic Armageddon rally scenario format: formations of two players over several turns, with
 * what the rules leave to the battle — Blast markers and units lost each turn, enemy within 30 cm,
 * the cost of a withdrawal — given as scenario inputs (rulings §28), and the End-phase rallies played
 * by the rules (engine/epic/README.md). Armies' Strategy Rating and Initiative come from
 * data/epic/armies.yaml. Every object is strict.
 */

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes (e.g. "imperial-guard")');
const nonNegativeInt = z.number().int().min(0);
const positiveInt = z.number().int().min(1);
const chance = z.number().min(0).max(1);

/** The most units a formation may have; a count per turn (markers, losses) above it changes nothing, so it is the bound too. */
export const MAX_FORMATION_UNITS = 100;
const perTurnCount = nonNegativeInt.max(MAX_FORMATION_UNITS);

/** A count per turn: a fixed number, or a distribution as `{ value, p }` pairs whose p add up to 1 (each at most MAX_FORMATION_UNITS). */
export const countSchema = z.union([
  perTurnCount,
  z
    .array(z.strictObject({ value: perTurnCount, p: chance }))
    .min(1)
    .max(MAX_FORMATION_UNITS + 1)
    .describe('a distribution: each value with its probability (they must add up to 1)'),
]);
export type CountInput = z.output<typeof countSchema>;

/** Whether something holds each turn: true, false, or a probability. */
export const eachTurnSchema = z.union([z.boolean(), chance]);

export const formationSchema = z.strictObject({
  id: id.describe('unique in the scenario; names its metrics, e.g. company.brokenAtEnd'),
  name: z.string().min(1).optional().describe('a name for the reader'),
  units: positiveInt.max(MAX_FORMATION_UNITS).describe('units in the formation at the start'),
  initiative: z.number().int().min(1).max(6).optional().describe("the formation's Initiative, e.g. 2 for 2+ (default: its army's)"),
  broken: z.boolean().default(false).describe('Broken at the start'),
  markers: nonNegativeInt.default(0).describe('Blast markers at the start (a Broken formation has none)'),
  enemyWithin30: eachTurnSchema
    .default(true)
    .describe('enemy units within 30 cm at its rally: −1 (true, false or a probability each End phase)'),
  offTable: eachTurnSchema.default(false).describe('out of the playing area at its rally: never the −1 for enemy within 30 cm'),
  markersPerTurn: countSchema.default(0).describe('Blast markers it takes each Action phase while not Broken'),
  unitsLostPerTurn: countSchema.default(0).describe('units it loses each Action phase while not Broken'),
  unitsLostWhileBroken: countSchema.default(0).describe('units it loses each Action phase while Broken'),
  withdrawalCost: countSchema
    .default(0)
    .describe('units lost by each withdrawal move (when it breaks, and when a Broken formation fails to rally)'),
});

export const playerSchema = z.strictObject({
  name: z.string().min(1).describe("the player's name"),
  army: id.describe('army id in the armies file (Strategy Rating and Initiative)'),
  formations: z.array(formationSchema).min(1).describe('its formations, which rally in file order'),
});

export const optionsSchema = z.strictObject({
  markersOnBreak: z
    .enum(['removed', 'kept'])
    .default('removed')
    .describe('rulings §27: a formation that breaks loses its Blast markers (a Broken formation has none until it rallies), or keeps them'),
  firstInRallyTie: z
    .enum(['roll-off', 'first-player'])
    .default('roll-off')
    .describe('rulings §28: who rallies first when both armies have the same Strategy Rating'),
});

/**
 * The rule text's numbers (Rally formations, and rulings §26–28), each defaulting to the printed
 * value: the kernel, its tables and exact enumeration all read them from here (compile.ts).
 */
export const rulesSchema = z.strictObject({
  dieSides: z
    .number()
    .int()
    .min(2)
    .max(20)
    .default(6)
    .describe(
      "sides of the die a Rally test rolls, and of the roll-off for equal Strategy Ratings: 6 for the text's D6 (Rally formations; rulings §26, §28)",
    ),
  brokenModifier: z
    .number()
    .int()
    .min(-20)
    .max(20)
    .default(-2)
    .describe('added to the Rally test of a Broken formation, in die faces (Rally Test Modifiers table: −2; rulings §26)'),
  enemyWithin30Modifier: z
    .number()
    .int()
    .min(-20)
    .max(20)
    .default(-1)
    .describe(
      'added to a Rally test with enemy units within 30 cm, in die faces; never off the table (Rally Test Modifiers table: −1; FAQ; rulings §26)',
    ),
  markersPerUnitOnRally: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(1)
    .describe(
      'Blast markers a Broken formation takes per unit when it rallies, before half are removed (Rally formations: "as many Blast markers as there are units"; rulings §27)',
    ),
  rallyRemovalDivisor: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(2)
    .describe(
      'a passed Rally test removes ⌈Blast markers ÷ this⌉: 2 for the text\'s "half, rounding fractions up"; 1 removes them all (Rally formations; rulings §27)',
    ),
  breakMarkersPerUnit: z
    .number()
    .int()
    .min(1)
    .max(10)
    .default(1)
    .describe('a formation breaks when its Blast markers reach this many per unit: 1 for markers = units (rulings §28)'),
});

export const scenarioSchema = z.strictObject({
  ...scenarioHeading('epic'),
  source: z.string().optional().describe('where the scenario comes from'),
  armies: z
    .string()
    .default('../armies.yaml')
    .describe(
      'armies file, relative to the scenario file; left at its default with no file there (a scenario outside data/epic/scenarios/), the bundled data/epic/armies.yaml',
    ),
  ...runFields('battles'),
  turns: positiveInt.max(20).default(4).describe('turns played, each an Action phase then an End phase with rallies'),
  options: optionsSchema
    .default({ markersOnBreak: 'removed', firstInRallyTie: 'roll-off' })
    .describe('readings of the rules where the text leaves a gap'),
  rules: rulesSchema
    .prefault({})
    .describe("the rule text's constants, each defaulting to the printed value; change one to try a house rule"),
  players: z.array(playerSchema).min(1).max(2).describe('one or two players'),
});

export const armySchema = z.strictObject({
  id: id.describe('how a player names its army, e.g. imperial-guard'),
  name: z.string().min(1).describe('display name'),
  strategyRating: z.number().int().min(1).max(5).describe("Strategy Rating: the player whose army's rating is higher rallies first"),
  initiative: z.number().int().min(1).max(6).describe('the usual formation Initiative: 2 means 2+'),
  source: z.string().min(1).describe('where the numbers come from'),
});
export const armiesFileSchema = z.strictObject({
  note: z.string().optional().describe('free text, e.g. where the numbers come from'),
  armies: z.array(armySchema).min(1).describe('the armies'),
});

export type Formation = z.output<typeof formationSchema>;
export type Player = z.output<typeof playerSchema>;
export type EpicOptions = z.output<typeof optionsSchema>;
export type Rules = z.output<typeof rulesSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Army = z.output<typeof armySchema>;
