import { z } from 'zod';

/**
 * The Battle Forge "Fantasy Realms" data format: one faction file per faction and one shared index
 * file, generated from the wargame-engine/fantasy-realms JSONs by scripts/convert-battleforge.ts (see
 * data/battleforge/README.md). Stat names are the current rules' (the JSONs use older ones: shoot →
 * accuracy, fight → strength, defense → save, reflexes → initiative). Ids are kept exactly as the
 * source spells them, since they are references. No rule text is kept: rules carry their id, name,
 * points expression and, when they take a parameter, what it means in one line of our own words.
 * Every object is strict. Pure: no I/O.
 */

/** The six characteristics, in the order the rules print them. */
export const STAT_NAMES = ['movement', 'accuracy', 'strength', 'save', 'initiative', 'courage'] as const;
export type StatName = (typeof STAT_NAMES)[number];
/** Where each characteristic is in the source JSON. */
export const SOURCE_STAT_NAMES: Readonly<Record<StatName, string>> = {
  movement: 'movement',
  accuracy: 'shoot',
  strength: 'fight',
  save: 'defense',
  initiative: 'reflexes',
  courage: 'courage',
};

const id = z.string().regex(/^\S+$/, 'must be a non-empty id without spaces');
const positiveInt = z.number().int().min(1);
const nonNegativeInt = z.number().int().min(0);
const stat = nonNegativeInt.nullable();

export const statsSchema = z.strictObject({
  movement: stat.describe('Movement in inches (source: movement)'),
  accuracy: stat.describe('Accuracy: a D10 at or under it hits when shooting (source: shoot)'),
  strength: stat.describe('Strength: a D10 at or under it hits in melee (source: fight)'),
  save: stat.describe("Save: a D10 at or under it, less the weapon's AP, stops a hit (source: defense)"),
  initiative: stat.describe('Initiative: tests for terrain, falling back and reactions (source: reflexes)'),
  courage: stat.describe('Courage: tests to clear Shock and break tests (source: courage)'),
});
export type Stats = z.output<typeof statsSchema>;

export const ruleRefSchema = z.strictObject({
  id: id.describe('rule id: in the index, the faction file, or a core rule (index coreRules)'),
  x: z
    .union([z.number(), z.string()])
    .optional()
    .describe('the rule\'s parameter, as the source gives it: Wounds(3) → 3; some are keyword text ("Infantry")'),
});
export type RuleRef = z.output<typeof ruleRefSchema>;

export const weaponRefSchema = z.strictObject({
  id: id.describe("weapon id: the faction file's weapons first, then the index's"),
  count: positiveInt.describe('copies (attacks with it this many times); 1 where the source gives a bare id'),
  x: nonNegativeInt.optional().describe('as two references give it instead of a count; the app reads only count, so they count once'),
  unresolved: z
    .literal(true)
    .optional()
    .describe('no weapon has this id in the index or the faction: a known fault of the source, listed in data/battleforge/README.md'),
});
export type WeaponRef = z.output<typeof weaponRefSchema>;

const rangeFields = {
  attacks: nonNegativeInt.describe(
    'attacks per copy of the weapon; 0 for shields and standards, which are weapons only to carry their rules',
  ),
  ap: nonNegativeInt.describe("armour penetration, taken from the target's Save; 0 where the source gives none"),
  short: z
    .union([z.literal('melee'), positiveInt])
    .describe('"melee" (close combat only), or the short range band in inches (source: short)'),
  long: positiveInt
    .nullable()
    .describe('the long range band in inches (source: medium); null for melee weapons and for ranged ones with a single band'),
  rules: z.array(ruleRefSchema).describe('weapon rules'),
};

export const weaponProfileSchema = z.strictObject({
  name: z.string().min(1).describe('the profile\'s name, e.g. "Thrown"'),
  ...rangeFields,
});
export type WeaponProfile = z.output<typeof weaponProfileSchema>;

