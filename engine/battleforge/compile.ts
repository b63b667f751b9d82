import type { PowerProfile, UnitProfile } from './profile.js';
import type { BattleforgeOptions, Rules, Scenario } from './schema.js';
import { CHARGE_REACTIONS, codeOf, type Cover, FOCUS_BOTH, PLANS, SHOOTING_REACTIONS } from './terms.js';

/**
 * A validated scenario flattened into small integer ids: units in file order (side A's first),
 * model types unit after unit, weapons model type after model type. A unit's model types are
 * ordered the way its hits are given out (option `allocation`): the most numerous first (leaders
 * last), or the best Save first.
 */

/** A cover's Save bonus against shooting (Cover; rulings §20), from the scenario's rules. */
export function coverBonus(cover: Cover, rules: Rules): number {
  switch (cover) {
    case 'none':
      return 0;
    case 'soft':
      return rules.softCover;
    case 'hard':
      return rules.hardCover;
    case 'fortified':
      return rules.fortifiedCover;
    case 'negative':
      return rules.negativeCover;
  }
}

export interface CompiledUnit {
  readonly id: string;
  readonly name: string;
  readonly index: number;
  readonly side: number;
  readonly profile: UnitProfile;
}

export interface CompiledScenario {
  readonly name: string;
  readonly sideNames: readonly [string, string];
  readonly mode: 'game' | 'attack';
  readonly rounds: number;
  readonly distance: number;
  readonly options: BattleforgeOptions;
  /** The rule text's numbers (schema.ts `rulesSchema`): every roll, modifier and limit reads them. */
  readonly rules: Rules;
  readonly units: readonly CompiledUnit[];
  /** Per side: bid; reactions to a Shoot, a Fight, a Charge (indexes into the schema's lists); react before activating (1/0). */
  readonly bid: Int32Array;
  readonly reactToShoot: Int32Array;
  readonly reactToFight: Int32Array;
  readonly reactToCharge: Int32Array;
  readonly reactBeforeActivating: Int32Array;
  // Per unit.
  readonly side: Int32Array;
  readonly place: Float64Array;
  readonly cover: Int32Array;
  readonly terrain: Int32Array;
  readonly startShock: Int32Array;
  readonly startFocus: Int32Array;
  readonly startEvade: Int32Array;
  readonly plan: Int32Array;
  /** Rally first with this much Shock or more; 0: never. */
  readonly rallyAt: Int32Array;
  /** Inches a passed Rush adds: `rushPercent` of the lead type's Movement, rounded down (Rushing). */
  readonly rush: Int32Array;
  /** The most Shock bidding may leave on the unit: strictly below `bidLimitPercent` of its Courage (Shock Limit; rulings §25). */
  readonly bidCap: Int32Array;
  /** Model types [start, end) and the type whose characteristics the unit's own tests use. */
  readonly typeStart: Int32Array;
  readonly typeEnd: Int32Array;
  readonly leadType: Int32Array;
  /** Models (with characteristics) and Wounds at the start; whether its models have Wounds(x). */
  readonly models: Int32Array;
  readonly woundsTotal: Int32Array;
  readonly multiWound: Int32Array;
  readonly hasMelee: Int32Array;
  readonly hasRanged: Int32Array;
  /** The power rule's x, and the unit's powers [start, end) into the power arrays. */
  readonly powerSlots: Int32Array;
  readonly powerStart: Int32Array;
  readonly powerEnd: Int32Array;
  // Per known power of a unit.
  readonly powerCast: Int32Array;
  readonly powerRange: Float64Array;
  readonly powerHits: Int32Array;
  readonly powerAp: Int32Array;
  readonly powerShock: Int32Array;
  readonly powerName: readonly string[];
  // Per model type.
  readonly typeUnit: Int32Array;
  readonly typeCount: Int32Array;
  readonly typeHasCharacteristics: Int32Array;
  readonly movement: Int32Array;
  readonly accuracy: Int32Array;
  readonly strength: Int32Array;
  readonly save: Int32Array;
  readonly meleeSave: Int32Array;
  readonly initiative: Int32Array;
  readonly courage: Int32Array;
  readonly wounds: Int32Array;
  /** Weapons of the type [start, end). */
  readonly weaponStart: Int32Array;
  readonly weaponEnd: Int32Array;
  // Per weapon.
  readonly weaponName: readonly string[];
  readonly weaponType: Int32Array;
  /** Dice per model: attacks × copies. */
  readonly weaponDice: Int32Array;
  readonly weaponAp: Int32Array;
  readonly weaponMelee: Int32Array;
  readonly weaponShort: Float64Array;
  readonly weaponLong: Float64Array;
}

