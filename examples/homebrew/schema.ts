import { z } from 'zod';
import { runFields, scenarioHeading } from '../../engine/scenario-base.js';

/**
 * The homebrew formats: the units file, the rule knobs and the scenario. Every object is strict, so
 * a misspelt field is an error naming it. The descriptions are what `crucible schema --plugin`
 * writes for editors (hover text), so they say what each number means in the rule text.
 */

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes (e.g. "line-infantry")');
const positiveInt = z.number().int().min(1);
/** A D6 roll needed: 2+ … 6+ (a natural 1 always fails, so 1+ is not a roll). */
const rollNeeded = z.number().int().min(2).max(6);

export const REROLLS = ['none', 'ones', 'failed'] as const;
export type Reroll = (typeof REROLLS)[number];
const reroll = z.enum(REROLLS);

export const unitSchema = z.strictObject({
  id: id.describe('how scenarios and rosters name the unit'),
  name: z.string().min(1).describe('display name'),
  wounds: positiveInt.max(20).describe('M: wounds each model has'),
  save: z.number().int().min(2).max(7).describe('S: a wound is saved on a D6 of save + AP or more; 7 means no save'),
  attacks: positiveInt.max(20).describe('A: attack dice each model rolls'),
  hit: rollNeeded.describe('H: an attack die hits on this or more'),
  wound: rollNeeded.describe('W: a hit wounds on this or more'),
  ap: z.number().int().min(0).max(6).default(0).describe("AP: added to the defender's save roll needed"),
  damage: positiveInt.max(20).default(1).describe('D: damage each unsaved wound deals to one model'),
  rerollHits: reroll.default('none').describe('reroll hit dice once: none, ones (natural 1s) or failed (every miss)'),
  rerollWounds: reroll.default('none').describe('reroll wound dice once: none, ones or failed'),
});

export const unitsFileSchema = z.strictObject({
  note: z.string().optional().describe('free text, e.g. where the profiles come from'),
  units: z.array(unitSchema).min(1).describe('the unit profiles'),
});

export const CRITICAL_EFFECTS = ['auto-wound', 'extra-hits'] as const;
export type CriticalEffect = (typeof CRITICAL_EFFECTS)[number];

/** The rule text's constants ("The rules" in README.md), each defaulting to the printed value. */
export const rulesSchema = z.strictObject({
  criticalFace: z
    .number()
    .int()
    .min(2)
    .max(7)
    .default(6)
    .describe(
      'a hit die showing this face or more (unmodified) is a critical hit, which always hits; 7: no critical hits (text: a natural 6)',
    ),
  criticalEffect: z
    .enum(CRITICAL_EFFECTS)
    .default('auto-wound')
    .describe('what a critical hit does: auto-wound (it wounds without a wound roll; text) or extra-hits (it scores extraHits more hits)'),
  extraHits: z
    .number()
    .int()
    .min(0)
    .max(3)
    .default(1)
    .describe('hits a critical hit adds to its own with criticalEffect extra-hits (house rule: 1)'),
  damageSpills: z
    .boolean()
    .default(false)
    .describe("damage beyond a model's remaining wounds carries over to the next model (text: false, it is lost)"),
});

export const sideSchema = z.strictObject({
  name: z.string().min(1).describe("the side's name: labels the winner metric"),
  unit: id.describe('unit id in the units file (or in `units:`)'),
  models: positiveInt.max(200).describe('models in the unit'),
});

/** `units:` in a scenario: fields laid over a units file profile by id (engine/overrides.ts), or a whole new unit. */
export const unitOverridesSchema = z.record(id, z.record(z.string(), z.unknown()));

export const MODES = ['attack', 'fight'] as const;

export const scenarioSchema = z.strictObject({
  // rule system, name, description: the fields every scenario opens with (crucible replaces the module path with the id before checking).
  ...scenarioHeading('homebrew', 'the rule system: written as the path of the plugin module, e.g. ../index.ts'),
  unitsFile: z.string().default('../units.yaml').describe('units file, relative to the scenario file'),
  units: unitOverridesSchema
    .default({})
    .describe("changes to the units file's profiles by unit id (e.g. { brute: { save: 3 } }), or whole new units"),
  mode: z
    .enum(MODES)
    .default('attack')
    .describe(
      "attack: the first side's unit attacks once; fight: the sides attack in turn, first side first, until one is destroyed or `rounds` end",
    ),
  rounds: positiveInt.max(20).default(5).describe('round limit of a fight (attack: always 1)'),
  // seed and trials, with the limits of every rule system's scenarios.
  ...runFields('trials'),
  rules: rulesSchema
    .prefault({})
    .describe("the rule text's constants, each defaulting to the printed value; change one to try a house rule"),
  sides: z.tuple([sideSchema, sideSchema]).describe('the two sides; the first attacks first'),
});

export type Unit = z.output<typeof unitSchema>;
export type Rules = z.output<typeof rulesSchema>;
export type Side = z.output<typeof sideSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