const weaponHead = {
  id: id.describe('weapon id, as in the source'),
  name: z.string().min(1).describe('as the source gives it'),
  overridesIndex: z
    .literal(true)
    .optional()
    .describe(
      'in a faction file: the index has a weapon with this id, and this one replaces it for the faction (the app merges index then faction, by id)',
    ),
};
export const simpleWeaponSchema = z.strictObject({ ...weaponHead, ...rangeFields });
export const profiledWeaponSchema = z.strictObject({
  ...weaponHead,
  rules: z.array(ruleRefSchema).describe('rules given on the weapon itself, beside its profiles'),
  profiles: z.array(weaponProfileSchema).min(2).describe('a weapon with several ways of attacking: the wielder picks one'),
});
export const weaponSchema = z.union([simpleWeaponSchema, profiledWeaponSchema]);
export type Weapon = z.output<typeof weaponSchema>;

/** One term of a points expression (the app's resolvePoints): a number, a variable path, or an operation on the running total. */
const pointsOperand = z.union([z.number(), z.string()]);
const pointsTerm = z.union([
  pointsOperand,
  z.strictObject({ add: pointsOperand }),
  z.strictObject({ subtract: pointsOperand }),
  z.strictObject({ multiply: pointsOperand }),
  z.strictObject({ divide: pointsOperand }),
  z.strictObject({ max: pointsOperand }),
  z.strictObject({ min: pointsOperand }),
]);
export const pointsExpressionSchema = z
  .union([pointsOperand, z.array(pointsTerm)])
  .describe(
    'the rule\'s cost as the app computes it: a number, or terms applied in order to a running total from 0 (a number or variable such as "rule.x" or "weapon.attacks" adds, {multiply: 10} multiplies…)',
  );
export type PointsExpression = z.output<typeof pointsExpressionSchema>;
export type PointsTerm = z.output<typeof pointsTerm>;

export const ruleSchema = z.strictObject({
  id,
  name: z.string().min(1),
  points: pointsExpressionSchema.optional(),
  parameter: z
    .string()
    .min(1)
    .optional()
    .describe('what the parameter x means, in one line of our own words; present when the rule takes one'),
  overridesIndex: z.literal(true).optional().describe("in a faction file: replaces the index's rule of the same id for the faction"),
});
export type Rule = z.output<typeof ruleSchema>;

export const coreRuleSchema = z.strictObject({
  id,
  parameter: z
    .string()
    .min(1)
    .nullable()
    .describe('what x means, where the data uses the rule with one and the meaning is known; null otherwise'),
});

export const powerSchema = z.strictObject({
  id,
  name: z.string().min(1),
  charge: positiveInt.describe("cast value: a D10 plus the caster's Shock must be at or under it"),
  category: id.optional().describe('power category (index powerCategories: fire, water…)'),
  school: id.optional().describe('as some faction powers give it instead of a category'),
  subfactions: z.array(id).optional().describe('subfactions (focuses) that may use it; "none" is the faction without one'),
  overridesIndex: z.literal(true).optional().describe("in a faction file: replaces the index's power of the same id for the faction"),
  attack: z
    .strictObject({ range: positiveInt.describe('inches'), hits: positiveInt, ap: z.number().int().min(0) })
    .optional()
    .describe("a damaging power: hits with AP on an enemy unit within range, read from the power's text by the converter"),
  shock: positiveInt.optional().describe('Shock it gives an enemy unit within `range` (e.g. Fright), read from its text'),
  range: positiveInt.optional().describe('inches, for a power with `shock`'),
  unlimited: z.literal(true).optional().describe('may be cast any number of times a turn'),
});
export type Power = z.output<typeof powerSchema>;

const modelLimitSchema = z
  .union([positiveInt, z.literal('all'), z.strictObject({ count: positiveInt, per: positiveInt })])
  .describe(
    'how many models may take it: a number, "all" (every model or none), or {count, per} for "count for each per models" (source "1/5")',
  );

