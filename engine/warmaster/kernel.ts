import { type Dice, type OutcomeTable, sumOfDiceTable } from '../dice/index.js';
import type { DrawMethod, Kernel, MetricSpec, TraceSink } from '../kernel.js';
import {
  ARTILLERY, type CompiledScenario, DEFENDED, F_ALWAYS_HITS_ON_4, F_ARMOUR_PIERCING, F_CHARGE_D6, F_CHARGING, F_CONFUSED, F_MUST_PURSUE, F_ONE_STAND_BONUS, F_REGENERATES, FORTIFIED, FRONT, NO_SAVE, OPEN,
} from './compile.js';
import {
  ADVANCES, PURSUITS, RECORDED_ROUNDS, RETREAT, ROUND_DRAW, ROUND_NOT_FOUGHT, ROUND_RESULTS, ROUNDS, SIDE_METRICS, SIDE_WIDTH, TURNS,
  UNIT_METRICS, UNIT_WIDTH, WINNER, WINNER_DRAW, WINNER_UNRESOLVED, warmasterMetrics,
} from './metrics.js';
import { StrikeTables } from './strike-tables.js';
import { WarmasterTracer, type WarmasterTraceEvent } from './trace.js';

export const WARMASTER_ENGINE_VERSION = 'warmaster-1.0.0';

const POLICY_PURSUE = 0;
const POLICY_PURSUE_WHILE_AHEAD = 1;
const POLICY_FALL_BACK = 3;
const NO_OUTCOME = -1;

/**
 * One trial = one engagement and the chain it leads to, in the step order of README.md. State is
 * typed-array views over one buffer, reset by one `set` per trial; nothing is allocated per trial.
 */
export class WarmasterKernel implements Kernel<WarmasterTraceEvent> {
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
  // Per side.
  private readonly result = new Int32Array(2);
  private readonly lostInEngagement = new Int32Array(2);
  private readonly reserveCursor = new Int32Array(2);
  /** Engaged units of each side at the start of the round: the divisor of the retreat (rulings §16). */
  private readonly losingUnits = new Int32Array(2);
  /** Rounds fought so far in this trial, over the chain. */
  private roundNumber = 0;
  /** Hits scored (before saves) by the last `strike`, for the trace. */
  private lastHits = 0;
  private tracer: WarmasterTracer | null = null;
  private readonly tables: StrikeTables | null;
  /** Method tables: the 3D6 of a draw's fall back as one pick. */
  private readonly threeD6: OutcomeTable | null;

  /** `method`: strikes rolled die by die, or their hits after saves drawn whole (strike-tables.ts). */
  constructor(
    private readonly scenario: CompiledScenario,
    method: DrawMethod = 'dice',
  ) {
    this.metrics = warmasterMetrics(scenario);
    this.tables = method === 'tables' ? new StrikeTables() : null;
    this.threeD6 = method === 'tables' ? sumOfDiceTable([1, 2, 3, 4, 5, 6], 3) : null;
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
  }

  setTrace(sink: TraceSink<WarmasterTraceEvent> | null): void {
    this.tracer = sink === null ? null : new WarmasterTracer(this.scenario, sink);
  }

