import type { Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import type { CompiledScenario } from './compile.js';
import { BattleState } from './state.js';
import { FOCUS_ACCURACY, FOCUS_STRENGTH } from './terms.js';

/**
 * Attacks (rulings §20): an attack's hit dice weapon by weapon, then each hit given to a model and
 * saved or not, Wounds and models removed. What an attack leaves behind (Shock, break tests) is in
 * morale.ts.
 */
export class Attacks extends BattleState {
  /** Scratch: hits per weapon of two simultaneous attacks (rulings §23). */
  protected readonly hitsA: Int32Array;
  protected readonly hitsB: Int32Array;
  private readonly accuracyPerShock: number;
  private readonly strengthPerShock: number;
  private readonly focusBonus: number;
  private readonly evadePenalty: number;
  private readonly terrainPenalty: number;
  private readonly longRangePenalty: number;
  protected readonly pointBlankRange: number;
  private readonly woundsPerHit: number;

  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario, method);
    this.hitsA = new Int32Array(scenario.weaponType.length);
    this.hitsB = new Int32Array(scenario.weaponType.length);
    const rules = scenario.rules;
    this.accuracyPerShock = rules.accuracyPerShock;
    this.strengthPerShock = rules.strengthPerShock;
    this.focusBonus = rules.focusBonus;
    this.evadePenalty = rules.evadePenalty;
    this.terrainPenalty = rules.terrainPenalty;
    this.longRangePenalty = rules.longRangePenalty;
    this.pointBlankRange = rules.pointBlankRange;
    this.woundsPerHit = rules.woundsPerHit;
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
    // Effects of Shock; Focus and Evade (rulings §24); Intervening Terrain.
    let modifier = -this.shock[attacker]! * (melee ? this.strengthPerShock : this.accuracyPerShock);
    if ((this.focus[attacker]! & stat) !== 0) {
      modifier += this.focusBonus;
      this.focus[attacker] = 0;
    }
    if (this.evade[target] === 1) {
      modifier -= this.evadePenalty;
      this.evade[target] = 0;
    }
    if (melee && this.scenario.terrain[target] === 1) modifier -= this.terrainPenalty;
    let total = 0;
    for (let type = scenario.typeStart[attacker]!; type < scenario.typeEnd[attacker]!; type++) {
      const models = this.typeAlive[type]!;
      const base = (melee ? scenario.strength[type]! : scenario.accuracy[type]!) + modifier;
      for (let weapon = scenario.weaponStart[type]!; weapon < scenario.weaponEnd[type]!; weapon++) {
        hits[weapon] = 0;
        if (models === 0 || (scenario.weaponMelee[weapon] === 1) !== melee) continue;
        if (!melee && scenario.weaponLong[weapon]! < distance) continue;
        const hitOn = !melee && distance > scenario.weaponShort[weapon]! ? base - this.longRangePenalty : base; // Long Range
        const count = models * scenario.weaponDice[weapon]!;
        const scored = this.roll(dice, count, hitOn);
        this.tracer?.hits(attacker, weapon, count, this.passOn(hitOn), scored);
        hits[weapon] = scored;
        total += scored;
      }
    }
    return total;
  }

  /**
   * Give each hit to a model and roll its save (rulings §20): the damaged model first, else the
   * first model type with models left in allocation order; D10 ≤ Save − AP + cover (none against
   * fighting or at point blank range). Returns the Wounds lost.
   */
  protected applyHits(dice: Dice, attacker: number, target: number, melee: boolean, distance: number, hits: Int32Array): number {
    const scenario = this.scenario;
    const cover = melee || distance <= this.pointBlankRange ? 0 : scenario.cover[target]!;
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
    const modelsBefore = this.alive[target]!;
    const single = this.singleType(target);
    let lost = 0;
    let saved = 0;
    let rolled = count;
    if (single >= 0 && count * this.woundsPerHit < this.woundsLeft[target]!) {
      // One model type left and the hits cannot finish the unit: every save is rolled, on one Save.
      const saveOn = (melee ? scenario.meleeSave[single]! : scenario.save[single]!) - ap + cover;
      saved = this.roll(dice, count, saveOn);
      this.tracer?.saveOn(this.passOn(saveOn));
      if (scenario.wounds[single] === 1) lost = this.removeModels(target, single, count - saved);
      else for (let wound = saved; wound < count; wound++) lost += this.wound(target, single);
    } else {
      rolled = 0;
      for (let hit = 0; hit < count && this.alive[target]! > 0; hit++) {
        rolled++;
        const victim = this.victimType(target);
        // One save as a pool of one: a D10 rolled (the same draw as d10()), or pass/fail drawn whole.
        const saveOn = (melee ? scenario.meleeSave[victim]! : scenario.save[victim]!) - ap + cover;
        this.tracer?.saveOn(this.passOn(saveOn));
        if (this.roll(dice, 1, saveOn) === 1) {
          saved++;
          continue;
        }
        lost += this.wound(target, victim);
      }
    }
    this.tracer?.saves(target, count, rolled, ap, saved, lost, modelsBefore - this.alive[target]!);
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

  /**
   * One unsaved hit on a model of `victim`: the damaged one, else a fresh one (rulings §20). It takes
   * `woundsPerHit` Wounds, no more than the model has. Returns the Wounds taken.
   */
  private wound(target: number, victim: number): number {
    const scenario = this.scenario;
    const before = this.typeDamaged[victim] === 0 ? scenario.wounds[victim]! : this.typeDamaged[victim]!;
    const taken = Math.min(before, this.woundsPerHit);
    this.woundsLeft[target] = this.woundsLeft[target]! - taken;
    const left = before - taken;
    if (left > 0) {
      this.typeDamaged[victim] = left;
    } else {
      this.typeDamaged[victim] = 0;
      this.typeAlive[victim] = this.typeAlive[victim]! - 1;
      this.alive[target] = this.alive[target]! - 1;
    }
    return taken;
  }

  /**
   * `hits` unsaved hits on models of one Wound (never damaged: a hit takes the model), all at once:
   * what `hits` calls of `wound` do. Returns the Wounds taken.
   */
  private removeModels(target: number, victim: number, hits: number): number {
    this.woundsLeft[target] = this.woundsLeft[target]! - hits;
    this.typeAlive[victim] = this.typeAlive[victim]! - hits;
    this.alive[target] = this.alive[target]! - hits;
    return hits;
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
}
