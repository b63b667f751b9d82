import { type Dice, type OutcomeTable, sumOfDiceTable } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import { FORTIFIED, OPEN } from './codes.js';
import { ARTILLERY, type CompiledScenario, F_MUST_PURSUE } from './compile.js';
import { Round } from './round.js';

/**
 * What follows a round that has a winner (README step order 7–8, rulings §16–17): the loser's
 * retreat, the winner's choice — pursue, or advance when every enemy is destroyed — and falling
 * back (a draw's, or a winner's). Each sets who fights the next round, if any.
 */
export class Aftermath extends Round {
  /** Method tables: a fall back's dice total as one pick. */
  private readonly fallBackTable: OutcomeTable | null;
  private readonly fallBackDice: number;
  private readonly retreatCmPerHit: number;
  private readonly minimumRetreat: number;
  private readonly advancesPerPhase: number;

  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario, method);
    const rules = scenario.rules;
    this.fallBackDice = rules.fallBackDice;
    this.fallBackTable = method === 'tables' ? sumOfDiceTable([1, 2, 3, 4, 5, 6], rules.fallBackDice) : null;
    this.retreatCmPerHit = rules.retreatCmPerHit;
    this.minimumRetreat = rules.minimumRetreat;
    this.advancesPerPhase = rules.advancesPerPhase;
  }

  /** The cm a side may fall back (Fall backs: 3D6, rules.fallBackDice). */
  protected fallBack(dice: Dice, side: number): number {
    let cm = 0;
    if (this.fallBackTable !== null) cm = dice.pick(this.fallBackTable);
    else for (let die = 0; die < this.fallBackDice; die++) cm += dice.d6();
    this.tracer?.fallBack(side, cm);
    return cm;
  }

  /**
   * How far the loser retreats (rulings §16): the difference of the results, in cm per hit, divided
   * among the losing units, rounded up, and at least the minimum.
   */
  private retreatDistance(winner: number, loser: number): number {
    const difference = (this.result[winner] ?? 0) - (this.result[loser] ?? 0);
    return Math.max(this.minimumRetreat, Math.ceil((difference * this.retreatCmPerHit) / (this.losingUnits[loser] ?? 1)));
  }

  /** The loser's units retreat (rulings §16). Returns the distance in cm (0 if none was left to retreat). */
  protected retreat(dice: Dice, winner: number, loser: number): number {
    const scenario = this.scenario;
    const distance = this.retreatDistance(winner, loser);
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
  protected pursue(winner: number, loser: number, wantsToPress: boolean, firstRound: boolean): boolean {
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
        if (
          this.engaged[enemy] === 1 &&
          scenario.side[enemy] === loser &&
          (this.stands[enemy] ?? 0) > 0 &&
          this.canPursue(unit, enemy, firstRound)
        )
          fallback = enemy;
      }
      if (fallback < 0) continue;
      for (let group = from; group < to; group++) {
        const target = this.targetNow[group] ?? -1;
        const keep =
          target >= 0 &&
          this.engaged[target] === 1 &&
          (this.stands[target] ?? 0) > 0 &&
          scenario.side[target] === loser &&
          this.canPursue(unit, target, firstRound);
        this.targetNow[group] = keep ? target : fallback;
      }
      this.pursuesNext[unit] = 1;
      anyPursuer = true;
    }
    if (!anyPursuer) return false;
    // Supporting pursuits: a winning supporter follows the unit it supports.
    for (let unit = 0; unit < units; unit++) {
      const supported = scenario.supporting[unit] ?? -1;
      if (
        this.engaged[unit] === 1 &&
        scenario.side[unit] === winner &&
        supported >= 0 &&
        supported !== unit &&
        this.pursuesNext[supported] === 1
      )
        this.pursuesNext[unit] = 1;
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
      if (scenario.side[unit] === loser && (this.retreated[unit] ?? -1) >= 0 && supported >= 0 && this.engaged[supported] === 1)
        this.engaged[unit] = 1;
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
  protected advance(dice: Dice, winner: number, loser: number, wantsToPress: boolean, firstRound: boolean): boolean {
    const scenario = this.scenario;
    const units = this.unitCount;
    let advancers = 0;
    for (let unit = 0; unit < units; unit++) {
      this.pursuesNext[unit] = 0;
      if (this.engaged[unit] !== 1 || scenario.side[unit] !== winner || (this.stands[unit] ?? 0) === 0) continue;
      if (!wantsToPress && ((scenario.flags[unit] ?? 0) & F_MUST_PURSUE) === 0) continue;
      if (scenario.type[unit] === ARTILLERY || this.position[unit] === FORTIFIED || (this.advanced[unit] ?? 0) >= this.advancesPerPhase)
        continue;
      this.pursuesNext[unit] = 1;
      advancers++;
    }
    const reserves = scenario.reserves[loser] ?? [];
    const cursor = this.reserveCursor[loser] ?? 0;
    const reserve = reserves[cursor];
    if (advancers === 0 || reserve === undefined) return false;
    this.reserveCursor[loser] = cursor + 1;
    if (!dice.chance(scenario.reserveChance[reserve] ?? 0)) return false;
    // No charge bonus on an advance, unless the text's optional rule (rulings §17).
    const keepsChargeBonus = scenario.options.advanceChargeBonus && firstRound ? 1 : 0;
    for (let unit = 0; unit < units; unit++) {
      this.engaged[unit] = 0;
      this.retreated[unit] = -1;
      this.pursuer[unit] = 0;
      if (this.pursuesNext[unit] !== 1) continue;
      this.engaged[unit] = 1;
      this.advanced[unit] = (this.advanced[unit] ?? 0) + 1;
      this.charging[unit] = keepsChargeBonus;
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
}