  trial(untracedDice: Dice, row: Int32Array): void {
    const scenario = this.scenario;
    const tracer = this.tracer;
    // Traced, the same dice are read through a recorder, so the trace can show every face.
    const dice = tracer === null ? untracedDice : tracer.record(untracedDice);
    // TypedArray.fill costs ~50 ns a call here whatever the length: small arrays are cleared by loops.
    this.state.set(this.template);
    this.lostInEngagement[0] = 0;
    this.lostInEngagement[1] = 0;
    this.reserveCursor[0] = 0;
    this.reserveCursor[1] = 0;
    this.roundNumber = 0;
    let fallBack0 = 0;
    let fallBack1 = 0;
    let retreatCm = 0;
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
      tracer?.round(round, turn, roundInEngagement);
      outcome = this.fightRound(dice, round, firstRound);
      if (round <= RECORDED_ROUNDS) row[ROUND_RESULTS + round - 1] = outcome === WINNER_DRAW ? ROUND_DRAW : 1 + outcome;
      if (outcome === WINNER_DRAW) {
        // Draw: both sides fall back 3D6 cm and the engagement ends (rulings §16); a side with
        // nothing left standing (both destroyed) has nothing to move.
        if (this.sideStanding(0)) fallBack0 = this.fallBack(dice, 0);
        if (this.sideStanding(1)) fallBack1 = this.fallBack(dice, 1);
        break;
      }
      const winner = outcome;
      const loser = 1 - winner;
      const retreat = this.retreat(dice, winner, loser);
      if (round === 1) retreatCm = retreat;
      // `maxRounds`: the engagement is cut after this round's retreat, before any pursuit or advance.
      if (round === scenario.maxRounds) break;
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
        if (policy === POLICY_FALL_BACK) {
          if (winner === 0) fallBack0 = this.fallBack(dice, 0);
          else fallBack1 = this.fallBack(dice, 1);
        }
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
        tracer?.unresolved(turn);
        roundInTurn = 0;
        for (let unit = 0; unit < this.unitCount; unit++) this.advanced[unit] = 0;
      }
    }

    tracer?.end(this.metrics[WINNER]?.labels?.[outcome] ?? String(outcome), this.roundNumber, lastTurnFought);
    // Every metric is written here (or, for round results, as the round ends): no clearing pass.
    row[WINNER] = outcome;
    for (let round = this.roundNumber + 1; round <= RECORDED_ROUNDS; round++) row[ROUND_RESULTS + round - 1] = ROUND_NOT_FOUGHT;
    row[ROUNDS] = this.roundNumber;
    row[TURNS] = lastTurnFought;
    row[RETREAT] = retreatCm;
    row[PURSUITS] = pursuits;
    row[ADVANCES] = advances;
    let lost0 = 0;
    let lost1 = 0;
    let destroyed0 = 0;
    let destroyed1 = 0;
    const stands = this.stands;
    const destroyedRound = this.destroyedRound;
    for (let unit = 0; unit < this.unitCount; unit++) {
      const lost = scenario.stands[unit]! - stands[unit]!;
      const destroyed = destroyedRound[unit]!;
      row[UNIT_METRICS + unit * UNIT_WIDTH] = lost;
      row[UNIT_METRICS + unit * UNIT_WIDTH + 1] = destroyed;
      if (scenario.side[unit] === 0) {
        lost0 += lost;
        if (destroyed > 0) destroyed0++;
      } else {
        lost1 += lost;
        if (destroyed > 0) destroyed1++;
      }
    }
    row[SIDE_METRICS] = lost0;
    row[SIDE_METRICS + 1] = destroyed0;
    row[SIDE_METRICS + 2] = fallBack0;
    row[SIDE_METRICS + SIDE_WIDTH] = lost1;
    row[SIDE_METRICS + SIDE_WIDTH + 1] = destroyed1;
    row[SIDE_METRICS + SIDE_WIDTH + 2] = fallBack1;
  }

  /** 3D6 cm of a side's fall back (Fall backs). */
  private fallBack(dice: Dice, side: number): number {
    // 3D6 cm: three dice, or (method tables) their total drawn whole.
    const cm = this.threeD6 === null ? dice.d6() + dice.d6() + dice.d6() : dice.pick(this.threeD6);
    this.tracer?.fallBack(side, cm);
    return cm;
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
    if (this.tables !== null) {
      const taken = this.tables.sample(dice, count, hitOn, (this.scenario.armour[target] ?? NO_SAVE) + (oneWorse ? 1 : 0));
      this.lastHits = taken; // the hits before saves are not drawn: the trace shows what was taken
      return taken;
    }
    const scorers = this.scenario.atLeastScorers;
    const hits = (scorers[hitOn] ?? scorers[6])!.roll(dice, count);
    this.lastHits = hits;
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
      const shots = scenario.shotDice[shooter] ?? 0;
      const hitOn = scenario.shotHitOn[shooter] ?? 4;
      const oneWorse = scenario.shotOneWorse[shooter] === 1;
      const taken = Math.min(this.strike(dice, shots, hitOn, target, oneWorse), (this.stands[target] ?? 0) * (scenario.hitsPerStand[target] ?? 1) - (this.hits[target] ?? 0));
      this.tracer?.shooting(shooter, target, shots, hitOn, oneWorse, this.lastHits, taken);
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
    const regenerated = regenerate && (this.stands[unit] ?? 0) > 0 && (this.hits[unit] ?? 0) > 0 && ((this.scenario.flags[unit] ?? 0) & F_REGENERATES) !== 0;
    if (regenerated) this.hits[unit] = (this.hits[unit] ?? 0) - 1;
    if (hits > 0) this.tracer?.casualties(unit, hits, removed, this.hits[unit]!, regenerated, this.stands[unit] === 0);
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
    let supports0 = 0;
    let supports1 = 0;
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
        supports0 += supports;
        if (stands[unit]! > 0) standing0++;
      } else {
        engaged1++;
        result0 += taken;
        supports1 += supports;
        if (stands[unit]! > 0) standing1++;
      }
    }
    result0 += supports0;
    result1 += supports1;
    this.result[0] = result0;
    this.result[1] = result1;
    this.losingUnits[0] = engaged0;
    this.losingUnits[1] = engaged1;
    let outcome: number;
    if ((standing0 > 0) !== (standing1 > 0)) outcome = standing0 > 0 ? 0 : 1;
    else if (standing0 === 0) outcome = WINNER_DRAW;
    else outcome = result0 === result1 ? WINNER_DRAW : result0 > result1 ? 0 : 1;
    this.tracer?.result(round, result0, result1, supports0, supports1, outcome === WINNER_DRAW ? 'a draw' : `won by ${scenario.sideNames[outcome] ?? outcome}`);
    return outcome;
  }

  /**
   * One unit's attacks (rulings §12–13): per contact group, each stand's Attacks plus modifiers
   * (never below 0), the bonuses of one stand, then the group's hits and the target's saves.
   * What never changes in a trial is precomputed (compile.ts); the rest is read here.
   */
  private attack(dice: Dice, unit: number, firstRound: boolean): void {
    const scenario = this.scenario;
    const side = scenario.side[unit]!;
    const flags = scenario.flags[unit]!;
    const attacks = scenario.attacks[unit]!;
    const to = this.groupTo[unit]!;
    const fightingNow = this.fightingNow;
    const position = this.position;
    const pairs = unit * this.unitCount;
    const charging = firstRound && this.charging[unit] === 1;
    const pursuing = this.pursuer[unit] === 1;
    let characterBonus = scenario.characterBonus[unit]!;
    let oneStandBonus = (flags & F_ONE_STAND_BONUS) !== 0 ? 1 : 0;
    let chargeD6 = (flags & F_CHARGE_D6) !== 0;
    let rolled = false;
    let lastDitchTarget = -1;
    let lastDitchGroup = -1;
    for (let group = this.groupFrom[unit]!; group < to; group++) {
      const stands = fightingNow[group]!;
      if (stands === 0) continue;
      const target = this.resolveTarget(group, side);
      if (target < 0) continue;
      if (lastDitchTarget < 0) {
        lastDitchTarget = target;
        lastDitchGroup = group;
      }
      let modifier = scenario.groupModifier[group]! + scenario.pairModifier[pairs + target]!;
      if (firstRound) modifier += scenario.groupFirstRoundBonus[group]!;
      const braced = charging && scenario.bracedAgainst[pairs + target] === 1;
      let charged = false;
      if (charging && position[target] === OPEN && !braced) {
        const bonus = scenario.chargeBonus[unit]!;
        modifier += bonus;
        charged = bonus > 0;
      }
      if (pursuing) {
        const retreated = this.retreated[target]!;
        if (retreated >= 0) modifier += 1 + Math.floor(retreated / 3);
      }
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
        this.tracer?.chargeDice(unit);
      }
      if (count === 0) continue;
      rolled = true;
      const hitOn = this.hitOn(unit, target, braced);
      const taken = this.strike(dice, count, hitOn, target, (flags & F_ARMOUR_PIERCING) !== 0);
      this.roundHits[target] = this.roundHits[target]! + taken;
      this.tracer?.attack(unit, target, group, stands, perStand, count, false, hitOn, (flags & F_ARMOUR_PIERCING) !== 0, this.lastHits, taken);
    }
    // The last-ditch die: a unit whose fighting stands are all at 0 still rolls one (rulings §12).
    if (!rolled && lastDitchTarget >= 0) {
      const braced = charging && scenario.bracedAgainst[pairs + lastDitchTarget] === 1;
      const hitOn = this.hitOn(unit, lastDitchTarget, braced);
      const taken = this.strike(dice, 1, hitOn, lastDitchTarget, (flags & F_ARMOUR_PIERCING) !== 0);
      this.roundHits[lastDitchTarget] = this.roundHits[lastDitchTarget]! + taken;
      this.tracer?.attack(unit, lastDitchTarget, lastDitchGroup, fightingNow[lastDitchGroup]!, 0, 1, true, hitOn, (flags & F_ARMOUR_PIERCING) !== 0, this.lastHits, taken);
    }
  }

  /** The D6 score to hit (rulings §13): 6 against fortified, 5 against defended (or braced), else 4. */
  private hitOn(unit: number, target: number, braced: boolean): number {
    if ((this.scenario.flags[unit]! & F_ALWAYS_HITS_ON_4) !== 0) return 4;
    const position = this.position[target];
    return position === FORTIFIED ? 6 : position === DEFENDED || braced ? 5 : 4;
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
      let fate: 'artillery' | 'blocked' | null = null;
      if (scenario.type[unit] === ARTILLERY) {
        this.stands[unit] = 0; // retreating artillery is destroyed
        fate = 'artillery';
      } else if (dice.chance(scenario.blockChance[unit] ?? 0)) {
        this.stands[unit] = Math.max(0, stands - (scenario.blockStands[unit] ?? stands)); // outstanding hits stay
        fate = 'blocked';
      }
      this.destroy(unit, this.roundNumber, stands - (this.stands[unit] ?? 0));
      this.tracer?.retreat(unit, distance, fate, stands - this.stands[unit]!);
    }
    return retreated;
  }

  /** Pursuit restrictions by troop type (rulings §17), precomputed per pair in compile.ts. */
  private canPursue(pursuer: number, target: number, firstRound: boolean): boolean {
    const pair = pursuer * this.unitCount + target;
    return (firstRound && this.charging[pursuer] === 1 ? this.scenario.pursuableAfterCharge[pair] : this.scenario.pursuable[pair]) === 1;
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
        if (this.pursuesNext[unit] === 1) {
          this.position[unit] = OPEN;
          if (this.tracer !== null) this.tracePursuit(unit);
        }
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
    if (!dice.chance(scenario.reserveChance[reserve] ?? 0)) return false;
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
    if (this.tracer !== null) {
      const advancing: number[] = [];
      for (let unit = 0; unit < units; unit++) if (this.pursuesNext[unit] === 1) advancing.push(unit);
      this.tracer.advance(advancing, reserve);
    }
    this.lostInEngagement[0] = 0;
    this.lostInEngagement[1] = 0;
    this.shootAtChargers(dice, true);
    return true;
  }

  private tracePursuit(unit: number): void {
    const targets: number[] = [];
    for (let group = this.groupFrom[unit]!; group < this.groupTo[unit]!; group++) {
      const target = this.targetNow[group]!;
      if (target >= 0 && !targets.includes(target)) targets.push(target);
    }
    this.tracer?.pursue(unit, targets);
  }

  /** Switch a unit to its `newContact` groups, attacking `enemy`. */
  private useNewContact(unit: number, enemy: number): void {
    this.groupFrom[unit] = this.scenario.newGroupStart[unit] ?? 0;
    this.groupTo[unit] = this.scenario.newGroupEnd[unit] ?? 0;
    for (let group = this.groupFrom[unit] ?? 0; group < (this.groupTo[unit] ?? 0); group++) this.targetNow[group] = enemy;
  }
}
