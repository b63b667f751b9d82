import { z } from 'zod';

/**
 * The Warmaster Revolution unit data format: one army file per army list, generated from the
 * warmaster.info TSVs by scripts/convert-warmaster.ts (see data/warmaster/README.md), and the
 * hand-kept table of combat flags merged into it. Stat lines are kept as the lists print them:
 * `null` where a list prints `–` (none), the other value of an either/or Armour cell in
 * `armourOption`, and compound Attacks such as `2+bounce` as text. Every object is strict.
 */

const id = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case letters, digits and dashes (e.g. "steam-tank")');
const nonNegativeInt = z.number().int().min(0);
const positiveInt = z.number().int().min(1);
/**
 * The largest number a unit profile may print for Attacks, Hits, stands or a bonus (issue 17): the
 * lists' largest are under 20; a bound keeps a hand-edited profile from making tables or metrics
 * of billions of cells (the dice of one attack are bounded again where they are formed).
 */
export const MAX_PROFILE_VALUE = 100;
const profileCount = z.number().int().min(0).max(MAX_PROFILE_VALUE);
const profilePositive = z.number().int().min(1).max(MAX_PROFILE_VALUE);
const profileBonus = z.number().int().min(-MAX_PROFILE_VALUE).max(MAX_PROFILE_VALUE);
/** A save on a D6: 4 means 4+. */
const armourSave = z.number().int().min(2).max(6);

import { TROOP_TYPES } from './troop-types.js';

export { TROOP_TYPES, type TroopType } from './troop-types.js';

/** Types of the rows after the separator: characters, their mounts and upgrades. */
export const CHARACTER_TYPES = [
  'general',
  'hero',
  'wizard',
  'monstrous-mount',
  'chariot-mount',
  'special-mount',
  'special',
  'special-bonus',
] as const;
export type CharacterType = (typeof CHARACTER_TYPES)[number];

/**
 * Special rules that change combat maths, set by hand from the army lists' rule text (the TSVs
 * only number the rules). Each flag's description says what it means to the combat engine.
 */
export const combatFlagsSchema = z.strictObject({
  terror: z
    .literal(true)
    .optional()
    .describe(
      'causes terror: enemy stands touching it fight at −1 Attack unless terrifying or immune themselves; a character or mount makes the unit it joins cause terror',
    ),
  immuneToTerror: z.literal(true).optional().describe('never suffers the −1 Attack for fighting terrifying enemy'),
  regenerates: z
    .literal(true)
    .optional()
    .describe(
      'after whole stands are removed each combat round, removes 1 outstanding hit; regenerated hits still count toward the result (rulings §18)',
    ),
  alwaysDefended: z.literal(true).optional().describe('always counts as defended: enemies need 5+ to hit it, in shooting and in combat'),
  alwaysHitsOn4: z.literal(true).optional().describe('its attacks hit on 4+ even against defended or fortified enemies'),
  flyer: z.literal(true).optional().describe('can fly: non-flying units never pursue it (rulings §17)'),
  awkwardFlyer: z.literal(true).optional().describe('flies, but any troops may pursue it'),
  mustPursue: z.literal(true).optional().describe('must pursue or advance when victorious, where it is permitted to'),
  mayPursueCavalryAndChariots: z.literal(true).optional().describe('may pursue retreating cavalry and chariots although it is infantry'),
  mayPursueFlyers: z.literal(true).optional().describe('may pursue retreating flyers although it does not fly'),
  monsterChargeBonus: z
    .literal(true)
    .optional()
    .describe('gets the further +1 Attack of monsters and chariots when charging enemy in the open'),
  noChargeBonus: z.literal(true).optional().describe('gets no +1 Attack for charging'),
  firstRoundFrontBonus: z
    .literal(true)
    .optional()
    .describe('+1 Attack in the first round of every combat for stands fighting to their front'),
  chargeBonusD6: z
    .literal(true)
    .optional()
    .describe('+D6 Attacks on top of the usual +1 when it charges enemy in the open (not in pursuits or advances)'),
  bonusAttackVsMonsters: z.literal(true).optional().describe('+1 Attack for stands fighting a Monster stand'),
  defendedVsMountedChargeFront: z
    .literal(true)
    .optional()
    .describe('counts as defended in the first round against cavalry or chariots charging its front, unless in dense terrain'),
  shotsMakeArmourOneWorse: z
    .literal(true)
    .optional()
    .describe(
      'targets of its shooting count their Armour one worse (6+ becomes no save); shots at chargers count toward round 1 (rulings §15)',
    ),
  bonusAttackOnOneStand: z.literal(true).optional().describe('+1 Attack for one stand of the unit, not included in its stat line'),
});
export type CombatFlags = z.output<typeof combatFlagsSchema>;
export type CombatFlag = keyof CombatFlags;

