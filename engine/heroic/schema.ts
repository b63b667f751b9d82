import { z } from 'zod';

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
    name: z.string().min(1),
    type: z.enum(['melee', 'ranged', 'aoe']).describe('aoe: dice are rolled per model in the area'),
    atk: nonNegativeInt.describe('ATK dice (AoE: dice per model in the area)'),
    damage: z.array(damageTag).default([]).describe('damage types/sources, e.g. [Fire, Spells]'),
    indirect: z.boolean().default(false).describe('Indirect Engagement: rear ranks of a formation may attack with it'),
    enemiesOnly: z.boolean().default(false).describe('AoE that spares allies in the area'),
  })
  .describe('A Weapon Set');

export const unitSchema = z.strictObject({
  id,
  name: z.string().min(1),
  madeUp: z.boolean().default(false).describe('profile invented by crucible (the game publishes none)'),
  heroic: z.boolean().default(false).describe('Hero, Heroic Mount or Heroic Beast: never in a formation'),
  def: z.number().int().min(0).max(12),
  shield: z.boolean().default(false).describe('DEF (S): Shield roll on 5+'),
  might: positiveInt.max(100),
  will: z.number().int().min(0).max(12),
  dex: z.number().int().min(0).max(12).default(0),
  regenerates: z.boolean().default(false).describe('MIGHT (R): heals 1 Wound at the start of each activation'),
  resist: z.array(damageTag).default([]),
  weak: z.array(damageTag).default([]),
  immune: z.array(damageTag).default([]).describe('Invulnerability'),
  value: z.number().min(0).default(0).describe('points; the allocation policy spends cheap models first'),
  weapons: z.array(weaponSetSchema).min(1),
});

export const unitsFileSchema = z.strictObject({
  note: z.string().optional(),
  units: z.array(unitSchema).min(1),
});

export const splitSchema = z.strictObject({
  target: id.describe('group id of an engaged enemy'),
  dice: positiveInt,
});

export const areaSchema = z.strictObject({
  group: id.describe('group id (allies count unless the weapon is enemiesOnly)'),
  models: positiveInt.describe('models of that group inside the area'),
});

export const healSchema = z.strictObject({
  wounds: positiveInt.max(100).describe('Wounds healed on the most damaged model of the group at the end of its activation'),
});

export const groupSchema = z.strictObject({
  id,
  unit: id.describe('unit id in the units file'),
  models: positiveInt.max(1000),
  formation: z.boolean().default(false),
  cards: z.array(positiveInt).optional().describe('combined formation: models taken from each card'),
  exhausted: z.boolean().default(false).describe('a card of this group already acted: it skips its first activation'),
  weapon: z.string().min(1).optional().describe('weapon set name (default: the unit\'s first)'),
  frontRank: positiveInt.optional().describe('models in the first line: the only ones attacking in melee without Indirect Engagement'),
  brokenShield: z.boolean().default(false).describe('Broken Shield token: no Shield rolls'),
  charging: z.boolean().default(false).describe('starts unengaged: must pass a WILL test to charge a formation'),
  target: id.optional().describe('enemy group attacked (default: first enemy group with models left)'),
  split: z.array(splitSchema).min(1).optional().describe('melee dice split between engaged targets, declared before rolling'),
  area: z.array(areaSchema).min(1).optional().describe('AoE: models of each group inside the area'),
  heal: healSchema.optional(),
  woundsTaken: nonNegativeInt.default(0).describe('Wounds each model already has at the start'),
});

export const sideSchema = z.strictObject({
  name: z.string().min(1),
  groups: z.array(groupSchema).min(1),
});

export const optionsSchema = z.strictObject({
  shieldRolls: z
    .enum(['every-model', 'allocated-models'])
    .default('every-model')
    .describe('rulings §2: a formation rolls one Shield die per model, or only per model allocated Wounds'),
  formationWeakness: z
    .enum(['per-figure', 'per-successful-figure', 'once'])
    .default('per-figure')
    .describe('rulings §3: Weakness bonus of a formation attack'),
  order: z
    .enum(['weakness-then-shield', 'shield-then-weakness'])
    .default('weakness-then-shield')
    .describe('rulings §4: order of Weakness and Shield (Resistance comes at allocation)'),
  chargeTest: z
    .enum(['at-least-will', 'exceeds-will'])
    .default('at-least-will')
    .describe('rulings §7: a WILL test is needed when the formation has ≥ WILL models, or > WILL'),
  allocation: z
    .enum(['most-damaged', 'least-damaged'])
    .default('most-damaged')
    .describe('rulings §5: which formation model the defender allocates Wounds to first'),
});

export const scenarioSchema = z.strictObject({
  ruleset: z.literal('heroic'),
  name: z.string().min(1),
  description: z.string().optional(),
  source: z.string().optional().describe('where the scenario comes from, e.g. a worked example'),
  units: z.string().default('../units.yaml').describe('units file, relative to the scenario file'),
  mode: z
    .enum(['attack', 'engagement'])
    .default('engagement')
    .describe('attack: the first side acts once; engagement: sides alternate until one is vanquished'),
  rounds: positiveInt.max(1000).default(10),
  seed: z.number().int().min(0).max(4294967295).default(1),
  trials: positiveInt.max(1e12).default(100000),
  options: optionsSchema.default({
    shieldRolls: 'every-model',
    formationWeakness: 'per-figure',
    order: 'weakness-then-shield',
    chargeTest: 'at-least-will',
    allocation: 'most-damaged',
  }),
  sides: z.array(sideSchema).length(2),
});

export type WeaponSet = z.output<typeof weaponSetSchema>;
export type Unit = z.output<typeof unitSchema>;
export type UnitsFile = z.output<typeof unitsFileSchema>;
export type Group = z.output<typeof groupSchema>;
export type Side = z.output<typeof sideSchema>;
export type HeroicOptions = z.output<typeof optionsSchema>;
export type Scenario = z.output<typeof scenarioSchema>;
/** A scenario as written (defaults not yet applied). */
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type UnitInput = z.input<typeof unitSchema>;
