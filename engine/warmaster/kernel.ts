import type { Dice } from '../dice/index.js';
import type { Kernel, MetricSpec } from '../kernel.js';
import {
  ARTILLERY, CAVALRY, CHANCE_SCALE, CHARIOT, type CompiledScenario, DEFENDED, F_ALWAYS_HITS_ON_4, F_ARMOUR_PIERCING,
  F_BIG_CHARGE, F_CHARGE_D6, F_CHARGING, F_CONFUSED, F_DEFENDED_VS_MOUNTED_CHARGE, F_FIRST_ROUND_FRONT, F_FLANKED,
  F_IMMUNE_TO_TERROR, F_IRREGULAR, F_MUST_PURSUE, F_NO_CHARGE_BONUS, F_ONE_STAND_BONUS, F_PURSUES_FLYERS,
  F_PURSUES_MOUNTED, F_REGENERATES, F_TERROR, F_UNPURSUABLE_FLYER, F_VS_MONSTERS, FLANK, FORTIFIED, FRONT, INFANTRY,
  MONSTER, NO_SAVE, OPEN, REAR,
} from './compile.js';
import {
  ADVANCES, PURSUITS, RECORDED_ROUNDS, RETREAT, ROUND_DRAW, ROUND_RESULTS, ROUNDS, SIDE_METRICS, SIDE_WIDTH, TURNS,
  UNIT_METRICS, UNIT_WIDTH, WINNER, WINNER_DRAW, WINNER_UNRESOLVED, warmasterMetrics,
} from './metrics.js';

export const WARMASTER_ENGINE_VERSION = 'warmaster-1.0.0';

const POLICY_PURSUE = 0;
const POLICY_PURSUE_WHILE_AHEAD = 1;
const POLICY_FALL_BACK = 3;
const NO_OUTCOME = -1;

/**
 * One trial = one engagement and the chain it leads to, in the step order of README.md. State is
 * typed-array views over one buffer, reset by one `set` per trial; nothing is allocated per trial.
 */
