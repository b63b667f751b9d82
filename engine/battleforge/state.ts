import { type D10Counter, D10TestTables, D10Tests, type Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import { StateLayout } from '../state-layout.js';
import type { CompiledScenario } from './compile.js';
import type { BattleforgeTracer } from './trace.js';

/** The per-trial state, field by field (per unit, per model type, and the engagement matrix). */
function battleLayout(units: number, types: number) {
  return new StateLayout({
    shock: units,
    focus: units,
    evade: units,
    hold: units,
    acted: units,
    reacted: units,
    activated: units,
    shot: units,
    fought: units,
    broken: units,
    destroyed: units,
    alive: units,
    woundsLeft: units,
    stopsLeft: units,
    typeAlive: types,
    typeDamaged: types,
    engaged: units * units,
    meleePartners: units,
    activeUnits: 2,
  });
}

/**
 * The state of a Battle Forge game and what every rule reads of it: who is active, where units
 * stand on the line, who is engaged with whom, and the D10 tests. The rules build on it phase by
 * phase: attacks.ts (hits, saves), morale.ts (Shock, breaks), actions.ts (actions and reactions),
 * powers.ts, kernel.ts (rounds, bidding, activations, plans). State is named Int32Array views over
 * one buffer (engine/state-layout.ts, plus the places), reset by one `set` per trial.
 */
export class BattleState {
  protected readonly unitCount: number;
  private readonly layout: ReturnType<typeof battleLayout>;
  private readonly template: Int32Array;
  protected readonly place: Float64Array;
  // Per unit.
  protected readonly shock: Int32Array;
  /** Focus token: 0 none, else FOCUS_* bits (terms.ts: which stats it raises). */
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
  /** Per unit, the enemies it is engaged with: `inMelee` without a scan of `engaged`. */
  private readonly meleePartners: Int32Array;
  /**
   * Per side, its units neither broken nor destroyed: `sideActive`, asked about 30 times a game,
   * without a scan of the units (kept by `leaveActive`, the only way out of play).
   */
  private readonly activeUnits: Int32Array;
  /**
   * Counts passed D10 tests: nine dice per draw (the same dice as rolled one by one, in order), or
   * with method `tables` the count drawn whole from its binomial table.
   */
  private readonly tests: D10Counter;
  /** Method `tables`: outcomes drawn whole where no rule reads the dice. */
  protected readonly drawsTables: boolean;
  /** Faces at or under `passFloor` always pass, above `passCeiling` always fail (rules.autoPassFace, autoFailFace − 1; rulings §19). */
  private readonly passFloor: number;
  private readonly passCeiling: number;
  private readonly movementPerShock: number;
  private readonly initiativePerShock: number;
  /** Set by `setTrace` (kernel.ts); null when not tracing, so each trace call is one null check. */
  protected tracer: BattleforgeTracer | null = null;
  /** The round being played, for the decisive round. */
  protected round = 0;
  protected decisiveRound = 0;

  constructor(
    protected readonly scenario: CompiledScenario,
    method: DrawMethod,
  ) {
    this.drawsTables = method === 'tables';
    this.tests = this.drawsTables ? new D10TestTables() : new D10Tests();
    const rules = scenario.rules;
    this.passFloor = rules.autoPassFace;
    this.passCeiling = rules.autoFailFace - 1;
    this.movementPerShock = rules.movementPerShock;
    this.initiativePerShock = rules.initiativePerShock;
    const units = scenario.units.length;
    const types = scenario.typeUnit.length;
    this.unitCount = units;
    this.layout = battleLayout(units, types);
    const views = this.layout.views;
    this.shock = views.shock;
    this.focus = views.focus;
    this.evade = views.evade;
    this.hold = views.hold;
    this.acted = views.acted;
    this.reacted = views.reacted;
    this.activated = views.activated;
    this.shot = views.shot;
    this.fought = views.fought;
    this.broken = views.broken;
    this.destroyed = views.destroyed;
    this.alive = views.alive;
    this.woundsLeft = views.woundsLeft;
    this.stopsLeft = views.stopsLeft;
    this.typeAlive = views.typeAlive;
    this.typeDamaged = views.typeDamaged;
    this.engaged = views.engaged;
    this.meleePartners = views.meleePartners;
    this.activeUnits = views.activeUnits;
    for (let unit = 0; unit < units; unit++) this.activeUnits[scenario.side[unit]!]!++;
    this.shock.set(scenario.startShock);
    this.focus.set(scenario.startFocus);
    this.evade.set(scenario.startEvade);
    this.alive.set(scenario.models);
    this.woundsLeft.set(scenario.woundsTotal);
    this.typeAlive.set(scenario.typeCount);
    this.template = this.layout.snapshot();
    this.place = scenario.place.slice();
  }

  protected reset(): void {
    this.layout.reset(this.template);
    this.place.set(this.scenario.place);
    this.round = 0;
    this.decisiveRound = 0;
  }

  protected active(unit: number): boolean {
    return this.broken[unit] === 0 && this.destroyed[unit] === 0;
  }

  protected sideActive(side: number): boolean {
    return this.activeUnits[side]! > 0;
  }

  /** `unit` breaks (`broken`) or is destroyed (`destroyed`): the only ways a unit stops being active. */
  protected leaveActive(unit: number, flags: Int32Array): void {
    if (this.active(unit)) this.activeUnits[this.scenario.side[unit]!]!--;
    flags[unit] = 1;
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
    return this.meleePartners[unit]! > 0;
  }

  /** An engaged enemy to fight (the lowest index), −1 if none. */
  protected meleeEnemy(unit: number): number {
    const row = unit * this.unitCount;
    for (let other = 0; other < this.unitCount; other++) if (this.engaged[row + other] === 1) return other;
    return -1;
  }

  protected engage(a: number, b: number): void {
    if (this.engaged[a * this.unitCount + b] !== 1) {
      this.meleePartners[a]!++;
      this.meleePartners[b]!++;
    }
    this.engaged[a * this.unitCount + b] = 1;
    this.engaged[b * this.unitCount + a] = 1;
    this.place[a] = this.place[b]!;
  }

  protected disengage(unit: number): void {
    if (this.meleePartners[unit] === 0) return;
    for (let other = 0; other < this.unitCount; other++) {
      if (this.engaged[unit * this.unitCount + other] === 1) this.meleePartners[other]!--;
      this.engaged[unit * this.unitCount + other] = 0;
      this.engaged[other * this.unitCount + unit] = 0;
    }
    this.meleePartners[unit] = 0;
  }

  /** Movement after Shock (Effects of Shock), from the unit's most numerous model type. */
  protected movement(unit: number): number {
    return Math.max(0, this.scenario.movement[this.scenario.leadType[unit]!]! - this.shock[unit]! * this.movementPerShock);
  }

  /**
   * What a D10 must show or less to pass a test of `target` (stat plus modifiers): never below the
   * automatic pass, never at or above the automatic failure (Dice And Modifiers; rulings §19).
   */
  protected passOn(target: number): number {
    return target < this.passFloor ? this.passFloor : Math.min(target, this.passCeiling);
  }

  /** `n` D10 tests passing on `passOn(target)` or less: how many passed. */
  protected roll(dice: Dice, n: number, target: number): number {
    return this.tests.count(dice, n, this.passOn(target));
  }

  // A test is a pool of one D10: rolled, the same draw as d10() read by `passes`; by tables, pass
  // or fail drawn whole (two branches when enumerated, not ten).
  protected initiativeOf(unit: number): number {
    return this.scenario.initiative[this.scenario.leadType[unit]!]! - this.shock[unit]! * this.initiativePerShock;
  }

  protected initiativeTest(dice: Dice, unit: number): boolean {
    return this.roll(dice, 1, this.initiativeOf(unit)) === 1;
  }

  protected courageOf(unit: number): number {
    return this.scenario.courage[this.scenario.leadType[unit]!]!;
  }

  protected courageTest(dice: Dice, unit: number): boolean {
    return this.roll(dice, 1, this.courageOf(unit)) === 1;
  }

  /** Move `inches` toward `enemy` (or away, negative), never closer than `closest` (Movement). Returns the inches moved. */
  protected moveToward(unit: number, enemy: number, inches: number, closest: number): number {
    const direction = this.place[enemy]! >= this.place[unit]! ? 1 : -1;
    const gap = this.distance(unit, enemy);
    const step = inches >= 0 ? Math.min(inches, Math.max(0, gap - closest)) : inches;
    this.place[unit] = this.place[unit]! + direction * step;
    return Math.abs(step);
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

  protected withinShortRange(unit: number, enemy: number): boolean {
    const scenario = this.scenario;
    const distance = this.distance(unit, enemy);
    for (let type = scenario.typeStart[unit]!; type < scenario.typeEnd[unit]!; type++) {
      for (let weapon = scenario.weaponStart[type]!; weapon < scenario.weaponEnd[type]!; weapon++) {
        if (scenario.weaponMelee[weapon] === 0 && scenario.weaponShort[weapon]! >= distance) return true;
      }
    }
    return false;
  }
}
