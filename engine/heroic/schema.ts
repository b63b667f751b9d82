import { z } from 'zod';
import { runFields, scenarioHeading } from '../scenario-base.js';

/**
 * The heroic scenario and unit file formats. Every object is strict, so a typo in a field name is
 * an error rather than a silently ignored key. Cross-references (unit ids, weapon names, group ids)
 * are checked in validate.ts, which needs the unit list.
 */

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes (e.g. "sylvan-knight")');
const positiveInt = z.number().int().min(1);
const nonNegativeInt = z.number().int().min(0);
/** Damage types and sources a weapon can carry and a model can resist (open-ended: "Spells", "Animancy"…). */
const damageTag = z.string().min(1);

export const weaponSetSchema = z
  .strictObject({
    name: z.string().min(1).describe('unique within the unit'),
    type: z.enum(['melee', 'ranged', 'aoe']).describe('aoe: the dice are rolled for each model in the area'),
    atk: nonNegativeInt.describe('ATK dice (AoE: dice per model in the area)'),
    damage: z.array(damageTag).default([]).describe('damage types and sources, e.g. [Fire, Spells]'),
    indirect: z.boolean().default(false).describe('Indirect Engagement: rear ranks of a formation may attack with it'),
    enemiesOnly: z.boolean().default(false).describe('an AoE that spares allies in the area'),
  })
  .describe('A Weapon Set');

export const unitSchema = z.strictObject({
  id: id.describe('how scenarios refer to the unit, e.g. sylvan-knight'),
  name: z.string().min(1).describe('display name'),
  madeUp: z.boolean().default(false).describe('profile invented by crucible (the game publishes none)'),
  heroic: z.boolean().default(false).describe('Hero, Heroic Mount or Heroic Beast: never in a formation'),
  def: z.number().int().min(0).max(12).describe('DEF: an ATK die succeeds on a roll ≥ DEF'),
  shield: z
    .boolean()
    .default(false)
    .describe('DEF (S): Shield roll, a D6 of rules.shieldSave or more (5+) ignores rules.shieldWounds (1) Wound'),
  might: positiveInt.max(100).describe('MIGHT: Wounds the model can take'),
  will: z.number().int().min(0).max(12).describe('WILL: tests pass on D6 ≤ WILL'),
  dex: z.number().int().min(0).max(12).default(0).describe('DEX: tests pass on D6 ≤ DEX (no rule crucible plays tests it)'),
  regenerates: z.boolean().default(false).describe('MIGHT (R): heals rules.regenerationHeal (1) Wound at the start of each activation'),
  resist: z.array(damageTag).default([]).describe('Resistance: damage types and sources it resists, e.g. [Frost]'),
  weak: z.array(damageTag).default([]).describe('Weakness, e.g. [Fire]'),
  immune: z.array(damageTag).default([]).describe('Invulnerability, e.g. [Poison]'),
  // No engine reads it: a group's models are identical, so points cannot steer allocation (rulings §5).
  value: z.number().min(0).default(0).describe("the unit's points, for the reader; no engine reads it (rosters give their own cost)"),
  weapons: z.array(weaponSetSchema).min(1).describe('its weapon sets: a group uses the first unless it names another'),
});

export const unitsFileSchema = z.strictObject({
  note: z.string().optional().describe('free text, e.g. where the profiles come from'),
  units: z.array(unitSchema).min(1).describe('the unit profiles'),
});

export const splitSchema = z.strictObject({
  target: id.describe('group id of an engaged enemy'),
  dice: positiveInt.describe('dice sent at that enemy'),
});

export const areaSchema = z.strictObject({
  group: id.describe('group id (allies count unless the weapon is enemiesOnly)'),
  models: positiveInt.describe('models of that group inside the area'),
});

export const healSchema = z.strictObject({
  wounds: positiveInt.max(100).describe('Wounds healed on the most damaged model of the group at the end of its activation'),
});