/** Fields every row has, in both sections. */
const rowFields = {
  id: id.describe('unique within the army, from the name'),
  name: z.string().min(1).describe('as the list prints it, trailing spaces removed'),
  points: nonNegativeInt.describe('points per unit; with pointsAdded, what the mount or upgrade adds to its character'),
  min: nonNegativeInt.nullable().describe('least units per 1000 points; null where the list prints –'),
  max: nonNegativeInt.nullable().describe('most units per 1000 points; null where the list prints – (no limit)'),
  specialRules: z.array(positiveInt).describe("numbers of the army list's special rules (*1, *2…) that apply"),
  flags: combatFlagsSchema.optional().describe('combat flags merged from data/warmaster/combat-flags.yaml'),
  flagsConfidence: z.literal('low').optional().describe('some of the flags come from a row marked confidence: low'),
  raw: z
    .record(z.string(), z.string())
    .optional()
    .describe('cells whose form the converter does not know, verbatim by column; their fields are null'),
};

export const troopSchema = z.strictObject({
  ...rowFields,
  kind: z.literal('troop'),
  type: z.enum(TROOP_TYPES),
  attacks: profileCount
    .nullable()
    .describe('close-combat Attacks per stand; null where the list prints – or a dice roll (see attacksSpecial)'),
  attacksSpecial: z.string().min(1).optional().describe('close-combat Attacks that are not a number, e.g. "D6"'),
  shootingAttacks: profileCount.optional().describe('shooting Attacks per stand: the 1 of 3/1'),
  shootingSpecial: z
    .string()
    .min(1)
    .optional()
    .describe('shooting Attacks that are not a plain number, verbatim: "2+bounce", "8–4–2", "D6", "2 per stand"'),
  hits: profilePositive.nullable().describe('hits a stand takes before it is removed; null where the list prints –'),
  armour: armourSave.nullable().describe('Armour save (4 = 4+); null for none (– or 0)'),
  armourOption: armourSave
    .nullable()
    .optional()
    .describe('the other value of an "a/b" or "a or b" Armour cell (null: none); which one applies is set by the unit\'s special rule'),
  unitSize: profilePositive.describe('stands per unit'),
});

export const characterSchema = z.strictObject({
  ...rowFields,
  kind: z.literal('character'),
  type: z.enum(CHARACTER_TYPES),
  attackBonus: profileBonus.nullable().describe('Attacks the character or mount adds to a stand (+2 → 2); null where the list prints –'),
  shootingAttackBonus: profileBonus.optional().describe('shooting Attacks it adds: the second 3 of +3/+3'),
  command: positiveInt.nullable().describe('Command value; null where the list prints –'),
  unitSize: profilePositive.nullable().describe('stands; null for mounts and upgrades (–)'),
  pointsAdded: z.literal(true).optional().describe("the list prints the points as +N: added to the character's cost"),
});

export const warmasterUnitSchema = z.discriminatedUnion('kind', [troopSchema, characterSchema]);

export const armyFileSchema = z.strictObject({
  army: id.describe('the army, as the file name: empire, tomb-kings…'),
  source: z.string().min(1).describe('where the stat lines come from'),
  units: z.array(warmasterUnitSchema).min(1),
});

export type Troop = z.output<typeof troopSchema>;
export type Character = z.output<typeof characterSchema>;
export type WarmasterUnit = z.output<typeof warmasterUnitSchema>;
export type ArmyFile = z.output<typeof armyFileSchema>;

const flagsRowFields = {
  army: id,
  flags: combatFlagsSchema,
  source: z.string().min(1).describe("the army list's rule, paraphrased in one line"),
  confidence: z.enum(['high', 'low']).default('high'),
  note: z.string().min(1).optional(),
};

/** The hand-kept table: one row per unit with a combat-relevant rule, plus army-wide rules. */
export const combatFlagsTableSchema = z
  .strictObject({
    units: z.array(
      z.strictObject({
        ...flagsRowFields,
        unit: id.describe('unit id in the army file'),
        rules: z.array(positiveInt).min(1).describe("the special-rule numbers (*n) the flags come from, as the unit's row lists them"),
      }),
    ),
    armyRules: z.array(
      z.strictObject({
        ...flagsRowFields,
        appliesTo: z.enum(['troops', 'all']).default('troops').describe("troops: rows before the characters' separator"),
        except: z.array(id).default([]).describe('unit ids the army rule leaves out'),
      }),
    ),
  })
  .refine((table) => [...table.units, ...table.armyRules].every((row) => row.confidence === 'high' || row.note !== undefined), {
    message: 'a row with confidence: low needs a note saying why',
  });
export type CombatFlagsTable = z.output<typeof combatFlagsTableSchema>;

/** Which Regiments of Renown each army may hire (the allies table). */
export const regimentsOfRenownAlliesSchema = z.strictObject({
  source: z.string().min(1),
  armies: z.array(
    z.strictObject({
      army: id.describe('army file name'),
      name: z.string().min(1).describe('as the allies table prints it'),
      regiments: z.array(id).describe('unit ids in regiments-of-renown.yaml the army may hire'),
    }),
  ),
});
export type RegimentsOfRenownAllies = z.output<typeof regimentsOfRenownAlliesSchema>;

/** The JSON Schema of an army file, for editors (written to schema/warmaster-units.schema.json). */
export function armyFileJsonSchemaText(): string {
  const { $schema, ...rest } = z.toJSONSchema(armyFileSchema, { io: 'input' });
  return `${JSON.stringify({ $schema, title: 'crucible warmaster army units', ...rest }, null, 2)}\n`;
}
