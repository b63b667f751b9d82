import type { Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import { DEFENDED, FORTIFIED, FRONT, OPEN } from './codes.js';
import { type CompiledScenario, F_ALWAYS_HITS_ON_4, F_CONFUSED, NO_SAVE } from './compile.js';
import { WINNER_DRAW } from './metrics.js';
import { EngagementState } from './state.js';
import { StrikeTables } from './strike-tables.js';

/**
 * A combat round (README step order 1–6): shooting at chargers before round 1, the stands that
 * fight, their attacks and hits (rulings §12–13), the result (§15) and casualties (§14, §18).
 */
export class Round extends EngagementState {
  /** Method tables: strikes drawn whole from their exact distribution (strike-tables.ts). */
  private readonly tables: StrikeTables | null;
  /** Hits scored (before saves) by the last `strike`, for the trace. */
  protected lastHits = 0;
  /** Per side: the last round's combat result, and its engaged units (the retreat's divisor, rulings §16). */
  protected readonly result = new Int32Array(2);
  protected readonly losingUnits = new Int32Array(2);
  // The rule text's constants a round reads (rules:), kept as fields for the hot path.
  private readonly hitOnOpen: number;
  private readonly hitOnDefended: number;
  private readonly hitOnFortified: number;
  private readonly pursuitBonus: number;
  private readonly pursuitStepCm: number;
  private readonly pursuitStepBonus: number;
  private readonly lastDitchDice: number;
  private readonly supportBonus: number;

  /** `method`: strikes rolled die by die, or their hits after saves drawn whole. */
  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario);
    this.tables = method === 'tables' ? new StrikeTables() : null;
    const rules = scenario.rules;
    this.hitOnOpen = rules.hitOnOpen;
    this.hitOnDefended = rules.hitOnDefended;
    this.hitOnFortified = rules.hitOnFortified;
    this.pursuitBonus = rules.pursuitBonus;
    this.pursuitStepCm = rules.pursuitStepCm;
    this.pursuitStepBonus = rules.pursuitStepBonus;
    this.lastDitchDice = rules.lastDitchDice;
    this.supportBonus = rules.supportBonus;
  }

  /** Shooting at chargers (or at advancers, when `advancing`) before round 1 (rulings §15). */
  protected shootAtChargers(dice: Dice, advancing: boolean): void {
    const scenario = this.scenario;
    for (let shooter = 0; shooter < this.unitCount; shooter++) {
      if (scenario.shoots[shooter] !== 1 || this.engaged[shooter] !== 1 || (this.stands[shooter] ?? 0) === 0) continue;
      const side = scenario.side[shooter] ?? 0;
      let target = scenario.shotTarget[shooter] ?? -1;
      const valid =
        target >= 0 && this.engaged[target] === 1 && (advancing || this.charging[target] === 1) && scenario.side[target] !== side;
      if (!valid) target = this.firstEnemy(side, !advancing);
      if (target < 0) continue;
      const shots = scenario.shotDice[shooter] ?? 0;
      const hitOn = scenario.shotHitOn[shooter] ?? this.hitOnOpen;
      const worse = scenario.shotArmourWorse[shooter] ?? 0;
      const taken = Math.min(
        this.strike(dice, shots, hitOn, target, worse),
        (this.stands[target] ?? 0) * (scenario.hitsPerStand[target] ?? 1) - (this.hits[target] ?? 0),
      );
      this.tracer?.shooting(shooter, target, shots, hitOn, worse, this.lastHits, taken);
      this.shotTaken[target] = (this.shotTaken[target] ?? 0) + taken;
      this.hits[target] = (this.hits[target] ?? 0) + taken;
      if (scenario.shootingCasualtiesFirst) this.removeCasualties(target, this.roundNumber + 1, false);
    }
  }

  /** One round: attacks, result, casualties (README step order 1–6). Returns the winning side or WINNER_DRAW. */
  protected fightRound(dice: Dice, round: number, firstRound: boolean): number {
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
      if (
        supportsNow[unit]! > 0 &&
        supported >= 0 &&
        engaged[supported] === 1 &&
        this.frontNow[supported]! > 0 &&
        (scenario.flags[unit]! & F_CONFUSED) === 0
      ) {
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
    result0 += supports0 * this.supportBonus;
    result1 += supports1 * this.supportBonus;
    this.result[0] = result0;
    this.result[1] = result1;
    this.losingUnits[0] = engaged0;
    this.losingUnits[1] = engaged1;
    let outcome: number;
    if (standing0 > 0 !== standing1 > 0) outcome = standing0 > 0 ? 0 : 1;
    else if (standing0 === 0) outcome = WINNER_DRAW;
    else outcome = result0 === result1 ? WINNER_DRAW : result0 > result1 ? 0 : 1;
    this.tracer?.result(
      round,
      result0,
      result1,
      supports0,
      supports1,
      outcome === WINNER_DRAW ? 'a draw' : `won by ${scenario.sideNames[outcome] ?? outcome}`,
    );
    return outcome;
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
    if (scenario.keepSupports && places > 0 && stands > 0) {
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

  /**
   * One unit's attacks (rulings §12–13): per contact group, each stand's Attacks plus modifiers
   * (never below 0), the bonuses of one stand, then the group's hits and the target's saves.
   * What never changes in a trial is precomputed (compile.ts); the rest is read here.
   */
  private attack(dice: Dice, unit: number, firstRound: boolean): void {
    const scenario = this.scenario;
    const side = scenario.side[unit]!;
    const attacks = scenario.attacks[unit]!;
    const armourWorse = scenario.armourWorse[unit]!;
    const to = this.groupTo[unit]!;
    const fightingNow = this.fightingNow;
    const position = this.position;
    const pairs = unit * this.unitCount;
    const charging = firstRound && this.charging[unit] === 1;
    const pursuing = this.pursuer[unit] === 1;
    let characterBonus = scenario.characterBonus[unit]!;
    let oneStandBonus = scenario.oneStandBonus[unit]!;
    let chargeDice = scenario.chargeDice[unit]!;
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
      const chargedInOpen = charging && position[target] === OPEN && !braced;
      if (chargedInOpen) modifier += scenario.chargeBonus[unit]!;
      if (pursuing) {
        const retreated = this.retreated[target]!;
        if (retreated >= 0) modifier += this.pursuitBonus + this.pursuitStepBonus * Math.floor(retreated / this.pursuitStepCm);
      }
      const perStand = Math.max(0, attacks + modifier);
      let count = stands * perStand;
      if (characterBonus > 0) {
        count += Math.max(0, attacks + modifier + characterBonus) - perStand;
        characterBonus = 0;
      }
      if (oneStandBonus > 0) {
        count += Math.max(0, attacks + modifier + oneStandBonus) - perStand;
        oneStandBonus = 0;
      }
      if (chargedInOpen && chargeDice > 0) {
        for (let die = 0; die < chargeDice; die++) count += dice.d6();
        this.tracer?.chargeDice(unit, chargeDice);
        chargeDice = 0;
      }
      if (count === 0) continue;
      rolled = true;
      const hitOn = this.hitOn(unit, target, braced);
      const taken = this.strike(dice, count, hitOn, target, armourWorse);
      this.roundHits[target] = this.roundHits[target]! + taken;
      this.tracer?.attack(unit, target, group, stands, perStand, count, false, hitOn, armourWorse, this.lastHits, taken);
    }
    // The last-ditch dice: a unit whose fighting stands are all at 0 still rolls (rulings §12).
    if (!rolled && lastDitchTarget >= 0 && this.lastDitchDice > 0) {
      const braced = charging && scenario.bracedAgainst[pairs + lastDitchTarget] === 1;
      const hitOn = this.hitOn(unit, lastDitchTarget, braced);
      const taken = this.strike(dice, this.lastDitchDice, hitOn, lastDitchTarget, armourWorse);
      this.roundHits[lastDitchTarget] = this.roundHits[lastDitchTarget]! + taken;
      this.tracer?.attack(
        unit,
        lastDitchTarget,
        lastDitchGroup,
        fightingNow[lastDitchGroup]!,
        0,
        this.lastDitchDice,
        true,
        hitOn,
        armourWorse,
        this.lastHits,
        taken,
      );
    }
  }

  /** The D6 score to hit (rulings §13): fortified, else defended (or braced), else in the open. */
  private hitOn(unit: number, target: number, braced: boolean): number {
    if ((this.scenario.flags[unit]! & F_ALWAYS_HITS_ON_4) !== 0) return this.hitOnOpen;
    const position = this.position[target];
    return position === FORTIFIED ? this.hitOnFortified : position === DEFENDED || braced ? this.hitOnDefended : this.hitOnOpen;
  }

  /** Hits scored and not saved by `count` dice at `target`, its Armour `armourWorse` faces worse (rulings §13). */
  private strike(dice: Dice, count: number, hitOn: number, target: number, armourWorse: number): number {
    const save = (this.scenario.armour[target] ?? NO_SAVE) + armourWorse;
    if (this.tables !== null) {
      const taken = this.tables.sample(dice, count, hitOn, save);
      this.lastHits = taken; // the hits before saves are not drawn: the trace shows what was taken
      return taken;
    }
    const scorers = this.scenario.atLeastScorers;
    const hits = (scorers[hitOn] ?? scorers[6])!.roll(dice, count);
    this.lastHits = hits;
    return hits > 0 && save < NO_SAVE ? hits - (scorers[save] ?? scorers[6])!.roll(dice, hits) : hits;
  }
}
