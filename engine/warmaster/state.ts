import { StateLayout } from '../state-layout.js';
import { OPEN } from './codes.js';
import { type CompiledScenario, F_CHARGING } from './compile.js';
import type { WarmasterTracer } from './trace.js';

/** What a trial changes, field by field: reset from the scenario's start by one copy per trial. */
function trialLayout(units: number, groups: number) {
  return new StateLayout({
    // Per unit.
    stands: units,
    hits: units,
    engaged: units,
    position: units,
    retreated: units,
    pursuer: units,
    advanced: units,
    charging: units,
    destroyedRound: units,
    groupFrom: units,
    groupTo: units,
    shotTaken: units,
    // Per contact group.
    targetNow: groups,
    // Per side.
    lostInEngagement: 2,
    reserveCursor: 2,
  });
}

/**
 * The state of one engagement chain and the bookkeeping every phase shares: who is engaged, stands
 * and hits, casualties. The rules build on it phase by phase: round.ts (attacks, result and
 * casualties of a round), aftermath.ts (retreat, pursuit, advance, fall back), kernel.ts (the chain
 * of rounds and turns). State is named Int32Array views over one buffer (engine/state-layout.ts),
 * reset by one `set` per trial; the per-round scratch arrays are written before they are read.
 */
export class EngagementState {
  protected readonly scenario: CompiledScenario;
  protected readonly unitCount: number;
  private readonly layout: ReturnType<typeof trialLayout>;
  /** The state at the start of a trial. */
  private readonly template: Int32Array;
  // Per unit.
  protected readonly stands: Int32Array;
  protected readonly hits: Int32Array;
  protected readonly engaged: Int32Array;
  /** Position code (codes.ts): a unit that retreats or presses an attack is in the open. */
  protected readonly position: Int32Array;
  /** cm it retreated in the previous round of this engagement, −1: it did not. */
  protected readonly retreated: Int32Array;
  /** 1 when it pursued into the coming round (pursuit bonuses, rulings §12). */
  protected readonly pursuer: Int32Array;
  /** Advances made in this Combat phase (rules.advancesPerPhase). */
  protected readonly advanced: Int32Array;
  /** 1 while its charge bonus applies: it charged, or advanced with option advanceChargeBonus. */
  protected readonly charging: Int32Array;
  protected readonly destroyedRound: Int32Array;
  /** Its contact groups now: [groupFrom, groupTo). */
  protected readonly groupFrom: Int32Array;
  protected readonly groupTo: Int32Array;
  /** Hits its shooting enemies inflicted before round 1, counted in round 1's result (rulings §15). */
  protected readonly shotTaken: Int32Array;
  // Per contact group.
  protected readonly targetNow: Int32Array;
  // Per side.
  /** Stands lost in this engagement (policy pursue-while-ahead). */
  protected readonly lostInEngagement: Int32Array;
  /** The next of its reserves an enemy advance can meet. */
  protected readonly reserveCursor: Int32Array;
  // Per unit, scratch for one round.
  protected readonly roundHits: Int32Array;
  protected readonly capacity: Int32Array;
  protected readonly supportsNow: Int32Array;
  /** Stands fighting to their front this round: only they can be supported. */
  protected readonly frontNow: Int32Array;
  protected readonly pursuesNext: Int32Array;
  // Per contact group, scratch for one round.
  protected readonly fightingNow: Int32Array;
  /** Rounds fought so far in this trial, over the chain. */
  protected roundNumber = 0;
  /** Set by `setTrace` (kernel.ts); null when not tracing, so each trace call is one null check. */
  protected tracer: WarmasterTracer | null = null;

