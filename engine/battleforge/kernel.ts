import type { Dice } from '../dice/index.js';
import type { DrawMethod, Kernel, MetricSpec, TraceSink } from '../kernel.js';
import type { CompiledScenario } from './compile.js';
import {
  DECISIVE_ROUND,
  battleforgeMetrics,
  ROUNDS,
  SIDE_METRICS,
  SIDE_WIDTH,
  UNIT_METRICS,
  UNIT_WIDTH,
  WINNER,
  WINNER_NONE,
} from './metrics.js';
import { Powers } from './powers.js';
import { codeOf, FOCUS_ACCURACY, FOCUS_STRENGTH, PLANS } from './terms.js';
import { BattleforgeTracer, type BattleforgeTraceEvent } from './trace.js';

export const BATTLEFORGE_ENGINE_VERSION = 'battleforge-1.0.0';

// Plan codes as compile.ts encodes a unit's plan (terms.ts PLANS).
const SHOOT_AND_HOLD = codeOf(PLANS, 'shoot-and-hold');
const FOCUS_THEN_SHOOT = codeOf(PLANS, 'focus-then-shoot');
const MOVE_AND_SHOOT = codeOf(PLANS, 'move-and-shoot');
const SHOOT_THEN_CHARGE = codeOf(PLANS, 'shoot-then-charge');
const CHARGE_AND_FIGHT = codeOf(PLANS, 'charge-and-fight');
const HOLD_FOR_OVERWATCH = codeOf(PLANS, 'hold-for-overwatch');
const EVADE_AND_SHOOT = codeOf(PLANS, 'evade-and-shoot');

/**
 * One trial = one game of up to `rounds` rounds (README "A round"): bidding, alternating
 * activations, each unit's actions by its plan; the rules they are made of are in the classes it
 * extends (state.ts → attacks.ts → morale.ts → actions.ts → powers.ts). Nothing is allocated per
 * trial unless tracing.
 */