/** Model counts a scenario unit asks for, by model type name (validate.ts has checked the names). */
export function modelCounts(models: Scenario['sides'][number]['units'][number]['models'], profile: UnitProfile): number[] {
  if (models === undefined) return profile.models.map((model) => model.count);
  if (typeof models === 'number') return profile.models.map((_, m) => (m === 0 ? models : 0));
  return profile.models.map((model) => models[model.name] ?? 0);
}

/**
 * Compile a validated scenario; `profiles` maps `<faction>/<unit id>` to the unit's profile and
 * `powers` `<faction>/<power id>` to the powers units know.
 */
export function compileScenario(
  scenario: Scenario,
  profiles: ReadonlyMap<string, UnitProfile>,
  powers: ReadonlyMap<string, PowerProfile> = new Map(),
): CompiledScenario {
  const declared = scenario.sides.flatMap((side, sideIndex) => side.units.map((unit) => ({ unit, side, sideIndex })));
  const unitCount = declared.length;
  const perUnit = () => new Int32Array(unitCount);
  const u = {
    side: perUnit(),
    cover: perUnit(),
    terrain: perUnit(),
    startShock: perUnit(),
    startFocus: perUnit(),
    startEvade: perUnit(),
    plan: perUnit(),
    rallyAt: perUnit(),
    typeStart: perUnit(),
    typeEnd: perUnit(),
    leadType: perUnit(),
    models: perUnit(),
    woundsTotal: perUnit(),
    multiWound: perUnit(),
    hasMelee: perUnit(),
    hasRanged: perUnit(),
    powerSlots: perUnit(),
    powerStart: perUnit(),
    powerEnd: perUnit(),
    rush: perUnit(),
    bidCap: perUnit(),
  };
  const rules = scenario.rules;
  const knownPowers: PowerProfile[] = [];
  const place = new Float64Array(unitCount);
  const types: {
    unit: number;
    count: number;
    hasCharacteristics: boolean;
    movement: number;
    accuracy: number;
    strength: number;
    save: number;
    meleeSave: number;
    initiative: number;
    courage: number;
    wounds: number;
    weaponStart: number;
    weaponEnd: number;
  }[] = [];
  const weapons: { name: string; type: number; dice: number; ap: number; melee: boolean; short: number; long: number }[] = [];
  const units: CompiledUnit[] = [];

  declared.forEach(({ unit, side, sideIndex }, index) => {
    const profile = profiles.get(unit.unit);
    if (profile === undefined) throw new Error(`compileScenario: no profile for ${unit.unit} (validate the scenario first)`);
    const counts = modelCounts(unit.models, profile);
    const order = profile.models
      .map((model, m) => ({ model, count: counts[m] ?? 0, m }))
      .filter((entry) => entry.count > 0)
      .sort((a, b) =>
        scenario.options.allocation === 'best-save-first'
          ? b.model.save - a.model.save || b.count - a.count || a.m - b.m
          : Number(b.model.hasCharacteristics) - Number(a.model.hasCharacteristics) || b.count - a.count || a.m - b.m,
      );
    u.side[index] = sideIndex;
    place[index] = sideIndex === 0 ? unit.position : scenario.distance - unit.position;
    u.cover[index] = coverBonus(unit.cover, rules);
    u.terrain[index] = unit.terrain ? 1 : 0;
    u.startShock[index] = unit.shock;
    u.startFocus[index] = unit.focus ? FOCUS_BOTH : 0; // a stated Focus applies to the attack made, whichever stat
    u.startEvade[index] = unit.evade ? 1 : 0;
    u.plan[index] = codeOf(PLANS, unit.plan ?? side.plan);
    u.rallyAt[index] = unit.rallyAt ?? side.rallyAt ?? 0;
    u.typeStart[index] = types.length;
    let lead = -1;
    let leadCount = 0;
    for (const { model, count } of order) {
      const type = types.length;
      if (model.hasCharacteristics && count > leadCount) {
        lead = type;
        leadCount = count;
      }
      const weaponStart = weapons.length;
      if (model.hasCharacteristics) {
        for (const weapon of model.weapons) {
          weapons.push({
            name: weapon.name,
            type,
            dice: weapon.attacks * weapon.copies,
            ap: weapon.ap,
            melee: weapon.melee,
            short: weapon.short,
            long: weapon.long,
          });
          if (weapon.melee) u.hasMelee[index] = 1;
          else u.hasRanged[index] = 1;
        }
        u.models[index] = (u.models[index] ?? 0) + count;
        u.woundsTotal[index] = (u.woundsTotal[index] ?? 0) + count * model.wounds;
        if (model.wounds > 1) u.multiWound[index] = 1;
      }
      types.push({
        unit: index,
        count,
        hasCharacteristics: model.hasCharacteristics,
        movement: model.movement,
        accuracy: model.accuracy,
        strength: model.strength,
        save: model.save,
        meleeSave: model.meleeSave ?? model.save,
        initiative: model.initiative,
        courage: model.courage,
        wounds: model.wounds,
        weaponStart,
        weaponEnd: weapons.length,
      });
    }
    u.typeEnd[index] = types.length;
    u.powerSlots[index] = profile.powerSlots ?? 0;
    u.powerStart[index] = knownPowers.length;
    const faction = unit.unit.split('/')[0] ?? '';
    for (const id of unit.powers) {
      const power = powers.get(`${faction}/${id}`);
      if (power === undefined) throw new Error(`compileScenario: no power ${faction}/${id} (validate the scenario first)`);
      knownPowers.push(power);
    }
    u.powerEnd[index] = knownPowers.length;
    const leadType = lead < 0 ? (u.typeStart[index] ?? 0) : lead;
    u.leadType[index] = leadType;
    const leadModel = types[leadType];
    // Whole inches and Shock: integer arithmetic, so the text's "half" is exact (⌊M·50/100⌋ = ⌊M/2⌋).
    u.rush[index] = Math.floor(((leadModel?.movement ?? 0) * rules.rushPercent) / 100);
    // The largest s with s < Courage × p / 100, i.e. s·100 < Courage·p: −1 when no Shock fits.
    u.bidCap[index] = Math.floor(((leadModel?.courage ?? 0) * rules.bidLimitPercent - 1) / 100);
    units.push({ id: unit.id, name: unit.name ?? profile.name, index, side: sideIndex, profile });
  });

  const typeArray = (
    field:
      | 'unit'
      | 'count'
      | 'movement'
      | 'accuracy'
      | 'strength'
      | 'save'
      | 'meleeSave'
      | 'initiative'
      | 'courage'
      | 'wounds'
      | 'weaponStart'
      | 'weaponEnd',
  ) => Int32Array.from(types, (type) => type[field]);
  const sideArray = (value: (side: Scenario['sides'][number]) => number) => Int32Array.from(scenario.sides, value);
  return {
    name: scenario.name,
    sideNames: [scenario.sides[0]?.name ?? 'A', scenario.sides[1]?.name ?? 'B'],
    mode: scenario.mode,
    rounds: scenario.rounds,
    distance: scenario.distance,
    options: scenario.options,
    rules,
    units,
    bid: sideArray((side) => side.bid),
    reactToShoot: sideArray((side) => codeOf(SHOOTING_REACTIONS, side.reactions.toShooting)),
    reactToFight: sideArray((side) => codeOf(SHOOTING_REACTIONS, side.reactions.toFighting)),
    reactToCharge: sideArray((side) => codeOf(CHARGE_REACTIONS, side.reactions.toCharge)),
    reactBeforeActivating: sideArray((side) => (side.reactions.beforeActivating ? 1 : 0)),
    ...u,
    place,
    typeUnit: typeArray('unit'),
    typeCount: typeArray('count'),
    typeHasCharacteristics: Int32Array.from(types, (type) => (type.hasCharacteristics ? 1 : 0)),
    movement: typeArray('movement'),
    accuracy: typeArray('accuracy'),
    strength: typeArray('strength'),
    save: typeArray('save'),
    meleeSave: typeArray('meleeSave'),
    initiative: typeArray('initiative'),
    courage: typeArray('courage'),
    wounds: typeArray('wounds'),
    weaponStart: typeArray('weaponStart'),
    weaponEnd: typeArray('weaponEnd'),
    powerName: knownPowers.map((power) => power.name),
    powerCast: Int32Array.from(knownPowers, (power) => power.cast),
    powerRange: Float64Array.from(knownPowers, (power) => power.range),
    powerHits: Int32Array.from(knownPowers, (power) => power.hits),
    powerAp: Int32Array.from(knownPowers, (power) => power.ap),
    powerShock: Int32Array.from(knownPowers, (power) => power.shock),
    weaponName: weapons.map((weapon) => weapon.name),
    weaponType: Int32Array.from(weapons, (weapon) => weapon.type),
    weaponDice: Int32Array.from(weapons, (weapon) => weapon.dice),
    weaponAp: Int32Array.from(weapons, (weapon) => weapon.ap),
    weaponMelee: Int32Array.from(weapons, (weapon) => (weapon.melee ? 1 : 0)),
    weaponShort: Float64Array.from(weapons, (weapon) => weapon.short),
    weaponLong: Float64Array.from(weapons, (weapon) => weapon.long),
  };
}
