/**
 * The homebrew rules' one attack, worked out from the rule text (examples/homebrew/README.md, "The
 * rules") and not from the plugin's code: each die's chances by listing its faces (and its
 * reroll's), then P(k unsaved wounds) as a sum over how many dice hit and how many are critical
 * (multinomial), how many of those wound (binomial) and how many saves fail (binomial). The plugin
 * instead convolves one die's distribution n times (odds.ts), so the two agree only if both are right.
 */

export interface OracleProfile {
  readonly attacks: number;
  readonly hit: number;
  readonly wound: number;
  readonly ap: number;
  readonly damage: number;
  readonly rerollHits: 'none' | 'ones' | 'failed';
  readonly rerollWounds: 'none' | 'ones' | 'failed';
}

export interface OracleRules {
  readonly criticalFace: number;
  readonly criticalEffect: 'auto-wound' | 'extra-hits';
  readonly extraHits: number;
  readonly damageSpills: boolean;
}

export interface OracleAttack {
  readonly attacker: OracleProfile;
  readonly models: number;
  readonly defender: { readonly save: number; readonly wounds: number; readonly models: number };
  readonly rules: OracleRules;
}

type Kind = 'miss' | 'hit' | 'critical';

/** One hit die, face by face; a rerolled face is replaced by each of six equally likely faces. */
function hitDie(attack: OracleAttack): Record<Kind, number> {
  const { hit, rerollHits } = attack.attacker;
  const kind = (face: number): Kind => (face >= attack.rules.criticalFace ? 'critical' : face >= hit ? 'hit' : 'miss');
  const chances: Record<Kind, number> = { miss: 0, hit: 0, critical: 0 };
  for (let face = 1; face <= 6; face++) {
    const rerolled = (rerollHits === 'ones' && face === 1) || (rerollHits === 'failed' && kind(face) === 'miss');
    if (!rerolled) chances[kind(face)] += 1 / 6;
    else for (let again = 1; again <= 6; again++) chances[kind(again)] += 1 / 36;
  }
  return chances;
}

/** One wound die, face by face, rerolled per the profile. */
function woundChance(attack: OracleAttack): number {
  const { wound, rerollWounds } = attack.attacker;
  let p = 0;
  for (let face = 1; face <= 6; face++) {
    const rerolled = face < wound && (rerollWounds === 'failed' || (rerollWounds === 'ones' && face === 1));
    if (!rerolled) p += face >= wound ? 1 / 6 : 0;
    else for (let again = 1; again <= 6; again++) p += again >= wound ? 1 / 36 : 0;
  }
  return p;
}

/** P(a save die fails): faces below save + AP; a needed 7 or more cannot be rolled. */
function saveFails(attack: OracleAttack): number {
  const needed = attack.defender.save + attack.attacker.ap;
  let fails = 0;
  for (let face = 1; face <= 6; face++) if (needed >= 7 || face < needed) fails++;
  return fails / 6;
}

function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

const binomialPmf = (n: number, k: number, p: number): number => (k < 0 || k > n ? 0 : choose(n, k) * p ** k * (1 - p) ** (n - k));

/** P(unsaved wounds = k), k = 0.., for every die of the attacking models. */
export function unsavedWounds(attack: OracleAttack): number[] {
  const n = attack.models * attack.attacker.attacks;
  const die = hitDie(attack);
  const pWound = woundChance(attack);
  const pFail = saveFails(attack);
  const extra = attack.rules.criticalEffect === 'extra-hits' && attack.rules.criticalFace <= 6;
  const most = n * (extra ? 1 + attack.rules.extraHits : 1);
  const result = new Array<number>(most + 1).fill(0);
  for (let criticals = 0; criticals <= n; criticals++) {
    for (let hits = 0; hits + criticals <= n; hits++) {
      const misses = n - hits - criticals;
      const pDice = choose(n, criticals) * choose(n - criticals, hits) * die.critical ** criticals * die.hit ** hits * die.miss ** misses;
      if (pDice === 0) continue;
      // Auto-wound: criticals skip the wound roll; extra hits: each critical is 1 + extraHits hits to wound.
      const rolled = hits + (extra ? criticals * (1 + attack.rules.extraHits) : 0);
      const automatic = extra ? 0 : criticals;
      for (let wounds = 0; wounds <= rolled; wounds++) {
        const pWounds = binomialPmf(rolled, wounds, pWound);
        const total = wounds + automatic;
        for (let k = 0; k <= total; k++) result[k] = (result[k] as number) + pDice * pWounds * binomialPmf(total, k, pFail);
      }
    }
  }
  return result;
}

/**
 * What k unsaved wounds do to a unit at full strength: without spilling, a model takes
 * ⌈wounds / damage⌉ of them and the rest of each is lost; with it, damage simply adds up.
 */
export function damageOf(attack: OracleAttack, k: number): { dealt: number; destroyed: number } {
  const { wounds, models } = attack.defender;
  const damage = attack.attacker.damage;
  if (attack.rules.damageSpills) {
    const dealt = Math.min(k * damage, wounds * models);
    return { dealt, destroyed: Math.floor(dealt / wounds) };
  }
  const perModel = Math.ceil(wounds / damage);
  const destroyed = Math.min(models, Math.floor(k / perModel));
  return { dealt: destroyed * wounds + (destroyed < models ? (k - destroyed * perModel) * damage : 0), destroyed };
}

/** The distribution of a function of the unsaved wounds. */
export function mapped(unsaved: readonly number[], value: (k: number) => number): number[] {
  const result: number[] = [];
  unsaved.forEach((p, k) => {
    const v = value(k);
    while (result.length <= v) result.push(0);
    result[v] = (result[v] as number) + p;
  });
  return result;
}
