import { atLeast, type FaceScore, type PoolRoller, poolRoller } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import { type Group, type HeroicOptions, PRINTED_RULES, type Rules, type Scenario, type Unit, type WeaponSet } from './schema.js';

/**
 * A validated scenario flattened into small integer ids and numbers, so the kernel's hot loop reads
 * only typed arrays and plain fields. Groups are numbered in file order (side 1's first); models are
 * numbered group after group, so group g owns models [first, first + count).
 */

export const WEAPON_MELEE = 0;
export const WEAPON_RANGED = 1;
export const WEAPON_AOE = 2;

export interface CompiledGroup {
  readonly id: string;
  readonly index: number;
  readonly side: number;
  readonly first: number;
  readonly count: number;
  readonly unit: Unit;
  readonly weapon: WeaponSet;
  readonly weaponType: number;
  readonly atk: number;
  /** Models that attack in melee while in formation (rear ranks only with Indirect Engagement, rulings §8). */
  readonly meleeFigures: number;
  readonly def: number;
  readonly might: number;
  readonly will: number;
  readonly heroic: boolean;
  readonly shielded: boolean;
  readonly regenerates: boolean;
  readonly formation: boolean;
  readonly exhausted: boolean;
  readonly charging: boolean;
  /** Declared target group, or −1 for "first enemy group with models left". */
  readonly target: number;
  /** Melee split as (target group, dice) pairs, declared before rolling (Attack Action: Rolling ATK Dice). */
  readonly split: Int32Array;
  /** AoE area as (group, models inside) pairs; empty = every model of the target group. */
  readonly area: Int32Array;
  readonly heal: number;
  readonly woundsTaken: number;
  /** Wounds of one ATK die against this group's DEF: rulings §1 (≥ DEF one, natural 6 two). */
  readonly woundScorer: PoolRoller;
}

export interface CompiledScenario {
  readonly name: string;
  readonly mode: 'attack' | 'engagement';
  readonly rounds: number;
  readonly options: HeroicOptions;
  /** The rule texts' constants (`rules:`): the one source every method's dice and tables read. */
  readonly rules: Rules;
  readonly sideNames: readonly [string, string];
  readonly groups: readonly CompiledGroup[];
  readonly modelCount: number;
  /** [attacker group × groups + target group] → 1 when the attacker's weapon triggers it (rulings §3). */
  readonly immune: Uint8Array;
  readonly weak: Uint8Array;
  readonly resist: Uint8Array;
  /**
   * 1 when the target rolls its Shield against the attacker's Attack Actions: a DEF (S) model without
   * a Broken Shield token (Shield Roll). The one place that decides it: attack-action.ts only reads it.
   */
  readonly shieldRolls: Uint8Array;
  /** Wounds one Shield die ignores: rules.shieldWounds on rules.shieldSave+ (Shield Roll, rulings §2). */
  readonly shieldScorer: PoolRoller;
  readonly method: DrawMethod;
}

/**
 * Per-face Wounds against a DEF (rulings §1): a face ≥ DEF scores 1, a Critical Hit (a face ≥
 * criticalFace, 6 printed) always succeeds and scores 1 + criticalBonus. Faces are indexed 0..5 for 1..6.
 */
export function woundFaceScore(def: number, rules: Pick<Rules, 'criticalFace' | 'criticalBonus'> = PRINTED_RULES): FaceScore {
  const critical = 1 + rules.criticalBonus;
  return [1, 2, 3, 4, 5, 6].map((face) => (face >= rules.criticalFace ? critical : face >= def ? 1 : 0)) as unknown as FaceScore;
}

/** Per-face Wounds one Shield die ignores: shieldWounds on shieldSave or more (Shield Roll, rulings §2). */
export function shieldFaceScore(rules: Pick<Rules, 'shieldSave' | 'shieldWounds'>): FaceScore {
  return atLeast(rules.shieldSave).map((success) => success * rules.shieldWounds) as unknown as FaceScore;
}

