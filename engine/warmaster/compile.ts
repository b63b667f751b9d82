import { atLeast, type PoolScorer, poolScorer } from '../dice/index.js';
import { CONTACT_KINDS, codeOf, DEFENDED, FLANK, FRONT, OPEN, POSITIONS, REAR, WINNER_POLICIES } from './codes.js';
import type { Contact, Rules, Scenario, ScenarioUnit, WarmasterOptions } from './schema.js';
import { TROOP_TYPES, type TroopType } from './troop-types.js';
import type { CombatFlags, Troop, WarmasterUnit } from './units.js';

/**
 * A validated scenario flattened into small integer ids: units numbered in file order (side A's
 * first), contact groups numbered unit after unit, each unit's in the order its remaining stands
 * fill them (front, corner, flank, rear: a player keeps stands where they fight best). The kernel
 * reads only these arrays.
 */

export const INFANTRY = TROOP_TYPES.indexOf('infantry');
export const CAVALRY = TROOP_TYPES.indexOf('cavalry');
export const CHARIOT = TROOP_TYPES.indexOf('chariot');
export const MONSTER = TROOP_TYPES.indexOf('monster');
export const ARTILLERY = TROOP_TYPES.indexOf('artillery');

/** Unit flag bits (the army list's flags, the scenario's additions and what the type implies). */
export const F_TERROR = 1 << 0;
export const F_IMMUNE_TO_TERROR = 1 << 1;
export const F_REGENERATES = 1 << 2;
export const F_ALWAYS_HITS_ON_4 = 1 << 3;
/** Flies and can only be pursued by flyers (a flyer that is not an awkward flyer). */
export const F_UNPURSUABLE_FLYER = 1 << 4;
/** May pursue flyers: flies, or has mayPursueFlyers. */
export const F_PURSUES_FLYERS = 1 << 5;
export const F_MUST_PURSUE = 1 << 6;
export const F_PURSUES_MOUNTED = 1 << 7;
/** +1 more when charging: Monsters and Chariots, or monsterChargeBonus. */
export const F_BIG_CHARGE = 1 << 8;
export const F_NO_CHARGE_BONUS = 1 << 9;
export const F_FIRST_ROUND_FRONT = 1 << 10;
export const F_CHARGE_D6 = 1 << 11;
export const F_VS_MONSTERS = 1 << 12;
export const F_ONE_STAND_BONUS = 1 << 13;
export const F_DEFENDED_VS_MOUNTED_CHARGE = 1 << 14;
export const F_ARMOUR_PIERCING = 1 << 15;
export const F_CHARGING = 1 << 16;
export const F_IRREGULAR = 1 << 17;
export const F_CONFUSED = 1 << 18;
/** Some of its stands have an enemy front on their side or rear (it was charged in flank or rear). */
export const F_FLANKED = 1 << 19;

/** The face a save needs, 7 for none. */
export const NO_SAVE = 7;

export interface CompiledUnit {
  readonly id: string;
  readonly name: string;
  readonly index: number;
  readonly side: number;
  readonly type: number;
  readonly troop: Troop;
}