  constructor(scenario: CompiledScenario) {
    this.scenario = scenario;
    const units = scenario.units.length;
    const groups = scenario.groupUnit.length;
    this.unitCount = units;
    this.layout = trialLayout(units, groups);
    const state = this.layout.views;
    this.stands = state.stands;
    this.hits = state.hits;
    this.engaged = state.engaged;
    this.position = state.position;
    this.retreated = state.retreated;
    this.pursuer = state.pursuer;
    this.advanced = state.advanced;
    this.charging = state.charging;
    this.destroyedRound = state.destroyedRound;
    this.groupFrom = state.groupFrom;
    this.groupTo = state.groupTo;
    this.shotTaken = state.shotTaken;
    this.targetNow = state.targetNow;
    this.lostInEngagement = state.lostInEngagement;
    this.reserveCursor = state.reserveCursor;
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
    this.template = this.layout.snapshot();
    this.roundHits = new Int32Array(units);
    this.capacity = new Int32Array(units);
    this.supportsNow = new Int32Array(units);
    this.frontNow = new Int32Array(units);
    this.pursuesNext = new Int32Array(units);
    this.fightingNow = new Int32Array(groups);
  }

  /** The start of a trial: the scenario's starting state, no round fought. */
  protected resetState(): void {
    this.layout.reset(this.template);
    this.roundNumber = 0;
  }

  /** Whether `side` has an engaged unit with stands left. */
  protected sideStanding(side: number): boolean {
    for (let unit = 0; unit < this.unitCount; unit++) {
      if (this.engaged[unit] === 1 && (this.stands[unit] ?? 0) > 0 && this.scenario.side[unit] === side) return true;
    }
    return false;
  }

  /** The first engaged enemy of `side` with stands left (charging only, if asked); −1 if none. */
  protected firstEnemy(side: number, chargingOnly: boolean): number {
    for (let unit = 0; unit < this.unitCount; unit++) {
      if (
        this.engaged[unit] === 1 &&
        (this.stands[unit] ?? 0) > 0 &&
        this.scenario.side[unit] !== side &&
        (!chargingOnly || this.charging[unit] === 1)
      )
        return unit;
    }
    return -1;
  }

  /** Count `removed` stands lost by `unit`; if none is left, it is destroyed in `round`. */
  protected destroy(unit: number, round: number, removed: number): void {
    const side = this.scenario.side[unit] ?? 0;
    this.lostInEngagement[side] = (this.lostInEngagement[side] ?? 0) + removed;
    if ((this.stands[unit] ?? 0) === 0) {
      this.hits[unit] = 0;
      if (this.destroyedRound[unit] === 0) this.destroyedRound[unit] = round;
    }
  }

  /** Whole stands off for full Hits values, odd hits carried, then regeneration (rulings §14, §18). */
  protected removeCasualties(unit: number, round: number, regenerate: boolean): void {
    const scenario = this.scenario;
    const perStand = scenario.hitsPerStand[unit] ?? 1;
    const hits = this.hits[unit] ?? 0;
    const removed = Math.min(this.stands[unit] ?? 0, Math.floor(hits / perStand));
    this.stands[unit] = (this.stands[unit] ?? 0) - removed;
    this.hits[unit] = hits - removed * perStand;
    this.destroy(unit, round, removed);
    let regenerated = 0;
    if (regenerate && (this.stands[unit] ?? 0) > 0) {
      regenerated = Math.min(this.hits[unit] ?? 0, scenario.regeneration[unit] ?? 0);
      this.hits[unit] = (this.hits[unit] ?? 0) - regenerated;
    }
    if (hits > 0) this.tracer?.casualties(unit, hits, removed, this.hits[unit]!, regenerated, this.stands[unit] === 0);
  }

  /** Switch a unit to its `newContact` groups, attacking `enemy`. */
  protected useNewContact(unit: number, enemy: number): void {
    this.groupFrom[unit] = this.scenario.newGroupStart[unit] ?? 0;
    this.groupTo[unit] = this.scenario.newGroupEnd[unit] ?? 0;
    for (let group = this.groupFrom[unit] ?? 0; group < (this.groupTo[unit] ?? 0); group++) this.targetNow[group] = enemy;
  }
}
