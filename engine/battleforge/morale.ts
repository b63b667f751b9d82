import type { Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import { Attacks } from './attacks.js';
import type { CompiledScenario } from './compile.js';
import type { ShockCause } from './trace.js';

/**
 * Morale and Shock (rulings §21–22): Shock gained and removed, what an attack leaves behind, break tests, a
 * broken unit falling back (with the free attacks of a failed Initiative test), units destroyed.
 */
export class Morale extends Attacks {
  private readonly shockWhenHit: number;
  private readonly heavyLossPercent: number;
  private readonly shockFromDestroyed: number;
  private readonly destroyedShockRange: number;

  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario, method);
    const rules = scenario.rules;
    this.shockWhenHit = rules.shockWhenHit;
    this.heavyLossPercent = rules.heavyLossPercent;
    this.shockFromDestroyed = rules.shockFromDestroyed;
    this.destroyedShockRange = rules.destroyedShockRange;
  }

  /** +1 Shock, then a break test if Shock ≥ Courage (rulings §21–22). Returns true if it broke. */
  protected gainShock(dice: Dice, unit: number, cause: ShockCause): boolean {
    if (!this.active(unit)) return false;
    this.shock[unit] = this.shock[unit]! + 1;
    this.tracer?.shock(unit, 1, this.shock[unit]!, cause);
    if (this.shock[unit]! >= this.courageOf(unit)) return this.breakTest(dice, unit);
    return false;
  }

  /** `count` Shock one at a time, each with its break test (as a miscast's 2 Shock). */
  protected gainShocks(dice: Dice, unit: number, count: number, cause: ShockCause): void {
    for (let gained = 0; gained < count; gained++) this.gainShock(dice, unit, cause);
  }

  /** Removing Shock (or a Rally action): one Courage test per Shock, each pass removes one. */
  protected removeShock(dice: Dice, unit: number, rally: boolean): void {
    const tests = this.shock[unit]!;
    for (let test = 0; test < tests; test++) if (this.courageTest(dice, unit)) this.shock[unit] = this.shock[unit]! - 1;
    if (tests > 0)
      this.tracer?.shockTests(unit, rally, this.passOn(this.courageOf(unit)), tests, tests - this.shock[unit]!, this.shock[unit]!);
  }

  /**
   * What an attack leaves behind (rulings §21–22): a destroyed unit, else Shock if it was hit and a
   * break test if it gained Shock up to its Courage or lost more than `heavyLossPercent` of its
   * models (or Wounds).
   */
  protected aftermath(dice: Dice, unit: number, hit: boolean, modelsBefore: number, woundsBefore: number): void {
    if (!this.active(unit)) return;
    if (this.alive[unit] === 0) {
      this.destroy(dice, unit);
      return;
    }
    const scenario = this.scenario;
    // Integers: "more than half" is lost·100 > before·50, exactly.
    const heavy =
      scenario.multiWound[unit] === 1
        ? (woundsBefore - this.woundsLeft[unit]!) * 100 > woundsBefore * this.heavyLossPercent
        : (modelsBefore - this.alive[unit]!) * 100 > modelsBefore * this.heavyLossPercent;
    const shocked = hit && this.shockWhenHit > 0;
    if (shocked) {
      this.shock[unit] = this.shock[unit]! + this.shockWhenHit;
      this.tracer?.shock(unit, this.shockWhenHit, this.shock[unit]!, 'hit');
    }
    if (heavy || (shocked && this.shock[unit]! >= this.courageOf(unit))) this.breakTest(dice, unit);
  }

  /** One Courage test; a failure breaks the unit. Returns true if it broke. */
  protected breakTest(dice: Dice, unit: number): boolean {
    const passed = this.courageTest(dice, unit);
    this.tracer?.test(unit, 'courage', 'break', this.passOn(this.courageOf(unit)), passed);
    if (passed) return false;
    this.breakUnit(dice, unit);
    return true;
  }

  /**
   * A broken unit falls back (rulings §22): out of melee it tests Initiative first, and each engaged
   * enemy strikes it as it goes if it fails (Falling Back); then it leaves the fight, or surrenders.
   */
  protected breakUnit(dice: Dice, unit: number): void {
    this.leaveActive(unit, this.broken);
    if (this.inMelee(unit)) this.leaveMelee(dice, unit);
    this.disengage(unit);
    if (this.destroyed[unit] !== 0) {
      this.tracer?.broken(unit, 'destroyed');
      this.settle(unit);
      return;
    }
    const surrenders = dice.chance(this.scenario.options.surrender);
    this.tracer?.broken(unit, surrenders ? 'surrenders' : 'leaves');
    if (surrenders) this.destroy(dice, unit);
    else this.settle(unit);
  }

  /** Falling Back: an Initiative test; if it fails, every engaged enemy makes a free melee attack first. */
  protected leaveMelee(dice: Dice, unit: number): void {
    const passed = this.initiativeTest(dice, unit);
    this.tracer?.test(unit, 'initiative', 'fall back', this.passOn(this.initiativeOf(unit)), passed);
    if (passed) return;
    const row = unit * this.unitCount;
    for (let enemy = 0; enemy < this.unitCount && this.destroyed[unit] === 0; enemy++) {
      if (this.engaged[row + enemy] !== 1 || !this.active(enemy) || this.scenario.hasMelee[enemy] === 0) continue;
      this.tracer?.attack(enemy, unit, 'free attack', 0);
      const hits = this.rollHits(dice, enemy, unit, true, 0, this.hitsA);
      this.applyHits(dice, enemy, unit, true, 0, this.hitsA);
      if (this.alive[unit] === 0) this.destroy(dice, unit);
      else if (hits > 0 && this.shockWhenHit > 0) {
        this.shock[unit] = this.shock[unit]! + this.shockWhenHit;
        this.tracer?.shock(unit, this.shockWhenHit, this.shock[unit]!, 'hit');
      }
    }
  }

  /** Every model gone: the unit is destroyed, and every unit near it gains Shock (Gaining Shock). */
  protected destroy(dice: Dice, unit: number): void {
    this.alive[unit] = 0;
    this.leaveActive(unit, this.destroyed);
    this.tracer?.destroyed(unit);
    this.disengage(unit);
    this.settle(unit);
    for (let other = 0; other < this.unitCount; other++) {
      if (other !== unit && this.active(other) && this.distance(unit, other) <= this.destroyedShockRange)
        this.gainShocks(dice, other, this.shockFromDestroyed, 'destroyed nearby');
    }
  }

  /** Record the decisive round when a side has nothing left. */
  private settle(unit: number): void {
    if (this.decisiveRound === 0 && !this.sideActive(this.scenario.side[unit]!)) this.decisiveRound = this.round;
  }
}