export interface CompiledScenario {
  readonly name: string;
  readonly sideNames: readonly [string, string];
  readonly maxTurns: number;
  /** Rounds fought at most (0: no limit but maxTurns). */
  readonly maxRounds: number;
  readonly options: WarmasterOptions;
  /** The rule text's constants (`rules:`): what the arrays below do not already hold is read from here. */
  readonly rules: Rules;
  /** Option `casualties: keep-supports` (rulings §14). */
  readonly keepSupports: boolean;
  /** Option `shootingCasualties: before-combat` (rulings §15). */
  readonly shootingCasualtiesFirst: boolean;
  readonly units: readonly CompiledUnit[];
  /** Per side: the winner's policy code (codes.ts). */
  readonly policy: Int32Array;
  // Per unit.
  readonly side: Int32Array;
  readonly type: Int32Array;
  readonly flags: Int32Array;
  readonly attacks: Int32Array;
  readonly hitsPerStand: Int32Array;
  /** Armour save face, NO_SAVE for none. */
  readonly armour: Int32Array;
  readonly stands: Int32Array;
  readonly startHits: Int32Array;
  readonly position: Int32Array;
  readonly characterBonus: Int32Array;
  readonly supports: Int32Array;
  /** Friendly unit it supports, −1: none. */
  readonly supporting: Int32Array;
  /** Probability of a blocked retreat, and stands destroyed when it is. */
  readonly blockChance: Float64Array;
  readonly blockStands: Int32Array;
  /** Bit per troop type that cannot follow its retreat. */
  readonly retreatTerrain: Int32Array;
  /** Reserve order on its side (−1: in the first engagement) and the chance an advance reaches it. */
  readonly reserveOrder: Int32Array;
  readonly reserveChance: Float64Array;
  /** Shooting at chargers: target unit (−1: none / first charging enemy), dice, hit face, armour one worse. */
  readonly shotTarget: Int32Array;
  readonly shotDice: Int32Array;
  readonly shotHitOn: Int32Array;
  /** Faces the shots make the target's Armour worse (0: none). */
  readonly shotArmourWorse: Int32Array;
  readonly shoots: Int32Array;
  /** Contact groups of the first engagement [start, end), and against a new enemy [start, end) (`newContact`). */
  readonly groupStart: Int32Array;
  readonly groupEnd: Int32Array;
  readonly newGroupStart: Int32Array;
  readonly newGroupEnd: Int32Array;
  /** Units of each side in reserve order. */
  readonly reserves: readonly (readonly number[])[];
  // Per contact group.
  readonly groupUnit: Int32Array;
  readonly groupTarget: Int32Array;
  readonly groupKind: Int32Array;
  readonly groupStands: Int32Array;
  // Modifiers that never change during a trial, precomputed (rulings §12).
  /** Per group: −flankRearPenalty for flank and rear stands. */
  readonly groupModifier: Int32Array;
  /** Per group: +firstRoundFrontBonusAttacks in an engagement's first round for front stands of a firstRoundFrontBonus unit. */
  readonly groupFirstRoundBonus: Int32Array;
  /** Per attacker × target: terrifying target −terrorPenalty, confused −confusedPenalty, bonusAttackVsMonsters +vsMonstersBonusAttacks. */
  readonly pairModifier: Int32Array;
  /** Per attacker × target: 1 when the target counts as defended against this unit's charge (cavalry or chariots on defendedVsMountedChargeFront, not flanked). */
  readonly bracedAgainst: Int32Array;
  /**
   * Per pursuer × target: 1 when it may pursue the target (rulings §17): not into terrain it cannot
   * enter; infantry not after cavalry or chariots, non-flyers not after flyers, unless it may; and,
   * in the round it charged, also after a target it charged in the flank or rear or in irregular formation.
   */
  readonly pursuable: Int32Array;
  readonly pursuableAfterCharge: Int32Array;
  /** Per unit: its charge bonus in the open (0 with noChargeBonus; chargeBonus, plus monsterChariotChargeBonus for monsters and chariots). */
  readonly chargeBonus: Int32Array;
  /** Per unit: D6 it adds to its Attacks when it charges enemy in the open (chargeBonusD6; none with noChargeBonus). */
  readonly chargeDice: Int32Array;
  /** Per unit: Attacks it adds to one stand (bonusAttackOnOneStand). */
  readonly oneStandBonus: Int32Array;
  /** Per unit: faces its close-combat attacks make the target's Armour worse (armourPiercing; 0: none). */
  readonly armourWorse: Int32Array;
  /** Per unit: outstanding hits it regenerates after each round's casualties (regenerates; 0: none). */
  readonly regeneration: Int32Array;
  /** PoolScorer for "D6 ≥ face", indexed by face 2..6 (hits and saves). */
  readonly atLeastScorers: readonly PoolScorer[];
}

const FLAG_BITS: readonly (readonly [keyof CombatFlags, number])[] = [
  ['terror', F_TERROR],
  ['immuneToTerror', F_IMMUNE_TO_TERROR],
  ['regenerates', F_REGENERATES],
  ['alwaysHitsOn4', F_ALWAYS_HITS_ON_4],
  ['mustPursue', F_MUST_PURSUE],
  ['mayPursueCavalryAndChariots', F_PURSUES_MOUNTED],
  ['mayPursueFlyers', F_PURSUES_FLYERS],
  ['monsterChargeBonus', F_BIG_CHARGE],
  ['noChargeBonus', F_NO_CHARGE_BONUS],
  ['firstRoundFrontBonus', F_FIRST_ROUND_FRONT],
  ['chargeBonusD6', F_CHARGE_D6],
  ['bonusAttackVsMonsters', F_VS_MONSTERS],
  ['bonusAttackOnOneStand', F_ONE_STAND_BONUS],
  ['defendedVsMountedChargeFront', F_DEFENDED_VS_MOUNTED_CHARGE],
];