/** Choices are lists: the source's `withWeapon: ["a", ["b", "c"]]` offers "a" or "b and c". */
export const optionSchema = z.strictObject({
  replaceWeapon: z.array(weaponRefSchema).optional().describe('weapons given up, all of them'),
  withWeapon: z.array(z.array(weaponRefSchema)).optional().describe('choices of what replaces them; each choice a set of weapons'),
  addWeapon: z.array(z.array(weaponRefSchema)).optional().describe('choices of weapons added'),
  replaceRule: z.array(ruleRefSchema).optional().describe('rules given up'),
  withRule: z.array(z.array(ruleRefSchema)).optional().describe('choices of what replaces them'),
  addRule: z.array(z.array(ruleRefSchema)).optional().describe('choices of rules added'),
  modelLimit: modelLimitSchema.optional(),
  limit: positiveInt.optional().describe('how many of the choices a model may take'),
  subfactions: z.array(id).optional().describe('only for these subfactions'),
});
export type UnitOption = z.output<typeof optionSchema>;

export const modelSchema = z.strictObject({
  name: z.string().min(1),
  stats: statsSchema.describe('null where the source prints "-": a model without that characteristic'),
  min: nonNegativeInt.describe('fewest models of this kind in the unit'),
  max: nonNegativeInt.describe('most models of this kind in the unit'),
  weapons: z.array(weaponRefSchema),
  rules: z.array(ruleRefSchema).describe("the model's rules (the unit's rules apply as well)"),
  options: z.array(optionSchema).describe('options for this kind of model'),
});
export type Model = z.output<typeof modelSchema>;

export const unitSchema = z.strictObject({
  id: id.describe('unit id, as in the source (its key in units)'),
  name: z.string().min(1),
  category: id.describe('force-organisation category (index categories: hero, core, elite, rare, fortification)'),
  min: nonNegativeInt.optional().describe("as three units give it on the unit itself; the app's points code does not read it"),
  max: nonNegativeInt.optional(),
  keywords: z.array(z.string().min(1)).optional().describe('absent where the source has none'),
  subfactions: z.array(id).optional().describe('subfactions that may take it; absent: all'),
  rules: z.array(ruleRefSchema).describe('rules every model of the unit has'),
  models: z.array(modelSchema).min(1),
  options: z.array(optionSchema).describe('options for the whole unit'),
});
export type Unit = z.output<typeof unitSchema>;

export const factionFileSchema = z.strictObject({
  faction: id.describe('faction id, as index.json lists it and as the file name'),
  name: z.string().min(1),
  alliance: id.optional().describe('as index.json gives it'),
  source: z.string().min(1).describe('where the data comes from'),
  licence: z.string().min(1).describe("the source's licence; the notice is in data/battleforge/LICENSE"),
  subfactions: z.array(z.strictObject({ id, name: z.string().min(1), restricted: z.boolean().optional() })).optional(),
  units: z.array(unitSchema).min(1).describe('no points: the source gives none; the app computes them (engine/battleforge/points.ts)'),
  weapons: z.array(weaponSchema).describe("the faction's own weapons, added to or replacing the index's by id"),
  rules: z.array(ruleSchema).describe("the faction's own rules, added to or replacing the index's by id"),
  powers: z.array(powerSchema).describe("the faction's own powers, added to or replacing the index's by id"),
});
export type FactionFile = z.output<typeof factionFileSchema>;

export const indexFileSchema = z.strictObject({
  module: z.strictObject({ id, name: z.string().min(1), version: z.string().min(1) }).describe('as index.json names the module'),
  source: z.string().min(1),
  licence: z.string().min(1),
  factions: z.array(id).describe('the factions index.json lists, one file each in factions/'),
  categories: z.array(z.strictObject({ id, name: z.string().min(1) })),
  weapons: z.array(weaponSchema),
  rules: z.array(ruleSchema),
  coreRules: z
    .array(coreRuleSchema)
    .describe(
      'rule ids the data uses that neither the index nor the faction using them defines: Battle Forge core rules, kept elsewhere (wargame-engine/root) and not in this data',
    ),
  powers: z.array(powerSchema),
});
export type IndexFile = z.output<typeof indexFileSchema>;

/** A faction's weapons as the app sees them: the index's, with the faction's added or replacing by id. */
export function weaponTable(index: IndexFile, faction: FactionFile): Map<string, Weapon> {
  return new Map([...index.weapons, ...faction.weapons].map((weapon) => [weapon.id, weapon]));
}