export class BattleforgeKernel extends Powers implements Kernel<BattleforgeTraceEvent> {
  readonly ruleset = 'battleforge';
  readonly engineVersion = BATTLEFORGE_ENGINE_VERSION;
  readonly metrics: readonly MetricSpec[];
  /** Activation bonus of the round: side that activates first and how many units it activates before alternating. */
  private firstSide = 0;
  private firstCount = 1;
  private readonly actionsPerActivation: number;

  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario, method);
    this.metrics = battleforgeMetrics(scenario);
    this.actionsPerActivation = scenario.rules.actionsPerActivation;
  }

  setTrace(sink: TraceSink<BattleforgeTraceEvent> | null): void {
    this.tracer = sink === null ? null : new BattleforgeTracer(this.scenario, sink);
  }

  trial(untracedDice: Dice, row: Int32Array): void {
    this.reset();
    const tracer = this.tracer;
    // Traced, the same dice are read through a recorder, so the trace can show every face.
    const dice = tracer === null ? untracedDice : tracer.record(untracedDice);
    const scenario = this.scenario;
    let rounds = 0;
    if (scenario.mode === 'attack') {
      this.round = 1;
      rounds = 1;
      tracer?.round(1);
      this.singleAttack(dice);
    }
    for (let round = 1; scenario.mode === 'game' && round <= scenario.rounds && this.sideActive(0) && this.sideActive(1); round++) {
      this.round = round;
      rounds = round;
      tracer?.round(round);
      this.startRound();
      this.bidding(dice);
      this.activations(dice);
    }
    const standing0 = this.sideActive(0);
    const standing1 = this.sideActive(1);
    const winner = standing0 !== standing1 ? (standing0 ? 0 : 1) : WINNER_NONE;
    row[WINNER] = winner;
    row[ROUNDS] = rounds;
    row[DECISIVE_ROUND] = standing0 !== standing1 ? this.decisiveRound : 0;
    this.writeLosses(row);
    tracer?.end(this.metrics[WINNER]?.labels?.[winner] ?? String(winner), rounds, row[DECISIVE_ROUND]!);
  }

  /** The per-side and per-unit metrics (README "Metrics"). */
  private writeLosses(row: Int32Array): void {
    const scenario = this.scenario;
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
    if (melee || this.canShoot(attacker, target))
      this.resolveSingle(dice, attacker, target, melee, this.distance(attacker, target), melee ? 'fight' : 'shoot');
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

  /** Bidding Phase (rulings §25): each side's bid is assigned within the Shock limit; the difference is the bonus. */
  private bidding(dice: Dice): void {
    const bid0 = this.assignBid(0);
    const bid1 = this.assignBid(1);
    const tie = bid0 === bid1;
    if (!tie) {
      this.firstSide = bid0 > bid1 ? 0 : 1;
      this.firstCount = Math.abs(bid0 - bid1);
    } else if (this.drawsTables) {
      // A tie: roll off (ties re-rolled); the winner activates one unit first. Either side wins it
      // with probability 1/2, which is all the tables draw (and keeps enumeration finite).
      this.firstSide = dice.chance(0.5) ? 0 : 1;
      this.firstCount = 1;
    } else {
      let roll0 = 0;
      let roll1 = 0;
      while (roll0 === roll1) {
        roll0 = dice.d10();
        roll1 = dice.d10();
      }
      this.firstSide = roll0 > roll1 ? 0 : 1;
      this.firstCount = 1;
    }
    this.tracer?.bidding(this.scenario.bid[0]!, this.scenario.bid[1]!, bid0, bid1, this.firstSide, this.firstCount, tie, this.drawsTables);
  }

  /** Assign a side's bid one Shock at a time to the unit with most room; returns the bid, or 0 if forfeited. */
  private assignBid(side: number): number {
    const bid = this.scenario.bid[side]!;
    for (let given = 0; given < bid; given++) {
      let best = -1;
      let bestRoom = 0;
      for (let unit = 0; unit < this.unitCount; unit++) {
        if (this.scenario.side[unit] !== side || !this.active(unit)) continue;
        // Room: how much more Shock keeps it within the limit after the Shock is added (compile.ts bidCap).
        const room = this.scenario.bidCap[unit]! - this.shock[unit]!;
        if (room > bestRoom) {
          best = unit;
          bestRoom = room;
        }
      }
      if (best < 0) return 0; // could not assign it all: the bonus is forfeited
      this.shock[best] = this.shock[best]! + 1;
      this.tracer?.bidShockGiven(best, this.shock[best]!);
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

  /** A unit's activation: Shock tests, then its actions by its plan (Removing Shock; Actions). */
  private activate(dice: Dice, unit: number): void {
    this.activated[unit] = 1;
    this.tracer?.activation(unit, this.scenario.plan[unit]!, this.shock[unit]!);
    this.removeShock(dice, unit, false);
    for (let action = 0; action < this.actionsPerActivation; action++) {
      if (!this.active(unit) || this.reacted[unit] === 1 || !this.sideActive(1 - this.scenario.side[unit]!)) return;
      this.acted[unit] = 1;
      this.takeAction(dice, unit, action);
    }
  }

  /** The plan's choice for action `slot` (README "Plans"): slot 0 is the first action, any later one the second. */
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
      if (this.fought[unit] === 0 && scenario.hasMelee[unit] === 1) this.fight(dice, unit, this.meleeEnemy(unit));
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
        else this.holdAction(unit);
        return;
      case FOCUS_THEN_SHOOT:
        if (slot === 0) this.focusOn(unit, FOCUS_ACCURACY);
        else this.shootOrMove(dice, unit, enemy, shootable);
        return;
      case MOVE_AND_SHOOT:
        if (slot === 0 && !this.withinShortRange(unit, enemy)) this.move(dice, unit, enemy);
        else if (shootable) this.shoot(dice, unit, enemy);
        else if (slot === 0) this.move(dice, unit, enemy);
        else this.holdAction(unit); // shot already (or nothing in range): stay, ready to react
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
        else this.holdAction(unit);
        return;
      case EVADE_AND_SHOOT:
        if (slot === 0) this.evadeAction(unit);
        else this.shootOrMove(dice, unit, enemy, shootable);
        return;
    }
  }
}
