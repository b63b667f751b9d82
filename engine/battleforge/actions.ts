import type { Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import type { CompiledScenario } from './compile.js';
import { Morale } from './morale.js';
import { CHARGE_REACTIONS, codeOf, FOCUS_BOTH, SHOOTING_REACTIONS } from './terms.js';
import type { AttackKind, ReactionName } from './trace.js';

// Reaction codes as compile.ts encodes a side's `reactions` (terms.ts lists).
const COUNTER_ATTACK = codeOf(SHOOTING_REACTIONS, 'counter-attack');
const DODGE = codeOf(SHOOTING_REACTIONS, 'dodge');
const ESCAPE = codeOf(SHOOTING_REACTIONS, 'escape');
const OVERWATCH = codeOf(CHARGE_REACTIONS, 'overwatch');
const CHARGE_ESCAPE = codeOf(CHARGE_REACTIONS, 'escape');

/**
 * Overwatch against a Charge shoots from the point of the charge the watcher chooses: the closest,
 * just before contact (README "Reactions"): a reading, at point blank range, not a number of the text.
 */
const OVERWATCH_DISTANCE = 1;

/**
 * The actions a plan picks (Actions: Focus, Shoot, Fight, Move, Charge, Hold, Evade, Rally) and the
 * reactions they may draw (rulings §23): Overwatch, Counter Attack (simultaneous), Dodge, Escape.
 */
export class Actions extends Morale {
  private readonly failedReactionShock: number;
  private readonly failedRushShock: number;
  private readonly closestApproach: number;

  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario, method);
    const rules = scenario.rules;
    this.failedReactionShock = rules.failedReactionShock;
    this.failedRushShock = rules.failedRushShock;
    this.closestApproach = rules.closestApproach;
  }

  protected focusOn(unit: number, stat: number): void {
    this.tracer?.action(unit, 'focus', -1);
    this.focus[unit] = this.scenario.options.focusEvade === 'text' ? FOCUS_BOTH : stat;
  }

  protected holdAction(unit: number): void {
    this.tracer?.action(unit, 'hold', -1);
    this.hold[unit] = 1;
  }

  protected evadeAction(unit: number): void {
    this.tracer?.action(unit, 'evade', -1);
    this.evade[unit] = 1;
  }

  protected rally(dice: Dice, unit: number): void {
    this.tracer?.action(unit, 'rally', -1);
    this.removeShock(dice, unit, true);
  }

  protected shootOrMove(dice: Dice, unit: number, enemy: number, shootable: boolean): void {
    if (shootable) this.shoot(dice, unit, enemy);
    else this.move(dice, unit, enemy);
  }

  /** Charge reach: Movement − Shock, or with a Rush `rushPercent` of Movement more (Move: Rushing). */
  protected chargeOrMove(dice: Dice, unit: number, enemy: number): void {
    if (this.scenario.hasMelee[unit] === 1 && this.distance(unit, enemy) <= this.movement(unit) + this.scenario.rush[unit]!)
      this.charge(dice, unit, enemy);
    else this.move(dice, unit, enemy);
  }

  /** Move toward the nearest enemy, stopping short of it (Movement); units on Hold may Overwatch it (Overwatch). */
  protected move(dice: Dice, unit: number, enemy: number): void {
    this.tracer?.action(unit, 'move', enemy);
    const moved = this.moveToward(unit, enemy, this.movement(unit), this.closestApproach);
    this.tracer?.move(unit, enemy, false, moved, this.distance(unit, enemy));
    for (let watcher = 0; watcher < this.unitCount && this.active(unit); watcher++) {
      if (
        this.scenario.side[watcher] === this.scenario.side[unit] ||
        this.hold[watcher] !== 1 ||
        this.reacted[watcher] === 1 ||
        !this.active(watcher)
      )
        continue;
      if (this.scenario.reactToCharge[this.scenario.side[watcher]!] !== OVERWATCH || !this.canShoot(watcher, unit)) continue;
      this.reacted[watcher] = 1;
      this.tracer?.reaction(watcher, 'overwatch', unit, null, true);
      this.resolveSingle(dice, watcher, unit, false, this.distance(watcher, unit), 'overwatch');
    }
  }

  protected shoot(dice: Dice, unit: number, enemy: number): void {
    this.tracer?.action(unit, 'shoot', enemy);
    this.shot[unit] = 1;
    this.attackWithReactions(dice, unit, enemy, false, 'shoot');
  }

  protected fight(dice: Dice, unit: number, enemy: number): void {
    this.tracer?.action(unit, 'fight', enemy);
    this.fought[unit] = 1;
    this.attackWithReactions(dice, unit, enemy, true, 'fight');
  }

  /**
   * A Charge (Actions: Charge): the target may Overwatch or Escape; the charger then moves, with a
   * Rush if it needs one, and if it reaches makes its free fight (which the target may Counter Attack).
   */
  private charge(dice: Dice, unit: number, enemy: number): void {
    const scenario = this.scenario;
    this.tracer?.action(unit, 'charge', enemy);
    const reaction = this.mayReact(enemy) ? scenario.reactToCharge[scenario.side[enemy]!]! : 0;
    if (reaction === OVERWATCH && this.canShoot(enemy, unit) && this.reactionSucceeds(dice, enemy, true, 'overwatch', unit)) {
      this.resolveSingle(dice, enemy, unit, false, OVERWATCH_DISTANCE, 'overwatch');
      if (!this.active(unit)) return;
    } else if (reaction === CHARGE_ESCAPE && this.reactionSucceeds(dice, enemy, false, 'escape', unit)) {
      this.moveAway(enemy, unit);
    }
    const move = this.movement(unit);
    let reach = move;
    const distance = this.distance(unit, enemy);
    if (distance > move) {
      const rushed = this.initiativeTest(dice, unit);
      this.tracer?.test(unit, 'initiative', 'rush', this.passOn(this.initiativeOf(unit)), rushed);
      if (rushed) reach += scenario.rush[unit]!;
      else {
        this.tracer?.charge(unit, enemy, distance, move, false);
        const moved = this.moveToward(unit, enemy, move, this.closestApproach);
        this.tracer?.move(unit, enemy, false, moved, this.distance(unit, enemy));
        this.gainShocks(dice, unit, this.failedRushShock, 'failed rush'); // a failed Rush: Shock after the move
        return;
      }
    }
    this.tracer?.charge(unit, enemy, distance, reach, distance <= reach);
    if (distance > reach) {
      const moved = this.moveToward(unit, enemy, reach, this.closestApproach);
      this.tracer?.move(unit, enemy, false, moved, this.distance(unit, enemy));
      return;
    }
    this.engage(unit, enemy);
    this.fought[unit] = 1; // the free fight is its fight this round
    this.attackWithReactions(dice, unit, enemy, true, 'free fight');
  }

  /** An Escape: a full move (Movement − Shock) away from `from`. */
  private moveAway(unit: number, from: number): void {
    const moved = this.moveToward(unit, from, -this.movement(unit), 0);
    this.tracer?.move(unit, from, true, moved, this.distance(unit, from));
  }

  /** Only units that have not acted (and whose side reacts before activating), or on Hold, react (Reactions). */
  private mayReact(unit: number): boolean {
    if (!this.active(unit) || this.reacted[unit] === 1) return false;
    if (this.hold[unit] === 1) return true;
    return this.acted[unit] === 0 && this.scenario.reactBeforeActivating[this.scenario.side[unit]!] === 1;
  }

  /** The reaction's Initiative test (automatic on Hold for Overwatch and Counter Attack); a failure costs Shock (rulings §23). */
  private reactionSucceeds(dice: Dice, unit: number, automaticOnHold: boolean, reaction: ReactionName, against: number): boolean {
    if (automaticOnHold && this.hold[unit] === 1) {
      this.reacted[unit] = 1;
      this.tracer?.reaction(unit, reaction, against, null, true);
      return true;
    }
    const passed = this.initiativeTest(dice, unit);
    this.tracer?.reaction(unit, reaction, against, this.passOn(this.initiativeOf(unit)), passed);
    if (passed) {
      this.reacted[unit] = 1;
      return true;
    }
    if (this.scenario.options.failedReaction === 'spends-round') this.reacted[unit] = 1;
    this.gainShocks(dice, unit, this.failedReactionShock, 'failed reaction');
    return false;
  }

  /** A Shoot or Fight declared against `target`: its reaction, then the attack (simultaneous with a Counter Attack). */
  private attackWithReactions(dice: Dice, attacker: number, target: number, melee: boolean, kind: AttackKind): void {
    const scenario = this.scenario;
    const reaction = this.mayReact(target) ? (melee ? scenario.reactToFight : scenario.reactToShoot)[scenario.side[target]!]! : 0;
    // A Counter Attack is the unit's Shoot or Fight: not if it already made that one this round.
    const canCounter = melee
      ? scenario.hasMelee[target] === 1 && this.fought[target] === 0
      : this.shot[target] === 0 && this.canShoot(target, attacker);
    if (reaction === COUNTER_ATTACK && canCounter) {
      if (this.reactionSucceeds(dice, target, true, 'counter-attack', attacker)) {
        this.resolveSimultaneous(dice, attacker, target, melee, kind);
        return;
      }
    } else if (reaction === DODGE) {
      if (this.reactionSucceeds(dice, target, false, 'dodge', attacker)) this.evade[target] = 1;
    } else if (reaction === ESCAPE) {
      if (this.reactionSucceeds(dice, target, false, 'escape', attacker)) {
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
        this.moveAway(target, attacker);
        if (melee) return;
      }
    }
    if (!this.active(target) || !this.active(attacker)) return;
    if (!melee && !this.canShoot(attacker, target)) return;
    this.resolveSingle(dice, attacker, target, melee, this.distance(attacker, target), kind);
  }

  /** One attack and what it leaves behind. */
  protected resolveSingle(dice: Dice, attacker: number, target: number, melee: boolean, distance: number, kind: AttackKind): void {
    const models = this.alive[target]!;
    const wounds = this.woundsLeft[target]!;
    this.tracer?.attack(attacker, target, kind, distance);
    const hits = this.rollHits(dice, attacker, target, melee, distance, this.hitsA);
    this.applyHits(dice, attacker, target, melee, distance, this.hitsA);
    this.aftermath(dice, target, hits > 0, models, wounds);
  }

  /** Counter Attack: both attacks rolled on the state before either, then casualties, Shock, break tests. */
  private resolveSimultaneous(dice: Dice, attacker: number, target: number, melee: boolean, kind: AttackKind): void {
    const distance = this.distance(attacker, target);
    const modelsA = this.alive[attacker]!;
    const woundsA = this.woundsLeft[attacker]!;
    const modelsT = this.alive[target]!;
    const woundsT = this.woundsLeft[target]!;
    this.tracer?.attack(attacker, target, kind, distance);
    const hitsOnTarget = this.rollHits(dice, attacker, target, melee, distance, this.hitsA);
    this.tracer?.attack(target, attacker, 'counter-attack', distance);
    const hitsOnAttacker = this.rollHits(dice, target, attacker, melee, distance, this.hitsB);
    this.applyHits(dice, attacker, target, melee, distance, this.hitsA);
    this.applyHits(dice, target, attacker, melee, distance, this.hitsB);
    if (melee) this.fought[target] = 1;
    else this.shot[target] = 1;
    this.aftermath(dice, target, hitsOnTarget > 0, modelsT, woundsT);
    this.aftermath(dice, attacker, hitsOnAttacker > 0, modelsA, woundsA);
  }
}
