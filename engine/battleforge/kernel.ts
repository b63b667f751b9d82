import type { Dice } from '../dice/index.js';
import type { DrawMethod, Kernel, MetricSpec } from '../kernel.js';
import { Combat, FOCUS_ACCURACY, FOCUS_BOTH, FOCUS_STRENGTH } from './combat.js';
import type { CompiledScenario } from './compile.js';
import { DECISIVE_ROUND, battleforgeMetrics, ROUNDS, SIDE_METRICS, SIDE_WIDTH, UNIT_METRICS, UNIT_WIDTH, WINNER, WINNER_NONE } from './metrics.js';

export const BATTLEFORGE_ENGINE_VERSION = 'battleforge-1.0.0';

// Plans, in schema.ts's PLANS order.
const SHOOT_AND_HOLD = 0;
const FOCUS_THEN_SHOOT = 1;
const MOVE_AND_SHOOT = 2;
const SHOOT_THEN_CHARGE = 3;
const CHARGE_AND_FIGHT = 4;
const HOLD_FOR_OVERWATCH = 5;
const EVADE_AND_SHOOT = 6;
// Reactions, in schema.ts's SHOOTING_REACTIONS / CHARGE_REACTIONS order.
const COUNTER_ATTACK = 1;
const DODGE = 2;
const ESCAPE = 3;
const OVERWATCH = 1;
const CHARGE_ESCAPE = 2;

/**
 * One trial = one game of up to `rounds` rounds (README "A round"): bidding, alternating
 * activations, each unit's two actions by its plan, reactions. Nothing is allocated per trial.
 */