/** The army-list flags merged with the scenario's additions and its characters' terror. */
export function effectiveFlags(unit: ScenarioUnit, troop: Troop, characters: readonly WarmasterUnit[]): CombatFlags {
  const merged: CombatFlags = { ...troop.flags, ...unit.flags };
  if (characters.some((character) => character.flags?.terror === true)) merged.terror = true;
  return merged;
}

function unitFlags(unit: ScenarioUnit, troop: Troop, flags: CombatFlags, contacts: readonly Contact[]): number {
  let bits = 0;
  for (const [flag, bit] of FLAG_BITS) if (flags[flag] === true) bits |= bit;
  if (flags.flyer === true) {
    bits |= F_PURSUES_FLYERS;
    if (flags.awkwardFlyer !== true) bits |= F_UNPURSUABLE_FLYER;
  }
  if (troop.type === 'monster' || troop.type === 'chariot') bits |= F_BIG_CHARGE;
  if (unit.armourPiercing) bits |= F_ARMOUR_PIERCING;
  if (unit.charging) bits |= F_CHARGING;
  if (unit.irregular) bits |= F_IRREGULAR;
  if (unit.confused) bits |= F_CONFUSED;
  if (contacts.some((contact) => contact.flank + contact.rear > 0)) bits |= F_FLANKED;
  return bits;
}

export const contactList = (unit: ScenarioUnit): readonly Contact[] =>
  unit.contact === undefined ? [] : Array.isArray(unit.contact) ? unit.contact : [unit.contact];

export const startingStands = (unit: ScenarioUnit, troop: Troop): number => unit.stands ?? troop.unitSize;

export const startingPosition = (unit: ScenarioUnit, flags: CombatFlags): number =>
  unit.position !== undefined ? codeOf(POSITIONS, unit.position) : flags.alwaysDefended === true ? DEFENDED : OPEN;