/** A faction's rules likewise (core rules are not in the data). */
export function ruleTable(index: IndexFile, faction: FactionFile): Map<string, Rule> {
  return new Map([...index.rules, ...faction.rules].map((rule) => [rule.id, rule]));
}

/** One way of attacking, as the combat engine needs it. */
export interface CombatWeapon {
  readonly id: string;
  readonly name: string;
  /** The profile's name for a weapon with several; null otherwise. */
  readonly profile: string | null;
  readonly count: number;
  readonly attacks: number;
  readonly ap: number;
  readonly melee: boolean;
  /** Range bands in inches; null for melee (and `long` for a single band). */
  readonly short: number | null;
  readonly long: number | null;
  /** The weapon's rules, then the profile's. */
  readonly rules: readonly RuleRef[];
}

export interface CombatModel {
  readonly unit: string;
  readonly name: string;
  readonly stats: Stats;
  /** Every characteristic present. */
  readonly hasCharacteristics: boolean;
  /** Has a Save: the rules let hits be assigned only to such models; the others go when the rest of the unit does. */
  readonly canBeAssignedHits: boolean;
  /** The `wounds` rule's x (model's rules first, then the unit's), default 1. */
  readonly wounds: number;
  readonly min: number;
  readonly max: number;
  /** The model's rules followed by the unit's. */
  readonly rules: readonly RuleRef[];
  /** One entry per profile of each weapon. */
  readonly weapons: readonly CombatWeapon[];
  /** Weapon ids the data names but does not define (see `unresolved`). */
  readonly unresolvedWeapons: readonly string[];
}

function combatWeapons(ref: WeaponRef, weapon: Weapon): CombatWeapon[] {
  const profiles: (WeaponProfile & { profile: string | null })[] =
    'profiles' in weapon
      ? weapon.profiles.map((profile) => ({ ...profile, profile: profile.name, rules: [...weapon.rules, ...profile.rules] }))
      : [{ ...weapon, profile: null }];
  return profiles.map((profile) => ({
    id: weapon.id,
    name: weapon.name,
    profile: profile.profile,
    count: ref.count,
    attacks: profile.attacks,
    ap: profile.ap,
    melee: profile.short === 'melee',
    short: profile.short === 'melee' ? null : profile.short,
    long: profile.long,
    rules: profile.rules,
  }));
}

/** What the combat engine needs of each model of a unit, with its weapons resolved in `weapons` (see weaponTable). */
export function combatModels(unit: Unit, weapons: ReadonlyMap<string, Weapon>): CombatModel[] {
  return unit.models.map((model) => {
    const rules = [...model.rules, ...unit.rules];
    const woundsRule = rules.find((rule) => rule.id === 'wounds' && typeof rule.x === 'number');
    const resolved: CombatWeapon[] = [];
    const unresolved: string[] = [];
    for (const ref of model.weapons) {
      const weapon = weapons.get(ref.id);
      if (weapon === undefined) unresolved.push(ref.id);
      else resolved.push(...combatWeapons(ref, weapon));
    }
    return {
      unit: unit.id,
      name: model.name,
      stats: model.stats,
      hasCharacteristics: STAT_NAMES.every((name) => model.stats[name] !== null),
      canBeAssignedHits: model.stats.save !== null,
      wounds: typeof woundsRule?.x === 'number' ? woundsRule.x : 1,
      min: model.min,
      max: model.max,
      rules,
      weapons: resolved,
      unresolvedWeapons: unresolved,
    };
  });
}

function jsonSchemaText(schema: z.ZodType, title: string): string {
  const { $schema, ...rest } = z.toJSONSchema(schema, { io: 'input' });
  return `${JSON.stringify({ $schema, title, ...rest }, null, 2)}\n`;
}

/** The JSON Schema of a faction file (schema/battleforge-units.schema.json). */
export const factionFileJsonSchemaText = (): string => jsonSchemaText(factionFileSchema, 'crucible battleforge faction units');
/** The JSON Schema of the index file (schema/battleforge-index.schema.json). */
export const indexFileJsonSchemaText = (): string => jsonSchemaText(indexFileSchema, 'crucible battleforge index');