export const groupSchema = z.strictObject({
  id: id.describe('unique in the scenario; names its metrics, e.g. knights.woundsTaken'),
  unit: id.describe('profile from the units file: a unit id'),
  models: positiveInt.max(1000).describe('number of models'),
  formation: z
    .boolean()
    .default(false)
    .describe(
      'a formation (≥ rules.formationMinimum models, 3 by default, not heroic) attacks as one Attack Action with its dice pooled; below that it breaks',
    ),
  cards: z
    .array(positiveInt)
    .optional()
    .describe('combined formation: models taken from each card, e.g. [3, 1] (they must add up to models)'),
  exhausted: z.boolean().default(false).describe('a card of this group already acted: it skips its first activation'),
  weapon: z.string().min(1).optional().describe("weapon set name (default: the unit's first)"),
  frontRank: positiveInt.optional().describe('models in the first line: the only ones attacking in melee without Indirect Engagement'),
  brokenShield: z.boolean().default(false).describe('Broken Shield token: no Shield rolls'),
  charging: z.boolean().default(false).describe('starts unengaged: must pass a WILL test to charge a formation'),
  target: id.optional().describe('enemy group attacked (default: first enemy group with models left)'),
  split: z.array(splitSchema).min(1).optional().describe("one model's melee dice split between engaged enemies, declared before rolling"),
  area: z
    .array(areaSchema)
    .min(1)
    .optional()
    .describe(
      'AoE: models of each group inside the area, allies too unless the weapon set is enemiesOnly (default: every model of the target group)',
    ),
  heal: healSchema.optional().describe('the Healing ability'),
  woundsTaken: nonNegativeInt.default(0).describe('Wounds each model already has at the start'),
});

export const sideSchema = z.strictObject({
  name: z.string().min(1).describe('labels the side in results; the two names must differ (they name the winner)'),
  groups: z.array(groupSchema).min(1).describe('its groups of models, activated in file order'),
});

export const optionsSchema = z.strictObject({
  shieldRolls: z
    .enum(['every-model', 'allocated-models'])
    .default('every-model')
    .describe('rulings §2: a formation target rolls one Shield die per model, or only for the models allocated Wounds'),
  formationWeakness: z
    .enum(['per-figure', 'per-successful-figure', 'once'])
    .default('per-figure')
    .describe('rulings §3: Weakness bonus of a formation attack: +1 per attacking figure, per figure whose own dice succeeded, or +1 once'),
  order: z
    .enum(['weakness-then-shield', 'shield-then-weakness'])
    .default('weakness-then-shield')
    .describe('rulings §4: order of Weakness and Shield (Resistance comes at allocation)'),
  chargeTest: z
    .enum(['at-least-will', 'exceeds-will'])
    .default('at-least-will')
    .describe('rulings §7: a charging model tests WILL when the formation has ≥ WILL models, or only when it has more'),
  allocation: z
    .enum(['most-damaged', 'least-damaged'])
    .default('most-damaged')
    .describe('rulings §5: which formation model the defender allocates Wounds to first'),
});

/**
 * Every number the rule texts fix, as a knob defaulting to the printed value (README.md, "Rule
 * constants"). compile.ts reads them once; the dice, the outcome tables and exact enumeration all
 * use what it compiles, so a changed value changes every method alike.
 */
const knob = (min: number, max: number, printed: number) => z.number().int().min(min).max(max).default(printed);

