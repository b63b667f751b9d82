import { type D10Counter, D10TestTables, D10Tests, type Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import type { CompiledScenario } from './compile.js';

/**
 * The state of a Battle Forge game and the rules every action is made of: tests, moves on the line,
 * attacks (hits, saves, allocation), Shock, break tests, units destroyed or broken. The round
 * logic (bidding, activations, plans, reactions) is in kernel.ts, which extends this class. State
 * is typed-array views over one buffer (plus the places), reset by one `set` per trial.
 */

/** Which stat a Focus (or Evade) applies to: both (the text, rulings §24) or one (the token option). */
export const FOCUS_BOTH = 3;
export const FOCUS_ACCURACY = 1;
export const FOCUS_STRENGTH = 2;

export class Combat {
  protected readonly unitCount: number;
  private readonly state: Int32Array;
  private readonly template: Int32Array;
  protected readonly place: Float64Array;
  // Per unit.
  protected readonly shock: Int32Array;
  /** Focus token: 0 none, else FOCUS_* (which stats it raises). */
  protected readonly focus: Int32Array;
  protected readonly evade: Int32Array;
  protected readonly hold: Int32Array;
  /** Took an action (or reacted) this round: it can no longer react unless on Hold. */
  protected readonly acted: Int32Array;
  /** Reacted this round: no more actions. */
  protected readonly reacted: Int32Array;
  protected readonly activated: Int32Array;
  protected readonly shot: Int32Array;
  protected readonly fought: Int32Array;
  protected readonly broken: Int32Array;
  protected readonly destroyed: Int32Array;
  /** Models with characteristics alive, and Wounds left. */
  protected readonly alive: Int32Array;
  protected readonly woundsLeft: Int32Array;
  /** Attempts left this round to stop enemy powers (Stopping Powers). */
  protected readonly stopsLeft: Int32Array;
  // Per model type.
  protected readonly typeAlive: Int32Array;
  /** Wounds left on the type's one damaged model; 0: none damaged. */
  protected readonly typeDamaged: Int32Array;
  /** engaged[u × units + v] = 1 while u and v are locked in melee. */
  protected readonly engaged: Int32Array;
  // Scratch: hits per weapon of two simultaneous attacks.
  protected readonly hitsA: Int32Array;
  protected readonly hitsB: Int32Array;
  /**
   * Counts passed D10 tests: nine dice per draw (the same dice as rolled one by one, in order), or
   * with method `tables` the count drawn whole from its binomial table.
   */
  private readonly tests: D10Counter;
  /** Method `tables`: outcomes drawn whole where no rule reads the dice. */
  protected readonly drawsTables: boolean;
  /** The round being played, for the decisive round. */
  protected round = 0;
  protected decisiveRound = 0;

  constructor(
    protected readonly scenario: CompiledScenario,
    method: DrawMethod,
  ) {
    this.drawsTables = method === 'tables';
    this.tests = this.drawsTables ? new D10TestTables() : new D10Tests();
    const units = scenario.units.length;
    const types = scenario.typeUnit.length;
    this.unitCount = units;
    const PER_UNIT = 15;
    this.state = new Int32Array(PER_UNIT * units + 2 * types + units * units);
    let offset = 0;
    const view = (length: number) => this.state.subarray(offset, (offset += length));
    this.shock = view(units);
    this.focus = view(units);
    this.evade = view(units);
    this.hold = view(units);
    this.acted = view(units);
    this.reacted = view(units);
    this.activated = view(units);
    this.shot = view(units);
    this.fought = view(units);
    this.broken = view(units);
    this.destroyed = view(units);
    this.alive = view(units);
    this.woundsLeft = view(units);
    this.stopsLeft = view(units);
    view(units); // spare
    this.typeAlive = view(types);
    this.typeDamaged = view(types);
    this.engaged = view(units * units);
    this.shock.set(scenario.startShock);
    this.focus.set(scenario.startFocus);
    this.evade.set(scenario.startEvade);
    this.alive.set(scenario.models);
    this.woundsLeft.set(scenario.woundsTotal);
    this.typeAlive.set(scenario.typeCount);
    this.template = this.state.slice();
    this.place = scenario.place.slice();
    this.hitsA = new Int32Array(scenario.weaponType.length);
    this.hitsB = new Int32Array(scenario.weaponType.length);
  }

  protected reset(): void {
    this.state.set(this.template);
    this.place.set(this.scenario.place);
    this.round = 0;
    this.decisiveRound = 0;
  }

  protected active(unit: number): boolean {
    return this.broken[unit] === 0 && this.destroyed[unit] === 0;
  }

  protected sideActive(side: number): boolean {
    for (let unit = 0; unit < this.unitCount; unit++) if (this.scenario.side[unit] === side && this.active(unit)) return true;
    return false;
  }

  protected distance(a: number, b: number): number {
    return Math.abs(this.place[a]! - this.place[b]!);
  }

  /** The nearest active enemy unit (the lowest index among equals), −1 if none. */
  protected nearestEnemy(unit: number): number {
    const side = this.scenario.side[unit];
    let best = -1;
    let bestDistance = Infinity;
    for (let other = 0; other < this.unitCount; other++) {
      if (this.scenario.side[other] === side || !this.active(other)) continue;
      const distance = this.distance(unit, other);
      if (distance < bestDistance) {
        best = other;
        bestDistance = distance;
      }
    }
    return best;
  }

  protected inMelee(unit: number): boolean {
    const row = unit * this.unitCount;
    for (let other = 0; other < this.unitCount; other++) if (this.engaged[row + other] === 1) return true;
    return false;
  }

  /** An engaged enemy to fight (the lowest index), −1 if none. */
  protected meleeEnemy(unit: number): number {
    const row = unit * this.unitCount;
    for (let other = 0; other < this.unitCount; other++) if (this.engaged[row + other] === 1) return other;
    return -1;
  }

  protected engage(a: number, b: number): void {
    this.engaged[a * this.unitCount + b] = 1;
    this.engaged[b * this.unitCount + a] = 1;
    this.place[a] = this.place[b]!;
  }

  protected disengage(unit: number): void {
    for (let other = 0; other < this.unitCount; other++) {
      this.engaged[unit * this.unitCount + other] = 0;
      this.engaged[other * this.unitCount + unit] = 0;
    }
  }

  /** Movement after Shock (Effects of Shock), from the unit's most numerous model type. */
  protected movement(unit: number): number {
    return Math.max(0, this.scenario.movement[this.scenario.leadType[unit]!]! - this.shock[unit]!);
  }

  // A test is a pool of one D10: rolled, the same draw as d10() read by `passes`; by tables, pass
  // or fail drawn whole (two branches when enumerated, not ten).
  protected initiativeTest(dice: Dice, unit: number): boolean {
    return this.tests.count(dice, 1, this.scenario.initiative[this.scenario.leadType[unit]!]! - this.shock[unit]!) === 1;
  }

  protected courageTest(dice: Dice, unit: number): boolean {
    return this.tests.count(dice, 1, this.scenario.courage[this.scenario.leadType[unit]!]!) === 1;
  }

  /** Move `inches` toward `enemy` (or away, negative), never closer than `closest` (Movement: 1" unless charging). */
  protected moveToward(unit: number, enemy: number, inches: number, closest: number): void {
    const direction = this.place[enemy]! >= this.place[unit]! ? 1 : -1;
    const gap = this.distance(unit, enemy);
    const step = inches >= 0 ? Math.min(inches, Math.max(0, gap - closest)) : inches;
    this.place[unit] = this.place[unit]! + direction * step;
  }

  /** Does any ranged weapon of `unit` reach `target` (and may it shoot: neither is in melee)? */
  protected canShoot(unit: number, target: number): boolean {
    if (this.inMelee(unit) || this.inMelee(target)) return false;
    const distance = this.distance(unit, target);
    const scenario = this.scenario;
    for (let type = scenario.typeStart[unit]!; type < scenario.typeEnd[unit]!; type++) {
      if (this.typeAlive[type] === 0) continue;
      for (let weapon = scenario.weaponStart[type]!; weapon < scenario.weaponEnd[type]!; weapon++) {
        if (scenario.weaponMelee[weapon] === 0 && scenario.weaponLong[weapon]! >= distance) return true;
      }
    }
    return false;
  }

  /**
   * Roll an attack's hits into `hits` (per weapon), on the state as it is now (rulings §20): every
   * living model with characteristics, every weapon of the kind that reaches. `distance` is where the
   * shot is measured from. Spends the attacker's Focus and the target's Evade if they apply.
   * Returns the hits rolled.
   */
  protected rollHits(dice: Dice, attacker: number, target: number, melee: boolean, distance: number, hits: Int32Array): number {
    const scenario = this.scenario;
    const stat = melee ? FOCUS_STRENGTH : FOCUS_ACCURACY;
    let modifier = -this.shock[attacker]!;
    if ((this.focus[attacker]! & stat) !== 0) {
      modifier++;
      this.focus[attacker] = 0;
    }
    if (this.evade[target] === 1) {
      modifier--;
      this.evade[target] = 0;
    }
    if (melee && this.scenario.terrain[target] === 1) modifier--;
    let total = 0;
    for (let type = scenario.typeStart[attacker]!; type < scenario.typeEnd[attacker]!; type++) {
      const models = this.typeAlive[type]!;
      const base = (melee ? scenario.strength[type]! : scenario.accuracy[type]!) + modifier;
      for (let weapon = scenario.weaponStart[type]!; weapon < scenario.weaponEnd[type]!; weapon++) {
        hits[weapon] = 0;
        if (models === 0 || (scenario.weaponMelee[weapon] === 1) !== melee) continue;
        if (!melee && scenario.weaponLong[weapon]! < distance) continue;
        const target = !melee && distance > scenario.weaponShort[weapon]! ? base - 1 : base; // long range −1
        const scored = this.tests.count(dice, models * scenario.weaponDice[weapon]!, target);
        hits[weapon] = scored;
        total += scored;
      }
    }
    return total;
  }

  /**
   * Give each hit to a model and roll its save (rulings §20): the damaged model first, else the
   * first model type with models left in allocation order; D10 ≤ Save − AP + cover. Returns the
   * Wounds lost.
   */
  protected applyHits(dice: Dice, attacker: number, target: number, melee: boolean, distance: number, hits: Int32Array): number {
    const scenario = this.scenario;
    const cover = melee || distance <= 3 ? 0 : scenario.cover[target]!;
    let lost = 0;
    for (let type = scenario.typeStart[attacker]!; type < scenario.typeEnd[attacker]!; type++) {
      for (let weapon = scenario.weaponStart[type]!; weapon < scenario.weaponEnd[type]!; weapon++) {
        if (hits[weapon]! > 0) lost += this.saveHits(dice, target, hits[weapon]!, scenario.weaponAp[weapon]!, cover, melee);
      }
    }
    return lost;
  }

  /** `count` hits with `ap` on `target`, one save each, Wounds removed (rulings §20). Returns the Wounds lost. */
  protected saveHits(dice: Dice, target: number, count: number, ap: number, cover: number, melee: boolean): number {
    const scenario = this.scenario;
    const single = this.singleType(target);
    if (single >= 0 && count < this.woundsLeft[target]!) {
      // One model type left and the hits cannot finish the unit: every save is rolled, on one Save.
      const failed = count - this.tests.count(dice, count, (melee ? scenario.meleeSave[single]! : scenario.save[single]!) - ap + cover);
      for (let wound = 0; wound < failed; wound++) this.wound(target, single);
      return failed;
    }
    let lost = 0;
    for (let hit = 0; hit < count && this.alive[target]! > 0; hit++) {
      const victim = this.victimType(target);
      // One save as a pool of one: a D10 rolled (the same draw as d10()), or pass/fail drawn whole.
      if (this.tests.count(dice, 1, (melee ? scenario.meleeSave[victim]! : scenario.save[victim]!) - ap + cover) === 1) continue;
      lost++;
      this.wound(target, victim);
    }
    return lost;
  }

  /** The only model type with characteristics and models left, or −1 if there are several (or none). */
  private singleType(unit: number): number {
    const scenario = this.scenario;
    let found = -1;
    for (let type = scenario.typeStart[unit]!; type < scenario.typeEnd[unit]!; type++) {
      if (scenario.typeHasCharacteristics[type] === 0 || this.typeAlive[type] === 0) continue;
      if (found >= 0) return -1;
      found = type;
    }
    return found;
  }

  /** One unsaved hit on a model of `victim`: the damaged one, else a fresh one (rulings §20). */
  private wound(target: number, victim: number): void {
    const scenario = this.scenario;
    this.woundsLeft[target] = this.woundsLeft[target]! - 1;
    const left = (this.typeDamaged[victim] === 0 ? scenario.wounds[victim]! : this.typeDamaged[victim]!) - 1;
    if (left > 0) {
      this.typeDamaged[victim] = left;
    } else {
      this.typeDamaged[victim] = 0;
      this.typeAlive[victim] = this.typeAlive[victim]! - 1;
      this.alive[target] = this.alive[target]! - 1;
    }
  }

  /** The model type that takes the next hit: a damaged model, else the first type with models left. */
  private victimType(unit: number): number {
    const scenario = this.scenario;
    let first = -1;
    for (let type = scenario.typeStart[unit]!; type < scenario.typeEnd[unit]!; type++) {
      if (scenario.typeHasCharacteristics[type] === 0 || this.typeAlive[type] === 0) continue;
      if (this.typeDamaged[type]! > 0) return type;
      if (first < 0) first = type;
    }
    return first;
  }

  /** +1 Shock, then a break test if Shock ≥ Courage (rulings §21–22). Returns true if it broke. */
  protected gainShock(dice: Dice, unit: number): boolean {
    if (!this.active(unit)) return false;
    this.shock[unit] = this.shock[unit]! + 1;
    if (this.shock[unit]! >= this.scenario.courage[this.scenario.leadType[unit]!]!) return this.breakTest(dice, unit);
    return false;
  }

  /**
   * What an attack leaves behind (rulings §21–22): a destroyed unit, else Shock if it was hit and a
   * break test if it gained Shock up to its Courage or lost more than half its models (or Wounds).
   */
  protected aftermath(dice: Dice, unit: number, hit: boolean, modelsBefore: number, woundsBefore: number): void {
    if (!this.active(unit)) return;
    if (this.alive[unit] === 0) {
      this.destroy(dice, unit);
      return;
    }
    const scenario = this.scenario;
    const heavy = scenario.multiWound[unit] === 1 ? woundsBefore - this.woundsLeft[unit]! > woundsBefore / 2 : modelsBefore - this.alive[unit]! > modelsBefore / 2;
    if (hit) this.shock[unit] = this.shock[unit]! + 1;
    if (heavy || (hit && this.shock[unit]! >= scenario.courage[scenario.leadType[unit]!]!)) this.breakTest(dice, unit);
  }

  /** One Courage test; a failure breaks the unit. Returns true if it broke. */
  protected breakTest(dice: Dice, unit: number): boolean {
    if (this.courageTest(dice, unit)) return false;
    this.breakUnit(dice, unit);
    return true;
  }

  /**
   * A broken unit falls back (rulings §22): out of melee it tests Initiative first, and each engaged
   * enemy strikes it as it goes if it fails (Falling Back); then it leaves the fight, or surrenders.
   */
  protected breakUnit(dice: Dice, unit: number): void {
    this.broken[unit] = 1;
    if (this.inMelee(unit)) this.leaveMelee(dice, unit);
    this.disengage(unit);
    if (this.destroyed[unit] === 0 && dice.chance(this.scenario.options.surrender)) this.destroy(dice, unit);
    else this.settle(unit);
  }

  /** Falling Back: an Initiative test; if it fails, every engaged enemy makes a free melee attack first. */
  protected leaveMelee(dice: Dice, unit: number): void {
    if (this.initiativeTest(dice, unit)) return;
    const row = unit * this.unitCount;
    for (let enemy = 0; enemy < this.unitCount && this.destroyed[unit] === 0; enemy++) {
      if (this.engaged[row + enemy] !== 1 || !this.active(enemy) || this.scenario.hasMelee[enemy] === 0) continue;
      const hits = this.rollHits(dice, enemy, unit, true, 0, this.hitsA);
      this.applyHits(dice, enemy, unit, true, 0, this.hitsA);
      if (this.alive[unit] === 0) this.destroy(dice, unit);
      else if (hits > 0) this.shock[unit] = this.shock[unit]! + 1;
    }
  }

  /** Every model gone: the unit is destroyed, and every unit within 3" gains a Shock (Gaining Shock). */
  protected destroy(dice: Dice, unit: number): void {
    this.alive[unit] = 0;
    this.destroyed[unit] = 1;
    this.disengage(unit);
    this.settle(unit);
    for (let other = 0; other < this.unitCount; other++) {
      if (other !== unit && this.active(other) && this.distance(unit, other) <= 3) this.gainShock(dice, other);
    }
  }

  /** Record the decisive round when a side has nothing left. */
  private settle(unit: number): void {
    if (this.decisiveRound === 0 && !this.sideActive(this.scenario.side[unit]!)) this.decisiveRound = this.round;
  }
}