/** Compile a validated scenario; `units` maps `<army>/<unit id>` to the army lists' entries. */
export function compileScenario(scenario: Scenario, units: ReadonlyMap<string, WarmasterUnit>): CompiledScenario {
  const rules = scenario.rules;
  const declared = scenario.sides.flatMap((side, sideIndex) => side.units.map((unit) => ({ unit, sideIndex })));
  const indexOf = new Map(declared.map(({ unit }, index) => [unit.id, index]));
  const count = declared.length;
  const perUnit = () => new Int32Array(count);
  const compiled = {
    side: perUnit(),
    type: perUnit(),
    flags: perUnit(),
    attacks: perUnit(),
    hitsPerStand: perUnit(),
    armour: perUnit(),
    stands: perUnit(),
    startHits: perUnit(),
    position: perUnit(),
    characterBonus: perUnit(),
    supports: perUnit(),
    supporting: perUnit().fill(-1),
    blockChance: new Float64Array(count),
    blockStands: perUnit(),
    retreatTerrain: perUnit(),
    reserveOrder: perUnit().fill(-1),
    reserveChance: new Float64Array(count),
    shotTarget: perUnit().fill(-1),
    shotDice: perUnit(),
    shotHitOn: perUnit(),
    shotArmourWorse: perUnit(),
    shoots: perUnit(),
    groupStart: perUnit(),
    groupEnd: perUnit(),
    newGroupStart: perUnit(),
    newGroupEnd: perUnit(),
  };
  const groups: { unit: number; target: number; kind: number; stands: number }[] = [];
  const reserves: number[][] = [[], []];
  const compiledUnits: CompiledUnit[] = [];
  const troopOf = (reference: string): Troop => {
    const entry = units.get(reference);
    if (entry?.kind !== 'troop') throw new Error(`compileScenario: ${reference} is not a troop (validate the scenario first)`);
    return entry;
  };
  const addGroups = (unitIndex: number, contacts: readonly Contact[]) => {
    for (let kind = 0; kind < CONTACT_KINDS.length; kind++) {
      const key = CONTACT_KINDS[kind] as keyof Omit<Contact, 'target'>;
      for (const contact of contacts) {
        if (contact[key] === 0) continue;
        const target = contact.target === undefined ? -1 : (indexOf.get(contact.target) ?? -1);
        groups.push({ unit: unitIndex, target, kind, stands: contact[key] });
      }
    }
  };

  declared.forEach(({ unit, sideIndex }, index) => {
    const troop = troopOf(unit.unit);
    const characters = unit.characters.map((reference) => units.get(reference)).filter((entry) => entry !== undefined);
    const flags = effectiveFlags(unit, troop, characters);
    const contacts = contactList(unit);
    compiled.side[index] = sideIndex;
    compiled.type[index] = TROOP_TYPES.indexOf(troop.type);
    compiled.flags[index] = unitFlags(unit, troop, flags, contacts);
    compiled.attacks[index] = troop.attacks ?? 0;
    compiled.hitsPerStand[index] = troop.hits ?? 1;
    compiled.armour[index] = troop.armour ?? NO_SAVE;
    compiled.stands[index] = startingStands(unit, troop);
    compiled.startHits[index] = unit.hits;
    compiled.position[index] = startingPosition(unit, flags);
    compiled.characterBonus[index] = Math.max(
      0,
      ...characters.map((character) => (character.kind === 'character' ? (character.attackBonus ?? 0) : 0)),
    );
    compiled.supports[index] = unit.supports;
    const blocked = unit.retreatBlocked;
    const blockChance = typeof blocked === 'boolean' ? (blocked ? 1 : 0) : typeof blocked === 'number' ? blocked : blocked.chance;
    compiled.blockChance[index] = blockChance;
    compiled.blockStands[index] =
      typeof blocked === 'object' ? (blocked.stands ?? compiled.stands[index] ?? 0) : (compiled.stands[index] ?? 0);
    compiled.retreatTerrain[index] = unit.retreatTerrain.reduce((mask, type: TroopType) => mask | (1 << TROOP_TYPES.indexOf(type)), 0);
    if (unit.reserve !== undefined) {
      compiled.reserveOrder[index] = reserves[sideIndex]?.length ?? 0;
      compiled.reserveChance[index] = unit.reserve.chance;
      reserves[sideIndex]?.push(index);
    }
    if (unit.shootsAtChargers !== undefined) {
      const shooting = unit.shootsAtChargers === true ? {} : unit.shootsAtChargers;
      compiled.shoots[index] = 1;
      compiled.shotTarget[index] = 'target' in shooting && shooting.target !== undefined ? (indexOf.get(shooting.target) ?? -1) : -1;
      compiled.shotDice[index] =
        ('attacks' in shooting ? shooting.attacks : undefined) ?? (troop.shootingAttacks ?? 0) * (compiled.stands[index] ?? 0);
      // A charger is in the open (Defended & fortified troops): 4+ unless the scenario says.
      compiled.shotHitOn[index] = ('hitOn' in shooting ? shooting.hitOn : undefined) ?? rules.hitOnOpen;
      const oneWorse = 'armourOneWorse' in shooting ? shooting.armourOneWorse : undefined;
      compiled.shotArmourWorse[index] = (oneWorse ?? flags.shotsMakeArmourOneWorse === true) ? rules.armourOneWorseFaces : 0;
    }
    compiled.groupStart[index] = groups.length;
    addGroups(index, contacts);
    compiled.groupEnd[index] = groups.length;
    compiled.newGroupStart[index] = groups.length;
    addGroups(index, [
      unit.newContact === undefined ? { front: compiled.stands[index] ?? 0, flank: 0, rear: 0, corner: 0 } : unit.newContact,
    ]);
    compiled.newGroupEnd[index] = groups.length;
    compiledUnits.push({ id: unit.id, name: unit.name ?? troop.name, index, side: sideIndex, type: compiled.type[index] ?? 0, troop });
  });

  // Supports go to the named unit, else the unit itself if it fights to its front, else the first
  // friendly infantry unit that does (validate.ts has checked one exists where supports are given).
  const frontFighter = (index: number) =>
    compiled.type[index] === INFANTRY && contactList(declared[index]?.unit as ScenarioUnit).some((contact) => contact.front > 0);
  declared.forEach(({ unit, sideIndex }, index) => {
    if (unit.supports === 0) return;
    const named = unit.supporting === undefined ? undefined : indexOf.get(unit.supporting);
    const sameStage = (other: number) => (compiled.reserveOrder[other] ?? -1) === (compiled.reserveOrder[index] ?? -1);
    compiled.supporting[index] =
      named ??
      (frontFighter(index) ? index : declared.findIndex((other, i) => other.sideIndex === sideIndex && sameStage(i) && frontFighter(i)));
  });

  const groupArray = (field: 'unit' | 'target' | 'kind' | 'stands') => Int32Array.from(groups, (group) => group[field]);
  const flagsOf = (unit: number) => compiled.flags[unit] ?? 0;
  const pairModifier = new Int32Array(count * count);
  const bracedAgainst = new Int32Array(count * count);
  const pursuable = new Int32Array(count * count);
  const pursuableAfterCharge = new Int32Array(count * count);
  for (let attacker = 0; attacker < count; attacker++) {
    const flags = flagsOf(attacker);
    const mounted = compiled.type[attacker] === CAVALRY || compiled.type[attacker] === CHARIOT;
    for (let target = 0; target < count; target++) {
      const targetFlags = flagsOf(target);
      let modifier = (flags & F_CONFUSED) !== 0 ? -rules.confusedPenalty : 0;
      if ((targetFlags & F_TERROR) !== 0 && (flags & (F_TERROR | F_IMMUNE_TO_TERROR)) === 0) modifier -= rules.terrorPenalty;
      if ((flags & F_VS_MONSTERS) !== 0 && compiled.type[target] === MONSTER) modifier += rules.vsMonstersBonusAttacks;
      pairModifier[attacker * count + target] = modifier;
      const braced = mounted && (targetFlags & (F_DEFENDED_VS_MOUNTED_CHARGE | F_FLANKED)) === F_DEFENDED_VS_MOUNTED_CHARGE;
      bracedAgainst[attacker * count + target] = braced ? 1 : 0;
      const type = compiled.type[attacker] ?? 0;
      const targetType = compiled.type[target];
      const terrain = ((compiled.retreatTerrain[target] ?? 0) & (1 << type)) !== 0;
      const mountedTarget = type === INFANTRY && (targetType === CAVALRY || targetType === CHARIOT) && (flags & F_PURSUES_MOUNTED) === 0;
      const flyingTarget = (targetFlags & F_UNPURSUABLE_FLYER) !== 0 && (flags & F_PURSUES_FLYERS) === 0;
      const chargedInFlank = (targetFlags & (F_FLANKED | F_IRREGULAR)) !== 0;
      pursuable[attacker * count + target] = !terrain && !mountedTarget && !flyingTarget ? 1 : 0;
      pursuableAfterCharge[attacker * count + target] = !terrain && (chargedInFlank || (!mountedTarget && !flyingTarget)) ? 1 : 0;
    }
  }
  return {
    name: scenario.name,
    sideNames: [scenario.sides[0]?.name ?? 'A', scenario.sides[1]?.name ?? 'B'],
    maxTurns: scenario.maxTurns,
    maxRounds: scenario.maxRounds ?? 0,
    options: scenario.options,
    rules,
    keepSupports: scenario.options.casualties === 'keep-supports',
    shootingCasualtiesFirst: scenario.options.shootingCasualties === 'before-combat',
    units: compiledUnits,
    policy: Int32Array.from(scenario.sides, (side) => codeOf(WINNER_POLICIES, side.policy)),
    ...compiled,
    reserves,
    groupUnit: groupArray('unit'),
    groupTarget: groupArray('target'),
    groupKind: groupArray('kind'),
    groupStands: groupArray('stands'),
    groupModifier: Int32Array.from(groups, (group) => (group.kind === FLANK || group.kind === REAR ? -rules.flankRearPenalty : 0)),
    groupFirstRoundBonus: Int32Array.from(groups, (group) =>
      group.kind === FRONT && (flagsOf(group.unit) & F_FIRST_ROUND_FRONT) !== 0 ? rules.firstRoundFrontBonusAttacks : 0,
    ),
    pairModifier,
    bracedAgainst,
    pursuable,
    pursuableAfterCharge,
    chargeBonus: Int32Array.from({ length: count }, (_, unit) =>
      (flagsOf(unit) & F_NO_CHARGE_BONUS) !== 0
        ? 0
        : rules.chargeBonus + ((flagsOf(unit) & F_BIG_CHARGE) !== 0 ? rules.monsterChariotChargeBonus : 0),
    ),
    chargeDice: Int32Array.from({ length: count }, (_, unit) =>
      (flagsOf(unit) & (F_CHARGE_D6 | F_NO_CHARGE_BONUS)) === F_CHARGE_D6 ? rules.chargeBonusD6Dice : 0,
    ),
    oneStandBonus: Int32Array.from({ length: count }, (_, unit) =>
      (flagsOf(unit) & F_ONE_STAND_BONUS) !== 0 ? rules.oneStandBonusAttacks : 0,
    ),
    armourWorse: Int32Array.from({ length: count }, (_, unit) =>
      (flagsOf(unit) & F_ARMOUR_PIERCING) !== 0 ? rules.armourOneWorseFaces : 0,
    ),
    regeneration: Int32Array.from({ length: count }, (_, unit) => ((flagsOf(unit) & F_REGENERATES) !== 0 ? rules.regenerationHits : 0)),
    atLeastScorers: [0, 1, 2, 3, 4, 5, 6].map((face) => poolScorer(atLeast(Math.max(face, 1)))),
  };
}