function weaponOf(unit: Unit, name: string | undefined): WeaponSet {
  const weapon = name === undefined ? unit.weapons[0] : unit.weapons.find((w) => w.name === name);
  if (weapon === undefined) throw new Error(`unit ${unit.id} has no weapon set ${name ?? ''}`);
  return weapon;
}

function sharesTag(weapon: WeaponSet, tags: readonly string[]): boolean {
  return weapon.damage.some((tag) => tags.includes(tag));
}

/** `method`: pools rolled die by die, or their totals drawn from exact tables (engine/kernel.ts). */
export function compileScenario(scenario: Scenario, units: readonly Unit[], method: DrawMethod): CompiledScenario {
  const rules = scenario.rules;
  const unitById = new Map(units.map((unit) => [unit.id, unit]));
  const declared: { group: Group; side: number }[] = [];
  scenario.sides.forEach((side, sideIndex) => {
    for (const group of side.groups) declared.push({ group, side: sideIndex });
  });
  const indexById = new Map(declared.map(({ group }, index) => [group.id, index]));
  const groupIndex = (id: string): number => {
    const index = indexById.get(id);
    if (index === undefined) throw new Error(`no group ${id}`);
    return index;
  };

  const scorers = new Map<number, PoolRoller>();
  const scorerFor = (def: number): PoolRoller => {
    let scorer = scorers.get(def);
    if (scorer === undefined) {
      scorer = poolRoller(woundFaceScore(def, rules), method);
      scorers.set(def, scorer);
    }
    return scorer;
  };

  let first = 0;
  const groups = declared.map(({ group, side }, index): CompiledGroup => {
    const unit = unitById.get(group.unit);
    if (unit === undefined) throw new Error(`no unit ${group.unit}`);
    const weapon = weaponOf(unit, group.weapon);
    const weaponType = weapon.type === 'melee' ? WEAPON_MELEE : weapon.type === 'ranged' ? WEAPON_RANGED : WEAPON_AOE;
    const compiled: CompiledGroup = {
      id: group.id,
      index,
      side,
      first,
      count: group.models,
      unit,
      weapon,
      weaponType,
      atk: weapon.atk,
      meleeFigures: weapon.indirect ? group.models : (group.frontRank ?? group.models),
      def: unit.def,
      might: unit.might,
      will: unit.will,
      heroic: unit.heroic,
      shielded: unit.shield && !group.brokenShield,
      regenerates: unit.regenerates,
      formation: group.formation,
      exhausted: group.exhausted,
      charging: group.charging,
      target: group.target === undefined ? -1 : groupIndex(group.target),
      split: Int32Array.from((group.split ?? []).flatMap((entry) => [groupIndex(entry.target), entry.dice])),
      area: Int32Array.from((group.area ?? []).flatMap((entry) => [groupIndex(entry.group), entry.models])),
      heal: group.heal?.wounds ?? 0,
      woundsTaken: group.woundsTaken,
      woundScorer: scorerFor(unit.def),
    };
    first += group.models;
    return compiled;
  });

  const count = groups.length;
  const immune = new Uint8Array(count * count);
  const weak = new Uint8Array(count * count);
  const resist = new Uint8Array(count * count);
  const shieldRolls = new Uint8Array(count * count);
  for (const attacker of groups) {
    for (const target of groups) {
      const cell = attacker.index * count + target.index;
      immune[cell] = sharesTag(attacker.weapon, target.unit.immune) ? 1 : 0;
      weak[cell] = sharesTag(attacker.weapon, target.unit.weak) ? 1 : 0;
      resist[cell] = sharesTag(attacker.weapon, target.unit.resist) ? 1 : 0;
      shieldRolls[cell] = target.shielded ? 1 : 0;
    }
  }

  const [sideA, sideB] = scenario.sides;
  return {
    name: scenario.name,
    mode: scenario.mode,
    rounds: scenario.mode === 'attack' ? 1 : scenario.rounds,
    options: scenario.options,
    rules,
    sideNames: [sideA?.name ?? 'A', sideB?.name ?? 'B'],
    groups,
    modelCount: first,
    immune,
    weak,
    resist,
    shieldRolls,
    shieldScorer: poolRoller(shieldFaceScore(rules), method),
    method,
  };
}