export class WarmasterKernel implements Kernel {
  readonly ruleset = 'warmaster';
  readonly engineVersion = WARMASTER_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];

  private readonly unitCount: number;
  private readonly state: Int32Array;
  private readonly template: Int32Array;
  // Per unit, views of `state`.
  private readonly stands: Int32Array;
  private readonly hits: Int32Array;
  private readonly engaged: Int32Array;
  private readonly position: Int32Array;
  /** cm it retreated in the previous round of this engagement, −1: it did not. */
  private readonly retreated: Int32Array;
  /** 1 when it pursued into the coming round (pursuit bonuses, rulings §12). */
  private readonly pursuer: Int32Array;
  private readonly advanced: Int32Array;
  private readonly charging: Int32Array;
  private readonly destroyedRound: Int32Array;
  private readonly groupFrom: Int32Array;
  private readonly groupTo: Int32Array;
  /** Hits its shooting enemies inflicted before round 1, counted in round 1's result (rulings §15). */
  private readonly shotTaken: Int32Array;
  // Per unit, scratch for one round.
  private readonly roundHits: Int32Array;
  private readonly capacity: Int32Array;
  private readonly supportsNow: Int32Array;
  /** Stands fighting to their front this round: only they can be supported. */
  private readonly frontNow: Int32Array;
  private readonly pursuesNext: Int32Array;
  // Per group.
  private readonly targetNow: Int32Array;
  private readonly fightingNow: Int32Array;
  private readonly groupDice: Int32Array;
  private readonly groupTargetResolved: Int32Array;
  // Per side.
  private readonly result = new Int32Array(2);
  private readonly lostInEngagement = new Int32Array(2);
  private readonly reserveCursor = new Int32Array(2);
  /** Engaged units of each side at the start of the round: the divisor of the retreat (rulings §16). */
  private readonly losingUnits = new Int32Array(2);
  /** Rounds fought so far in this trial, over the chain. */
  private roundNumber = 0;

  constructor(private readonly scenario: CompiledScenario) {
    this.metrics = warmasterMetrics(scenario);
    const units = scenario.units.length;
    const groups = scenario.groupUnit.length;
    this.unitCount = units;
    const PER_UNIT_FIELDS = 13;
    this.state = new Int32Array(PER_UNIT_FIELDS * units + groups);
    let offset = 0;
    const view = (length: number) => {
      const array = this.state.subarray(offset, offset + length);
      offset += length;
      return array;
    };
    this.stands = view(units);
    this.hits = view(units);
    this.engaged = view(units);
    this.position = view(units);
    this.retreated = view(units);
    this.pursuer = view(units);
    this.advanced = view(units);
    this.charging = view(units);
    this.destroyedRound = view(units);
    this.groupFrom = view(units);
    this.groupTo = view(units);
    this.shotTaken = view(units);
    view(units); // spare, keeps the field count honest if one is added
    this.targetNow = view(groups);
    for (let unit = 0; unit < units; unit++) {
      this.stands[unit] = scenario.stands[unit] ?? 0;
      this.hits[unit] = scenario.startHits[unit] ?? 0;
      this.engaged[unit] = (scenario.reserveOrder[unit] ?? -1) < 0 ? 1 : 0;
      this.position[unit] = scenario.position[unit] ?? OPEN;
      this.retreated[unit] = -1;
      this.charging[unit] = ((scenario.flags[unit] ?? 0) & F_CHARGING) !== 0 ? 1 : 0;
      this.groupFrom[unit] = scenario.groupStart[unit] ?? 0;
      this.groupTo[unit] = scenario.groupEnd[unit] ?? 0;
    }
    this.targetNow.set(scenario.groupTarget);
    this.template = this.state.slice();
    this.roundHits = new Int32Array(units);
    this.capacity = new Int32Array(units);
    this.supportsNow = new Int32Array(units);
    this.frontNow = new Int32Array(units);
    this.pursuesNext = new Int32Array(units);
    this.fightingNow = new Int32Array(groups);
    this.groupDice = new Int32Array(groups);
    this.groupTargetResolved = new Int32Array(groups);
  }

  trial(dice: Dice, row: Int32Array): void {
    const scenario = this.scenario;
    // TypedArray.fill costs ~50 ns a call here whatever the length: small arrays are cleared by loops.
    this.state.set(this.template);
    this.lostInEngagement[0] = 0;
    this.lostInEngagement[1] = 0;
    this.reserveCursor[0] = 0;
    this.reserveCursor[1] = 0;
    for (let metric = 0; metric < row.length; metric++) row[metric] = 0;
    this.roundNumber = 0;
    let turn = 1;
    let lastTurnFought = 1;
    let roundInEngagement = 0;
    let roundInTurn = 0;
    let pursuits = 0;
    let advances = 0;
    let outcome = NO_OUTCOME;
    this.shootAtChargers(dice, false);

    for (;;) {
      const round = ++this.roundNumber;
      roundInEngagement++;
      roundInTurn++;
      lastTurnFought = turn;
      const firstRound = roundInEngagement === 1;
      outcome = this.fightRound(dice, round, firstRound);
      if (round <= RECORDED_ROUNDS) row[ROUND_RESULTS + round - 1] = outcome === WINNER_DRAW ? ROUND_DRAW : 1 + outcome;
      if (outcome === WINNER_DRAW) {
        // Draw: both sides fall back 3D6 cm and the engagement ends (rulings §16); a side with
        // nothing left standing (both destroyed) has nothing to move.
        if (this.sideStanding(0)) row[SIDE_METRICS + 2] = this.roll3d6(dice);
        if (this.sideStanding(1)) row[SIDE_METRICS + SIDE_WIDTH + 2] = this.roll3d6(dice);
        break;
      }
      const winner = outcome;
      const loser = 1 - winner;
      const retreat = this.retreat(dice, winner, loser);
      if (round === 1) row[RETREAT] = retreat;
      const ahead = (this.lostInEngagement[winner] ?? 0) <= (this.lostInEngagement[loser] ?? 0);
      const policy = scenario.policy[winner] ?? POLICY_PURSUE;
      const wantsToPress = policy === POLICY_PURSUE || (policy === POLICY_PURSUE_WHILE_AHEAD && ahead);
      if (!this.sideStanding(loser)) {
        if (this.advance(dice, winner, loser, wantsToPress, firstRound)) {
          advances++;
          roundInEngagement = 0;
          roundInTurn = 0;
          continue;
        }
        break;
      }
      if (!this.pursue(winner, loser, wantsToPress, firstRound)) {
        if (policy === POLICY_FALL_BACK) row[SIDE_METRICS + winner * SIDE_WIDTH + 2] = this.roll3d6(dice);
        break;
      }
      pursuits++;
      if (roundInTurn === 2) {
        // Second round pursued: the combat is unresolved and goes on next turn (Unresolved combats).
        if (turn === scenario.maxTurns) {
          outcome = WINNER_UNRESOLVED;
          break;
        }
        turn++;
        roundInTurn = 0;
        for (let unit = 0; unit < this.unitCount; unit++) this.advanced[unit] = 0;
      }
    }

    row[WINNER] = outcome;
    row[ROUNDS] = this.roundNumber;
    row[TURNS] = lastTurnFought;
    row[PURSUITS] = pursuits;
    row[ADVANCES] = advances;
    for (let unit = 0; unit < this.unitCount; unit++) {
      const lost = (scenario.stands[unit] ?? 0) - (this.stands[unit] ?? 0);
      const side = scenario.side[unit] ?? 0;
      row[UNIT_METRICS + unit * UNIT_WIDTH] = lost;
      row[UNIT_METRICS + unit * UNIT_WIDTH + 1] = this.destroyedRound[unit] ?? 0;
      row[SIDE_METRICS + side * SIDE_WIDTH] = (row[SIDE_METRICS + side * SIDE_WIDTH] ?? 0) + lost;
      if ((this.destroyedRound[unit] ?? 0) > 0) row[SIDE_METRICS + side * SIDE_WIDTH + 1] = (row[SIDE_METRICS + side * SIDE_WIDTH + 1] ?? 0) + 1;
    }
  }

  private roll3d6(dice: Dice): number {
    return dice.d6() + dice.d6() + dice.d6();
  }

  /** True with probability chance / CHANCE_SCALE, drawing only when the chance is strictly between 0 and 1. */
  private happens(dice: Dice, chance: number): boolean {
    if (chance >= CHANCE_SCALE) return true;
    if (chance <= 0) return false;
    return dice.d6Packed(6) * 46656 + dice.d6Packed(6) < chance;
  }

  private sideStanding(side: number): boolean {
    for (let unit = 0; unit < this.unitCount; unit++) {
      if (this.engaged[unit] === 1 && (this.stands[unit] ?? 0) > 0 && this.scenario.side[unit] === side) return true;
    }
    return false;
  }

  private destroy(unit: number, round: number, removed: number): void {
    const side = this.scenario.side[unit] ?? 0;
    this.lostInEngagement[side] = (this.lostInEngagement[side] ?? 0) + removed;
    if ((this.stands[unit] ?? 0) === 0) {
      this.hits[unit] = 0;
      if (this.destroyedRound[unit] === 0) this.destroyedRound[unit] = round;
    }
  }

  /** Hits scored and not saved by `count` dice at `target` (rulings §13). */
  private strike(dice: Dice, count: number, hitOn: number, target: number, oneWorse: boolean): number {
    const scorers = this.scenario.atLeastScorers;
    const hits = (scorers[hitOn] ?? scorers[6])!.roll(dice, count);
    const save = (this.scenario.armour[target] ?? NO_SAVE) + (oneWorse ? 1 : 0);
    return hits > 0 && save < NO_SAVE ? hits - (scorers[save] ?? scorers[6])!.roll(dice, hits) : hits;
  }

  /** Shooting at chargers (or at advancers, when `advancing`) before round 1 (rulings §15). */
  private shootAtChargers(dice: Dice, advancing: boolean): void {
    const scenario = this.scenario;
    for (let shooter = 0; shooter < this.unitCount; shooter++) {
      if (scenario.shoots[shooter] !== 1 || this.engaged[shooter] !== 1 || (this.stands[shooter] ?? 0) === 0) continue;
      const side = scenario.side[shooter] ?? 0;
      let target = scenario.shotTarget[shooter] ?? -1;
      const valid = target >= 0 && this.engaged[target] === 1 && (advancing || this.charging[target] === 1) && scenario.side[target] !== side;
      if (!valid) target = this.firstEnemy(side, !advancing);
      if (target < 0) continue;
      const taken = Math.min(
        this.strike(dice, scenario.shotDice[shooter] ?? 0, scenario.shotHitOn[shooter] ?? 4, target, scenario.shotOneWorse[shooter] === 1),
        (this.stands[target] ?? 0) * (scenario.hitsPerStand[target] ?? 1) - (this.hits[target] ?? 0),
      );
      this.shotTaken[target] = (this.shotTaken[target] ?? 0) + taken;
      this.hits[target] = (this.hits[target] ?? 0) + taken;
      if (scenario.options.shootingCasualties === 'before-combat') this.removeCasualties(target, this.roundNumber + 1, false);
    }
  }

  /** The first engaged enemy of `side` with stands left (charging only, if asked); −1 if none. */
  private firstEnemy(side: number, chargingOnly: boolean): number {
    for (let unit = 0; unit < this.unitCount; unit++) {
      if (this.engaged[unit] === 1 && (this.stands[unit] ?? 0) > 0 && this.scenario.side[unit] !== side && (!chargingOnly || this.charging[unit] === 1)) return unit;
    }
    return -1;
  }

  /** Whole stands off for full Hits values, odd hits carried, then regeneration (rulings §14, §18). */
  private removeCasualties(unit: number, round: number, regenerate: boolean): void {
    const perStand = this.scenario.hitsPerStand[unit] ?? 1;
    const hits = this.hits[unit] ?? 0;
    const removed = Math.min(this.stands[unit] ?? 0, Math.floor(hits / perStand));
    this.stands[unit] = (this.stands[unit] ?? 0) - removed;
    this.hits[unit] = hits - removed * perStand;
    this.destroy(unit, round, removed);
    if (regenerate && (this.stands[unit] ?? 0) > 0 && (this.hits[unit] ?? 0) > 0 && ((this.scenario.flags[unit] ?? 0) & F_REGENERATES) !== 0) {
      this.hits[unit] = (this.hits[unit] ?? 0) - 1;
    }
  }

  /** Fill contact and supporting places with the stands left (rulings §14, option `casualties`). */
  private placeStands(unit: number): void {
    const scenario = this.scenario;
    const from = this.groupFrom[unit] ?? 0;
    const to = this.groupTo[unit] ?? 0;
    let places = 0;
    for (let group = from; group < to; group++) places += scenario.groupStands[group] ?? 0;
    const stands = this.stands[unit] ?? 0;
    const supports = scenario.supports[unit] ?? 0;
    let supporting: number;
    if (scenario.options.casualties === 'keep-supports' && places > 0 && stands > 0) {
      supporting = Math.min(supports, stands - 1); // one stand still fights, to be supported
    } else {
      supporting = Math.min(supports, Math.max(0, stands - places));
    }
    let left = stands - supporting;
    let front = 0;
    for (let group = from; group < to; group++) {
      const fighting = Math.min(left, scenario.groupStands[group] ?? 0);
      this.fightingNow[group] = fighting;
      left -= fighting;
      if (scenario.groupKind[group] === FRONT) front += fighting;
    }
    this.supportsNow[unit] = supporting;
    this.frontNow[unit] = front;
  }

  /** Cavalry or chariots charging the front of a unit that is defended against them in round 1. */
  private defendedAgainstCharge(attacker: number, target: number, firstRound: boolean): boolean {
    const scenario = this.scenario;
    const type = scenario.type[attacker];
    return (
      firstRound &&
      this.charging[attacker] === 1 &&
      (type === CAVALRY || type === CHARIOT) &&
      ((scenario.flags[target] ?? 0) & (F_DEFENDED_VS_MOUNTED_CHARGE | F_FLANKED)) === F_DEFENDED_VS_MOUNTED_CHARGE
    );
  }

  /** Declared (or pursued) target if still engaged and standing, else the first engaged enemy. */
  private resolveTarget(group: number, side: number): number {
    const target = this.targetNow[group] ?? -1;
    if (target >= 0 && this.engaged[target] === 1 && (this.stands[target] ?? 0) > 0) return target;
    return this.firstEnemy(side, false);
  }

  /** One round: attacks, result, casualties (README step order 1–6). Returns the winning side or WINNER_DRAW. */
  private fightRound(dice: Dice, round: number, firstRound: boolean): number {
    const scenario = this.scenario;
    const units = this.unitCount;
    const engaged = this.engaged;
    const stands = this.stands;
    const hits = this.hits;
    const roundHits = this.roundHits;
    const capacity = this.capacity;
    const hitsPerStand = scenario.hitsPerStand;
    for (let unit = 0; unit < units; unit++) roundHits[unit] = 0;
    // Attacks read only the targets' stands and engagement, which no attack changes: place and strike in one pass.
    for (let unit = 0; unit < units; unit++) {
      if (engaged[unit] !== 1) continue;
      const standing = stands[unit]!;
      capacity[unit] = standing * hitsPerStand[unit]! - hits[unit]!;
      this.placeStands(unit);
      if (standing > 0) this.attack(dice, unit, firstRound);
    }
    // Result (rulings §15): hits taken this round, capped; shooting in round 1; supports before casualties.
    // Then casualties (§14), which may not change the result, so one pass does both.
    const side = scenario.side;
    const supporting = scenario.supporting;
    const supportsNow = this.supportsNow;
    let result0 = 0;
    let result1 = 0;
    let engaged0 = 0;
    let engaged1 = 0;
    let standing0 = 0;
    let standing1 = 0;
    for (let unit = 0; unit < units; unit++) {
      if (engaged[unit] !== 1) continue;
      const unitSide = side[unit]!;
      let taken = Math.min(roundHits[unit]!, capacity[unit]!);
      if (stands[unit]! > 0) {
        hits[unit] = hits[unit]! + taken;
        this.removeCasualties(unit, round, true);
      }
      if (firstRound) {
        taken += this.shotTaken[unit]!;
        this.shotTaken[unit] = 0;
      }
      let supports = 0;
      const supported = supporting[unit]!;
      if (supportsNow[unit]! > 0 && supported >= 0 && engaged[supported] === 1 && this.frontNow[supported]! > 0 && (scenario.flags[unit]! & F_CONFUSED) === 0) {
        supports = supportsNow[unit]!; // validate.ts: only infantry supports, only infantry is supported
      }
      if (unitSide === 0) {
        engaged0++;
        result1 += taken;
        result0 += supports;
        if (stands[unit]! > 0) standing0++;
      } else {
        engaged1++;
        result0 += taken;
        result1 += supports;
        if (stands[unit]! > 0) standing1++;
      }
    }
    this.result[0] = result0;
    this.result[1] = result1;
    this.losingUnits[0] = engaged0;
    this.losingUnits[1] = engaged1;
    if ((standing0 > 0) !== (standing1 > 0)) return standing0 > 0 ? 0 : 1;
    if (standing0 === 0) return WINNER_DRAW;
    return result0 === result1 ? WINNER_DRAW : result0 > result1 ? 0 : 1;
  }

  /** Dice of one unit's contact groups with every modifier (rulings §12), then its rolls. */
  private attack(dice: Dice, unit: number, firstRound: boolean): void {
    const scenario = this.scenario;
    const side = scenario.side[unit] ?? 0;
    const flags = scenario.flags[unit] ?? 0;
    const attacks = scenario.attacks[unit] ?? 0;
    const from = this.groupFrom[unit] ?? 0;
    const to = this.groupTo[unit] ?? 0;
    let characterBonus = scenario.characterBonus[unit] ?? 0;
    let oneStandBonus = (flags & F_ONE_STAND_BONUS) !== 0 ? 1 : 0;
    let chargeD6 = (flags & F_CHARGE_D6) !== 0;
    let total = 0;
    let firstFighting = -1;
    for (let group = from; group < to; group++) {
      this.groupDice[group] = 0;
      const stands = this.fightingNow[group] ?? 0;
      if (stands === 0) continue;
      const target = this.resolveTarget(group, side);
      this.groupTargetResolved[group] = target;
      if (target < 0) continue;
      if (firstFighting < 0) firstFighting = group;
      const targetFlags = scenario.flags[target] ?? 0;
      const kind = scenario.groupKind[group];
      let modifier = 0;
      let charged = false;
      if (
        firstRound &&
        this.charging[unit] === 1 &&
        (flags & F_NO_CHARGE_BONUS) === 0 &&
        this.position[target] === OPEN &&
        !this.defendedAgainstCharge(unit, target, firstRound)
      ) {
        modifier += (flags & F_BIG_CHARGE) !== 0 ? 2 : 1;
        charged = true;
      }
      const retreated = this.retreated[target] ?? -1;
      if (this.pursuer[unit] === 1 && retreated >= 0) modifier += 1 + Math.floor(retreated / 3);
      if ((targetFlags & F_TERROR) !== 0 && (flags & (F_TERROR | F_IMMUNE_TO_TERROR)) === 0) modifier--;
      if (kind === FLANK || kind === REAR) modifier--;
      if ((flags & F_CONFUSED) !== 0) modifier--;
      if (firstRound && kind === FRONT && (flags & F_FIRST_ROUND_FRONT) !== 0) modifier++;
      if ((flags & F_VS_MONSTERS) !== 0 && scenario.type[target] === MONSTER) modifier++;
      const perStand = Math.max(0, attacks + modifier);
      let count = stands * perStand;
      if (characterBonus > 0) {
        count += Math.max(0, attacks + modifier + characterBonus) - perStand;
        characterBonus = 0;
      }
      if (oneStandBonus > 0) {
        count += Math.max(0, attacks + modifier + 1) - perStand;
        oneStandBonus = 0;
      }
      if (charged && chargeD6) {
        count += dice.d6();
        chargeD6 = false;
      }
      this.groupDice[group] = count;
      total += count;
    }
    // The last-ditch die: a unit whose fighting stands are all at 0 still rolls one (rulings §12).
    if (total === 0 && firstFighting >= 0) this.groupDice[firstFighting] = 1;
    for (let group = from; group < to; group++) {
      const count = this.groupDice[group] ?? 0;
      if (count === 0) continue;
      const target = this.groupTargetResolved[group] ?? 0;
      const position = this.position[target];
      let hitOn = position === FORTIFIED ? 6 : position === DEFENDED || this.defendedAgainstCharge(unit, target, firstRound) ? 5 : 4;
      if ((flags & F_ALWAYS_HITS_ON_4) !== 0) hitOn = 4;
      this.roundHits[target] = (this.roundHits[target] ?? 0) + this.strike(dice, count, hitOn, target, (flags & F_ARMOUR_PIERCING) !== 0);
    }
  }

  /** The loser's units retreat (rulings §16); returns the distance in cm (0 if none was left to retreat). */
  private retreat(dice: Dice, winner: number, loser: number): number {
    const scenario = this.scenario;
    const losingUnits = this.losingUnits[loser] ?? 1;
    const difference = (this.result[winner] ?? 0) - (this.result[loser] ?? 0);
    const distance = Math.max(1, Math.ceil(difference / losingUnits));
    let retreated = 0;
    for (let unit = 0; unit < this.unitCount; unit++) {
      this.retreated[unit] = -1;
      if (this.engaged[unit] !== 1 || scenario.side[unit] !== loser || (this.stands[unit] ?? 0) === 0) continue;
      retreated = distance;
      this.retreated[unit] = distance;
      this.position[unit] = OPEN;
      const stands = this.stands[unit] ?? 0;
      if (scenario.type[unit] === ARTILLERY) {
        this.stands[unit] = 0; // retreating artillery is destroyed
      } else if (this.happens(dice, scenario.blockChance[unit] ?? 0)) {
        this.stands[unit] = Math.max(0, stands - (scenario.blockStands[unit] ?? stands)); // outstanding hits stay
      }
      this.destroy(unit, this.roundNumber, stands - (this.stands[unit] ?? 0));
    }
    return retreated;
  }

  private canPursue(pursuer: number, target: number, firstRound: boolean): boolean {
    const scenario = this.scenario;
    const type = scenario.type[pursuer] ?? 0;
    const flags = scenario.flags[pursuer] ?? 0;
    const targetFlags = scenario.flags[target] ?? 0;
    if (((scenario.retreatTerrain[target] ?? 0) & (1 << type)) !== 0) return false;
    const charged = firstRound && this.charging[pursuer] === 1 && (targetFlags & (F_FLANKED | F_IRREGULAR)) !== 0;
    const targetType = scenario.type[target];
    if (type === INFANTRY && (targetType === CAVALRY || targetType === CHARIOT) && (flags & F_PURSUES_MOUNTED) === 0 && !charged) return false;
    if ((targetFlags & F_UNPURSUABLE_FLYER) !== 0 && (flags & F_PURSUES_FLYERS) === 0 && !charged) return false;
    return true;
  }

  /**
   * The winner's choice (rulings §17). Sets who fights the next round and returns false if nobody
   * pursues (the engagement ends).
   */
  private pursue(winner: number, loser: number, wantsToPress: boolean, firstRound: boolean): boolean {
    const scenario = this.scenario;
    const units = this.unitCount;
    let anyPursuer = false;
    for (let unit = 0; unit < units; unit++) {
      this.pursuesNext[unit] = 0;
      if (this.engaged[unit] !== 1 || scenario.side[unit] !== winner || (this.stands[unit] ?? 0) === 0) continue;
      const from = this.groupFrom[unit] ?? 0;
      const to = this.groupTo[unit] ?? 0;
      if (from === to) continue;
      const flags = scenario.flags[unit] ?? 0;
      if (!wantsToPress && (flags & F_MUST_PURSUE) === 0) continue;
      if (scenario.type[unit] === ARTILLERY || this.position[unit] === FORTIFIED) continue;
      let fallback = -1;
      for (let enemy = 0; enemy < units && fallback < 0; enemy++) {
        if (this.engaged[enemy] === 1 && scenario.side[enemy] === loser && (this.stands[enemy] ?? 0) > 0 && this.canPursue(unit, enemy, firstRound)) fallback = enemy;
      }
      if (fallback < 0) continue;
      for (let group = from; group < to; group++) {
        const target = this.targetNow[group] ?? -1;
        const keep = target >= 0 && this.engaged[target] === 1 && (this.stands[target] ?? 0) > 0 && scenario.side[target] === loser && this.canPursue(unit, target, firstRound);
        this.targetNow[group] = keep ? target : fallback;
      }
      this.pursuesNext[unit] = 1;
      anyPursuer = true;
    }
    if (!anyPursuer) return false;
    // Supporting pursuits: a winning supporter follows the unit it supports.
    for (let unit = 0; unit < units; unit++) {
      const supported = scenario.supporting[unit] ?? -1;
      if (this.engaged[unit] === 1 && scenario.side[unit] === winner && supported >= 0 && supported !== unit && this.pursuesNext[supported] === 1) this.pursuesNext[unit] = 1;
    }
    // Who stays engaged: pursuers, the retreating units they pursue, and those units' supporters.
    for (let unit = 0; unit < units; unit++) if (scenario.side[unit] === loser) this.engaged[unit] = 0;
    for (let unit = 0; unit < units; unit++) {
      if (this.pursuesNext[unit] !== 1) continue;
      for (let group = this.groupFrom[unit] ?? 0; group < (this.groupTo[unit] ?? 0); group++) {
        const target = this.targetNow[group] ?? 0;
        this.engaged[target] = 1;
        // A unit that only supported is now touched by the pursuer: its stands fight (`newContact`).
        if (this.groupFrom[target] === this.groupTo[target]) this.useNewContact(target, unit);
      }
    }
    for (let unit = 0; unit < units; unit++) {
      const supported = scenario.supporting[unit] ?? -1;
      if (scenario.side[unit] === loser && (this.retreated[unit] ?? -1) >= 0 && supported >= 0 && this.engaged[supported] === 1) this.engaged[unit] = 1;
    }
    for (let unit = 0; unit < units; unit++) {
      if (scenario.side[unit] === winner) {
        this.engaged[unit] = this.engaged[unit] === 1 && this.pursuesNext[unit] === 1 ? 1 : 0;
        this.pursuer[unit] = this.pursuesNext[unit] ?? 0;
        // Pursuers press their attack in the open (Defended & fortified troops).
        if (this.pursuesNext[unit] === 1) this.position[unit] = OPEN;
      } else {
        this.pursuer[unit] = 0;
      }
    }
    return true;
  }

  /**
   * All enemies destroyed: winning units may advance into the next enemy reserve (Advance). Returns
   * true if a new engagement starts.
   */
  private advance(dice: Dice, winner: number, loser: number, wantsToPress: boolean, firstRound: boolean): boolean {
    const scenario = this.scenario;
    const units = this.unitCount;
    let advancers = 0;
    for (let unit = 0; unit < units; unit++) {
      this.pursuesNext[unit] = 0;
      if (this.engaged[unit] !== 1 || scenario.side[unit] !== winner || (this.stands[unit] ?? 0) === 0) continue;
      if (!wantsToPress && ((scenario.flags[unit] ?? 0) & F_MUST_PURSUE) === 0) continue;
      if (scenario.type[unit] === ARTILLERY || this.position[unit] === FORTIFIED || this.advanced[unit] === 1) continue;
      this.pursuesNext[unit] = 1;
      advancers++;
    }
    const reserves = scenario.reserves[loser] ?? [];
    const cursor = this.reserveCursor[loser] ?? 0;
    const reserve = reserves[cursor];
    if (advancers === 0 || reserve === undefined) return false;
    this.reserveCursor[loser] = cursor + 1;
    if (!this.happens(dice, scenario.reserveChance[reserve] ?? 0)) return false;
    const chargeBonus = scenario.options.advanceChargeBonus && firstRound ? 1 : 0;
    for (let unit = 0; unit < units; unit++) {
      this.engaged[unit] = 0;
      this.retreated[unit] = -1;
      this.pursuer[unit] = 0;
      if (this.pursuesNext[unit] !== 1) continue;
      this.engaged[unit] = 1;
      this.advanced[unit] = 1;
      this.charging[unit] = chargeBonus;
      this.position[unit] = OPEN;
      this.useNewContact(unit, reserve);
    }
    this.engaged[reserve] = 1;
    this.lostInEngagement[0] = 0;
    this.lostInEngagement[1] = 0;
    this.shootAtChargers(dice, true);
    return true;
  }

  /** Switch a unit to its `newContact` groups, attacking `enemy`. */
  private useNewContact(unit: number, enemy: number): void {
    this.groupFrom[unit] = this.scenario.newGroupStart[unit] ?? 0;
    this.groupTo[unit] = this.scenario.newGroupEnd[unit] ?? 0;
    for (let group = this.groupFrom[unit] ?? 0; group < (this.groupTo[unit] ?? 0); group++) this.targetNow[group] = enemy;
  }
}