export const rulesSchema = z.strictObject({
  criticalFace: knob(1, 7, 6).describe(
    'D6 face from which an ATK die is a Critical Hit: it always succeeds and scores criticalBonus more Wounds; 7: no criticals (Attack Action, "Attack vs Deflection Check": natural 6; rulings §1)',
  ),
  criticalBonus: knob(0, 10, 1).describe(
    'Wounds a Critical Hit scores on top of its 1 (Attack Action, "Attack vs Deflection Check": "an additional Wound"; rulings §1)',
  ),
  shieldSave: knob(1, 7, 5).describe('D6 face from which a Shield die succeeds; 7: never (Attack Action, "Shield Roll": 5+; rulings §2)'),
  shieldWounds: knob(1, 10, 1).describe(
    'Wounds one successful Shield die ignores: a single model\'s roll, or one formation model\'s (Attack Action, "Shield Roll": 1; rulings §2)',
  ),
  weaknessBonus: knob(0, 10, 1).describe(
    'Wounds Weakness adds to an Attack Action that scored at least 1: once for a single attacker, per figure for a formation per option formationWeakness (Attack Action, "Resistance and Weakness"; Dynamic Formations, "Formation Resistance and Weaknesses": +1; rulings §3)',
  ),
  resistanceReduction: knob(0, 10, 1).describe(
    'Wounds Resistance ignores per Attack Action, never below 0; against a formation, per model allocated Wounds (Attack Action, "Resistance and Weakness"; Dynamic Formations, "Formation Resistance and Weaknesses": 1; rulings §3)',
  ),
  regenerationHeal: knob(0, 100, 1).describe(
    'Wounds a MIGHT (R) model heals at the start of each of its activations (Attack Action, "Healing": a Wound; rulings §9)',
  ),
  formationMinimum: knob(2, 1000, 3).describe(
    'fewest models of a formation: a group declared in formation needs this many, and one left with fewer is broken at once (Dynamic Formations, "Formation Requirements": 3; rulings §8)',
  ),
  chargeTorment: knob(0, 10, 1).describe(
    'Torment a Heroic model gains for failing the WILL test to charge a formation (Dynamic Formations, "Single Model vs Formation": 1; rulings §7)',
  ),
});

/**
 * `units:` in a scenario: fields laid over a units file profile, keyed by its id (engine/overrides.ts),
 * or a complete profile under a new id. Checked as a unit once merged.
 */
export const unitOverridesSchema = z.record(id, z.record(z.string(), z.unknown()));

/** The older form `units: <file>` names the units file (now `unitsFile`). */
export const upgradeHeroicScenario = (data: unknown): unknown => {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  const { units, ...rest } = data as Record<string, unknown>;
  return typeof units === 'string' && !('unitsFile' in rest) ? { ...rest, unitsFile: units } : data;
};

export const scenarioSchema = z.strictObject({
  ...scenarioHeading('heroic'),
  source: z.string().optional().describe('where the scenario comes from, e.g. a worked example'),
  unitsFile: z
    .string()
    .default('../units.yaml')
    .describe(
      'units file, relative to the scenario file; left at its default with no file there (a scenario outside data/heroic/scenarios/), the bundled data/heroic/units.yaml',
    ),
  units: unitOverridesSchema
    .default({})
    .describe(
      "changes to the units file's profiles by unit id (e.g. { ogre: { def: 5 } }), or whole new units: tried without editing the units file",
    ),
  mode: z
    .enum(['attack', 'engagement'])
    .default('engagement')
    .describe(
      'attack: each group of the first side makes its Attack Action(s) once; engagement: the first side activates, then the second, round after round, until a side has no models left',
    ),
  rounds: positiveInt.max(1000).default(10).describe('round limit of an engagement'),
  ...runFields('fights'),
  options: optionsSchema
    .default({
      shieldRolls: 'every-model',
      formationWeakness: 'per-figure',
      order: 'weakness-then-shield',
      chargeTest: 'at-least-will',
      allocation: 'most-damaged',
    })
    .describe('readings of the rules where the texts leave a gap'),
  rules: rulesSchema
    .prefault({})
    .describe("the rule text's constants, each defaulting to the printed value; change one to try a house rule"),
  sides: z.array(sideSchema).length(2).describe('the two sides; the first acts first'),
});

export type WeaponSet = z.output<typeof weaponSetSchema>;
export type Unit = z.output<typeof unitSchema>;
export type UnitsFile = z.output<typeof unitsFileSchema>;
export type Group = z.output<typeof groupSchema>;
export type Side = z.output<typeof sideSchema>;
export type HeroicOptions = z.output<typeof optionsSchema>;
export type Rules = z.output<typeof rulesSchema>;
/** The rule texts' own values (every knob at its default). */
export const PRINTED_RULES: Rules = rulesSchema.parse({});
export type Scenario = z.output<typeof scenarioSchema>;
/** A scenario as written (defaults not yet applied). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type UnitInput = z.input<typeof unitSchema>;
