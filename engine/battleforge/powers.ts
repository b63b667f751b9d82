import type { Dice } from '../dice/index.js';
import type { DrawMethod } from '../kernel.js';
import { Actions } from './actions.js';
import type { CompiledScenario } from './compile.js';

/**
 * Powers (Using Powers, Stopping Powers): a Power action casts each power the unit knows, up to its
 * power rule's x, at the nearest enemy in range; enemy casters nearby may stop it.
 */
export class Powers extends Actions {
  private readonly autoPassFace: number;
  private readonly autoFailFace: number;
  private readonly miscastShock: number;
  private readonly stopPowerRange: number;

  constructor(scenario: CompiledScenario, method: DrawMethod) {
    super(scenario, method);
    const rules = scenario.rules;
    this.autoPassFace = rules.autoPassFace;
    this.autoFailFace = rules.autoFailFace;
    this.miscastShock = rules.miscastShock;
    this.stopPowerRange = rules.stopPowerRange;
  }

  /**
   * The target of a power: the nearest enemy within its range; a caster in melee may only target the
   * units it fights, and no one targets enemies in melee with friends (Using Powers). −1 if none.
   */
  protected powerTarget(unit: number, power: number): number {
    const scenario = this.scenario;
    if (power >= scenario.powerEnd[unit]!) return -1;
    const range = scenario.powerRange[power]!;
    const inMelee = this.inMelee(unit);
    let best = -1;
    for (let enemy = 0; enemy < this.unitCount; enemy++) {
      if (scenario.side[enemy] === scenario.side[unit] || !this.active(enemy) || this.distance(unit, enemy) > range) continue;
      if (inMelee ? this.engaged[unit * this.unitCount + enemy] !== 1 : this.inMelee(enemy)) continue;
      if (best < 0 || this.distance(unit, enemy) < this.distance(unit, best)) best = enemy;
    }
    return best;
  }

  /**
   * A Power action (Powers): each known power, up to the power rule's x, with a target: D10 + Shock
   * at or under its cast value succeeds (an automatic pass passes; an automatic failure fails and
   * miscasts: `miscastShock` Shock); an enemy caster within `stopPowerRange` with stop attempts left
   * stops it on a D10 at or under the cast roll; then its hits or Shock.
   */
  protected castPowers(dice: Dice, unit: number): void {
    const scenario = this.scenario;
    this.tracer?.action(unit, 'power', -1);
    const last = Math.min(scenario.powerEnd[unit]!, scenario.powerStart[unit]! + scenario.powerSlots[unit]!);
    for (let power = scenario.powerStart[unit]!; power < last && this.active(unit); power++) {
      const target = this.powerTarget(unit, power);
      if (target < 0) continue;
      const face = dice.d10();
      const rolled = face + this.shock[unit]!;
      if (face >= this.autoFailFace) {
        this.tracer?.power(unit, power, target, rolled, 'miscast');
        this.gainShocks(dice, unit, this.miscastShock, 'miscast');
        continue;
      }
      if (face > this.autoPassFace && rolled > scenario.powerCast[power]!) {
        this.tracer?.power(unit, power, target, rolled, 'failed');
        continue;
      }
      this.tracer?.power(unit, power, target, rolled, 'cast');
      if (this.stopped(dice, unit, power, rolled)) continue;
      if (scenario.powerShock[power]! > 0) {
        this.gainShocks(dice, target, scenario.powerShock[power]!, 'power');
        continue;
      }
      const distance = this.distance(unit, target);
      const models = this.alive[target]!;
      const wounds = this.woundsLeft[target]!;
      this.tracer?.attack(unit, target, 'power', distance);
      // Saved as shooting: AP, and cover beyond point blank range.
      this.saveHits(
        dice,
        target,
        scenario.powerHits[power]!,
        scenario.powerAp[power]!,
        distance <= this.pointBlankRange ? 0 : scenario.cover[target]!,
        false,
      );
      this.aftermath(dice, target, true, models, wounds);
    }
  }

  /** Stopping Powers: each enemy caster in range with attempts left tries until one stops it. */
  private stopped(dice: Dice, caster: number, power: number, rolled: number): boolean {
    for (let enemy = 0; enemy < this.unitCount; enemy++) {
      if (this.scenario.side[enemy] === this.scenario.side[caster] || !this.active(enemy) || this.stopsLeft[enemy] === 0) continue;
      if (this.distance(caster, enemy) > this.stopPowerRange) continue;
      this.stopsLeft[enemy] = this.stopsLeft[enemy]! - 1;
      const stopped = dice.d10() <= rolled;
      this.tracer?.stop(enemy, power, rolled, stopped);
      if (stopped) return true;
    }
    return false;
  }
}