export class BattleforgeKernel extends Combat implements Kernel {
  readonly ruleset = 'battleforge';
  readonly engineVersion = BATTLEFORGE_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];
  /** Activation bonus of the round: side that activates first and how many units it activates before alternating. */
  private firstSide = 0;
  private firstCount = 1;

  constructor(scenario: CompiledScenario, method: DrawMethod = 'dice') {
    super(scenario, method);
    this.metrics = battleforgeMetrics(scenario);
  }

  trial(dice: Dice, row: Int32Array): void {
    this.reset();
    const scenario = this.scenario;
    let rounds = 0;
    if (scenario.mode === 'attack') {
      this.round = 1;
      rounds = 1;
      this.singleAttack(dice);
    }
    for (let round = 1; scenario.mode === 'game' && round <= scenario.rounds && this.sideActive(0) && this.sideActive(1); round++) {
      this.round = round;
      rounds = round;
      this.startRound();
      this.bidding(dice);
      this.activations(dice);
    }
    const standing0 = this.sideActive(0);
    const standing1 = this.sideActive(1);
    row[WINNER] = standing0 !== standing1 ? (standing0 ? 0 : 1) : WINNER_NONE;
    row[ROUNDS] = rounds;
    row[DECISIVE_ROUND] = standing0 !== standing1 ? this.decisiveRound : 0;
    for (let metric = SIDE_METRICS; metric < UNIT_METRICS; metric++) row[metric] = 0;
    for (let unit = 0; unit < this.unitCount; unit++) {
      const base = UNIT_METRICS + unit * UNIT_WIDTH;
      const modelsLost = scenario.models[unit]! - this.alive[unit]!;
      const woundsLost = scenario.woundsTotal[unit]! - this.woundsLeft[unit]!;
      row[base] = modelsLost;
      row[base + 1] = woundsLost;
      row[base + 2] = this.shock[unit]!;
      row[base + 3] = this.broken[unit]!;
      row[base + 4] = this.destroyed[unit]!;
      const side = SIDE_METRICS + scenario.side[unit]! * SIDE_WIDTH;
      row[side] = row[side]! + modelsLost;
      row[side + 1] = row[side + 1]! + woundsLost;
      row[side + 2] = row[side + 2]! + this.destroyed[unit]!;
      row[side + 3] = row[side + 3]! + this.broken[unit]!;
    }
  }

  /** `mode: attack`: side A's first unit Shoots (or Fights, when in contact) side B's first unit once. */
  private singleAttack(dice: Dice): void {
    const attacker = 0;
    let target = 0;
    while (this.scenario.side[target] === 0) target++;
    const melee = this.distance(attacker, target) === 0;
    if (melee) this.engage(attacker, target);
    if (melee || this.canShoot(attacker, target)) this.resolveSingle(dice, attacker, target, melee, this.distance(attacker, target));
  }

  private startRound(): void {
    for (let unit = 0; unit < this.unitCount; unit++) {
      this.hold[unit] = 0;
      this.acted[unit] = 0;
      this.reacted[unit] = 0;
      this.activated[unit] = 0;
      this.shot[unit] = 0;
      this.fought[unit] = 0;
      this.stopsLeft[unit] = this.scenario.powerSlots[unit]!;
    }
  }

  /** Bidding Phase (rulings §25): each side's bid is assigned below half Courage; the difference is the bonus. */
  private bidding(dice: Dice): void {
    const bid0 = this.assignBid(0);
    const bid1 = this.assignBid(1);
    if (bid0 !== bid1) {
      this.firstSide = bid0 > bid1 ? 0 : 1;
      this.firstCount = Math.abs(bid0 - bid1);
      return;
    }
    // A tie: roll off (ties re-rolled); the winner activates one unit first. Either side wins it
    // with probability 1/2, which is all the tables draw (and keeps enumeration finite).
    if (this.drawsTables) {
      this.firstSide = dice.chance(0.5) ? 0 : 1;
    } else {
      let roll0 = 0;
      let roll1 = 0;
      while (roll0 === roll1) {
        roll0 = dice.d10();
        roll1 = dice.d10();
      }
      this.firstSide = roll0 > roll1 ? 0 : 1;
    }
    this.firstCount = 1;
  }

  /** Assign a side's bid one Shock at a time to the unit with most room; returns the bid, or 0 if forfeited. */
  private assignBid(side: number): number {
    const bid = this.scenario.bid[side]!;
    for (let given = 0; given < bid; given++) {
      let best = -1;
      let bestRoom = 0;
      for (let unit = 0; unit < this.unitCount; unit++) {
        if (this.scenario.side[unit] !== side || !this.active(unit)) continue;
        // Strictly below half Courage after the Shock is added: room = ⌈Courage / 2⌉ − 1 − Shock.
        const room = Math.ceil(this.scenario.courage[this.scenario.leadType[unit]!]! / 2) - 1 - this.shock[unit]!;
        if (room > bestRoom) {
          best = unit;
          bestRoom = room;
        }
      }
      if (best < 0) return 0; // could not assign it all: the bonus is forfeited
      this.shock[best] = this.shock[best]! + 1;
    }
    return bid;
  }

  /** Actions Phase: the first side activates its bonus units, then the sides alternate one unit each. */
  private activations(dice: Dice): void {
    let side = this.firstSide;
    let turnsLeft = this.firstCount;
    for (;;) {
      if (!this.sideActive(0) || !this.sideActive(1)) return;
      const next = this.nextToActivate(side);
      if (next < 0) {
        const other = this.nextToActivate(1 - side);
        if (other < 0) return;
        side = 1 - side;
        turnsLeft = 1;
        continue;
      }
      this.activate(dice, next);
      turnsLeft--;
      if (turnsLeft <= 0) {
        side = 1 - side;
        turnsLeft = 1;
      }
    }
  }

  private nextToActivate(side: number): number {
    for (let unit = 0; unit < this.unitCount; unit++) {
      if (this.scenario.side[unit] === side && this.activated[unit] === 0 && this.reacted[unit] === 0 && this.active(unit)) return unit;
    }
    return -1;
  }

  /** A unit's activation: Shock tests, then two actions by its plan (Removing Shock; Actions). */
  private activate(dice: Dice, unit: number): void {
    this.activated[unit] = 1;
    const shock = this.shock[unit]!;
    for (let test = 0; test < shock; test++) if (this.courageTest(dice, unit)) this.shock[unit] = this.shock[unit]! - 1;
    for (let action = 0; action < 2; action++) {
      if (!this.active(unit) || this.reacted[unit] === 1 || !this.sideActive(1 - this.scenario.side[unit]!)) return;
      this.acted[unit] = 1;
      this.takeAction(dice, unit, action);
    }
  }

  /** The plan's choice for action `slot` (README "Plans"). */
  private takeAction(dice: Dice, unit: number, slot: number): void {
    const scenario = this.scenario;
    const rallyAt = scenario.rallyAt[unit]!;
    if (slot === 0 && rallyAt > 0 && this.shock[unit]! >= rallyAt) {
      this.rally(dice, unit);
      return;
    }
    if (slot === 0 && this.powerTarget(unit, scenario.powerStart[unit]!) >= 0) {
      this.castPowers(dice, unit);
      return;
    }
    if (this.inMelee(unit)) {
      if (this.fought[unit] === 0 && scenario.hasMelee[unit] === 1) this.fight(dice, unit, this.meleeEnemy(unit), false);
      else this.focusOn(unit, FOCUS_STRENGTH);
      return;
    }
    const enemy = this.nearestEnemy(unit);
    if (enemy < 0) return;
    const plan = scenario.plan[unit]!;
    const shootable = this.shot[unit] === 0 && this.canShoot(unit, enemy);
    switch (plan) {
      case SHOOT_AND_HOLD:
        if (slot === 0) this.shootOrMove(dice, unit, enemy, shootable);
        else this.hold[unit] = 1;
        return;
      case FOCUS_THEN_SHOOT:
        if (slot === 0) this.focusOn(unit, FOCUS_ACCURACY);
        else this.shootOrMove(dice, unit, enemy, shootable);
        return;
      case MOVE_AND_SHOOT:
        if (slot === 0 && !this.withinShortRange(unit, enemy)) this.move(dice, unit, enemy);
        else if (shootable) this.shoot(dice, unit, enemy);
        else if (slot === 0) this.move(dice, unit, enemy);
        else this.hold[unit] = 1; // shot already (or nothing in range): stay, ready to react
        return;
      case SHOOT_THEN_CHARGE:
        if (slot === 0 && shootable) this.shoot(dice, unit, enemy);
        else this.chargeOrMove(dice, unit, enemy);
        return;
      case CHARGE_AND_FIGHT:
        this.chargeOrMove(dice, unit, enemy);
        return;
      case HOLD_FOR_OVERWATCH:
        if (slot === 0) this.focusOn(unit, FOCUS_ACCURACY);
        else this.hold[unit] = 1;
        return;
      case EVADE_AND_SHOOT:
        if (slot === 0) this.evade[unit] = 1;
        else this.shootOrMove(dice, unit, enemy, shootable);
        return;
    }
  }

  /**
   * The target of a power: the nearest enemy within its range; a caster in melee may only target the
   * units it fights, and no one targets enemies in melee with friends (Using Powers). −1 if none.
   */
  private powerTarget(unit: number, power: number): number {
    const scenario = this.scenario;
    if (power >= scenario.powerEnd[unit]!) return -1;
    const range = scenario.powerRange[power]!;
    const inMelee = this.inMelee(unit);
    let best = -1;
    for (let enemy = 0; enemy < this.unitCount; enemy++) {
      if (scenario.side[enemy] === scenario.side[unit] || !this.active(enemy) || this.distance(unit, enemy) > range) continue;
      if (inMelee ? this.engaged[unit * this.unitCount + enemy] !== 1 : this.inMelee(enemy)) continue;
      if (best < 0 || this.distance(unit, enemy) < this.distance(unit, best)) best = enemy;
    }
    return best;
  }

  /**
   * A Power action (Powers): each known power, up to the power rule's x, with a target: D10 + Shock
   * at or under its cast value succeeds (1 passes, 10 fails and gives 2 Shock); an enemy caster within
   * 24" with stop attempts left stops it on a D10 at or under the cast roll; then its hits or Shock.
   */
  private castPowers(dice: Dice, unit: number): void {
    const scenario = this.scenario;
    const last = Math.min(scenario.powerEnd[unit]!, scenario.powerStart[unit]! + scenario.powerSlots[unit]!);
    for (let power = scenario.powerStart[unit]!; power < last && this.active(unit); power++) {
      const target = this.powerTarget(unit, power);
      if (target < 0) continue;
      const face = dice.d10();
      const rolled = face + this.shock[unit]!;
      if (face === 10) {
        this.gainShock(dice, unit);
        this.gainShock(dice, unit);
        continue;
      }
      if (face !== 1 && rolled > scenario.powerCast[power]!) continue;
      if (this.stopped(dice, unit, rolled)) continue;
      if (scenario.powerShock[power]! > 0) {
        for (let shock = 0; shock < scenario.powerShock[power]! && this.active(target); shock++) this.gainShock(dice, target);
        continue;
      }
      const distance = this.distance(unit, target);
      const models = this.alive[target]!;
      const wounds = this.woundsLeft[target]!;
      this.saveHits(dice, target, scenario.powerHits[power]!, scenario.powerAp[power]!, distance <= 3 ? 0 : scenario.cover[target]!, false);
      this.aftermath(dice, target, true, models, wounds);
    }
  }

  /** Stopping Powers: each enemy caster within 24" with attempts left tries until one stops it. */
  private stopped(dice: Dice, caster: number, rolled: number): boolean {
    for (let enemy = 0; enemy < this.unitCount; enemy++) {
      if (this.scenario.side[enemy] === this.scenario.side[caster] || !this.active(enemy) || this.stopsLeft[enemy] === 0) continue;
      if (this.distance(caster, enemy) > 24) continue;
      this.stopsLeft[enemy] = this.stopsLeft[enemy]! - 1;
      if (dice.d10() <= rolled) return true;
    }
    return false;
  }

  private focusOn(unit: number, stat: number): void {
    this.focus[unit] = this.scenario.options.focusEvade === 'text' ? FOCUS_BOTH : stat;
  }

  private rally(dice: Dice, unit: number): void {
    const shock = this.shock[unit]!;
    for (let test = 0; test < shock; test++) if (this.courageTest(dice, unit)) this.shock[unit] = this.shock[unit]! - 1;
  }

  private withinShortRange(unit: number, enemy: number): boolean {
    const scenario = this.scenario;
    const distance = this.distance(unit, enemy);
    for (let type = scenario.typeStart[unit]!; type < scenario.typeEnd[unit]!; type++) {
      for (let weapon = scenario.weaponStart[type]!; weapon < scenario.weaponEnd[type]!; weapon++) {
        if (scenario.weaponMelee[weapon] === 0 && scenario.weaponShort[weapon]! >= distance) return true;
      }
    }
    return false;
  }

  private shootOrMove(dice: Dice, unit: number, enemy: number, shootable: boolean): void {
    if (shootable) this.shoot(dice, unit, enemy);
    else this.move(dice, unit, enemy);
  }

  /** Charge reach: Movement − Shock, or with a Rush ⌊Movement / 2⌋ more (Move: Rushing). */
  private chargeOrMove(dice: Dice, unit: number, enemy: number): void {
    const move = this.movement(unit);
    const rush = Math.floor(this.scenario.movement[this.scenario.leadType[unit]!]! / 2);
    if (this.scenario.hasMelee[unit] === 1 && this.distance(unit, enemy) <= move + rush) this.charge(dice, unit, enemy);
    else this.move(dice, unit, enemy);
  }

  /** Move toward the nearest enemy, stopping 1" short; units on Hold may Overwatch it (Overwatch). */
  private move(dice: Dice, unit: number, enemy: number): void {
    this.moveToward(unit, enemy, this.movement(unit), 1);
    for (let watcher = 0; watcher < this.unitCount && this.active(unit); watcher++) {
      if (this.scenario.side[watcher] === this.scenario.side[unit] || this.hold[watcher] !== 1 || this.reacted[watcher] === 1 || !this.active(watcher)) continue;
      if (this.scenario.reactToCharge[this.scenario.side[watcher]!] !== OVERWATCH || !this.canShoot(watcher, unit)) continue;
      this.reacted[watcher] = 1;
      this.resolveSingle(dice, watcher, unit, false, this.distance(watcher, unit));
    }
  }

  private shoot(dice: Dice, unit: number, enemy: number): void {
    this.shot[unit] = 1;
    this.attackWithReactions(dice, unit, enemy, false);
  }

  private fight(dice: Dice, unit: number, enemy: number, free: boolean): void {
    if (!free) this.fought[unit] = 1;
    this.attackWithReactions(dice, unit, enemy, true);
  }

  /**
   * A Charge (Actions: Charge): the target may Overwatch or Escape; the charger then moves, with a
   * Rush if it needs one, and if it reaches makes its free fight (which the target may Counter Attack).
   */
  private charge(dice: Dice, unit: number, enemy: number): void {
    const scenario = this.scenario;
    const reaction = this.mayReact(enemy) ? scenario.reactToCharge[scenario.side[enemy]!]! : 0;
    if (reaction === OVERWATCH && this.canShoot(enemy, unit) && this.reactionSucceeds(dice, enemy, true)) {
      // Any point of the charge: the closest, just before contact (Point Blank Range).
      this.resolveSingle(dice, enemy, unit, false, 1);
      if (!this.active(unit)) return;
    } else if (reaction === CHARGE_ESCAPE && this.reactionSucceeds(dice, enemy, false)) {
      this.moveToward(enemy, unit, -this.movement(enemy), 0);
    }
    const move = this.movement(unit);
    let reach = move;
    const distance = this.distance(unit, enemy);
    if (distance > move) {
      if (this.initiativeTest(dice, unit)) reach += Math.floor(scenario.movement[scenario.leadType[unit]!]! / 2);
      else {
        this.moveToward(unit, enemy, move, 1);
        this.gainShock(dice, unit); // a failed Rush: 1 Shock after the move
        return;
      }
    }
    if (distance > reach) {
      this.moveToward(unit, enemy, reach, 1);
      return;
    }
    this.engage(unit, enemy);
    this.fought[unit] = 1; // the free fight is its fight this round
    this.attackWithReactions(dice, unit, enemy, true);
  }

  /** Only units that have not acted (and whose side reacts before activating), or on Hold, react (Reactions). */
  private mayReact(unit: number): boolean {
    if (!this.active(unit) || this.reacted[unit] === 1) return false;
    if (this.hold[unit] === 1) return true;
    return this.acted[unit] === 0 && this.scenario.reactBeforeActivating[this.scenario.side[unit]!] === 1;
  }

  /** The reaction's Initiative test (automatic on Hold for Overwatch and Counter Attack); a failure is 1 Shock. */
  private reactionSucceeds(dice: Dice, unit: number, automaticOnHold: boolean): boolean {
    const spends = this.scenario.options.failedReaction === 'spends-round';
    if (automaticOnHold && this.hold[unit] === 1) {
      this.reacted[unit] = 1;
      return true;
    }
    if (this.initiativeTest(dice, unit)) {
      this.reacted[unit] = 1;
      return true;
    }
    if (spends) this.reacted[unit] = 1;
    this.gainShock(dice, unit);
    return false;
  }

  /** A Shoot or Fight declared against `target`: its reaction, then the attack (simultaneous with a Counter Attack). */
  private attackWithReactions(dice: Dice, attacker: number, target: number, melee: boolean): void {
    const scenario = this.scenario;
    const reaction = this.mayReact(target) ? (melee ? scenario.reactToFight : scenario.reactToShoot)[scenario.side[target]!]! : 0;
    // A Counter Attack is the unit's Shoot or Fight: not if it already made that one this round.
    const canCounter = melee ? scenario.hasMelee[target] === 1 && this.fought[target] === 0 : this.shot[target] === 0 && this.canShoot(target, attacker);
    if (reaction === COUNTER_ATTACK && canCounter) {
      if (this.reactionSucceeds(dice, target, true)) {
        this.resolveSimultaneous(dice, attacker, target, melee);
        return;
      }
    } else if (reaction === DODGE) {
      if (this.reactionSucceeds(dice, target, false)) this.evade[target] = 1;
    } else if (reaction === ESCAPE) {
      if (this.reactionSucceeds(dice, target, false)) {
        // Out of melee an Escape is a Falling Back: Initiative, or free attacks as it goes.
        if (melee) {
          const models = this.alive[target]!;
          const wounds = this.woundsLeft[target]!;
          this.leaveMelee(dice, target);
          this.disengage(target);
          if (!this.active(target)) return;
          // The free attacks are attacks: losing more than half its models to them is a break test (rulings §22).
          this.aftermath(dice, target, false, models, wounds);
          if (!this.active(target)) return;
        }
        this.moveToward(target, attacker, -this.movement(target), 0);
        if (melee) return;
      }
    }
    if (!this.active(target) || !this.active(attacker)) return;
    if (!melee && !this.canShoot(attacker, target)) return;
    this.resolveSingle(dice, attacker, target, melee, this.distance(attacker, target));
  }

  /** One attack and what it leaves behind. */
  private resolveSingle(dice: Dice, attacker: number, target: number, melee: boolean, distance: number): void {
    const models = this.alive[target]!;
    const wounds = this.woundsLeft[target]!;
    const hits = this.rollHits(dice, attacker, target, melee, distance, this.hitsA);
    this.applyHits(dice, attacker, target, melee, distance, this.hitsA);
    this.aftermath(dice, target, hits > 0, models, wounds);
  }

  /** Counter Attack: both attacks rolled on the state before either, then casualties, Shock, break tests. */
  private resolveSimultaneous(dice: Dice, attacker: number, target: number, melee: boolean): void {
    const distance = this.distance(attacker, target);
    const modelsA = this.alive[attacker]!;
    const woundsA = this.woundsLeft[attacker]!;
    const modelsT = this.alive[target]!;
    const woundsT = this.woundsLeft[target]!;
    const hitsOnTarget = this.rollHits(dice, attacker, target, melee, distance, this.hitsA);
    const hitsOnAttacker = this.rollHits(dice, target, attacker, melee, distance, this.hitsB);
    this.applyHits(dice, attacker, target, melee, distance, this.hitsA);
    this.applyHits(dice, target, attacker, melee, distance, this.hitsB);
    if (melee) this.fought[target] = 1;
    else this.shot[target] = 1;
    this.aftermath(dice, target, hitsOnTarget > 0, modelsT, woundsT);
    this.aftermath(dice, attacker, hitsOnAttacker > 0, modelsA, woundsA);
  }
}

