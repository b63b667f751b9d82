import type { Model, PointsExpression, PointsTerm, Rule, RuleRef, Stats, Unit, Weapon } from './units.js';

/**
 * The Battle Forge app's points formula, ported from its source: wargame-engine/battle-forge,
 * src/utils/data.js (`getModelPoints`, `getWeaponPoints`, `getWeaponCostForModel`,
 * `getRuleCostForModel`, `resolvePoints`, `getModelTotalPoints`, `getUnitPoints`), read at commits
 * 6178429f51cf9ee344aec3ecce338e9160261111 and fe0b4540ccaad0c2ec9df659a832db0f98a23773 (identical
 * in everything used here; the later one also hands points expressions the model's rules by id),
 * and `round5` from src/utils/math.js (commit bfd19d212ffdbf25fdc4a75a26900a1096d7b6b5). Pure: no
 * I/O. The quirks of the original are kept on purpose (see each function).
 *
 * What is missing: rules' costs are points expressions stored with the rules. Those of the rules in
 * the index and faction files are known; those of the Battle Forge core rules (wounds, lethal,
 * reach, blast… — wargame-engine/root, not in this data) are not. They are never guessed: the rule
 * ids are returned in `unpricedRules`, and a total with any is incomplete (a lower bound only if
 * every core rule costs ≥ 0).
 */

/** The app's CONSTANTS (only baseStats.baseCost and apCost are used by the live formula). */
export const CONSTANTS = {
  baseStats: { movement: 6, shoot: 5, fight: 5, courage: 5, reflexes: 5, wounds: 1, defense: 5, baseCost: 5 },
  woundsCost: 5,
  courageCost: 2,
  defenseCost: 2,
  apCost: 1,
  damageCost: 5,
  movementCost: 1,
} as const;

export interface PointsContext {
  /** The faction's weapons: the index's with the faction's added or replacing (units.ts weaponTable). */
  readonly weapons: ReadonlyMap<string, Weapon>;
  /** The faction's rules likewise (units.ts ruleTable); core rules are absent. */
  readonly rules: ReadonlyMap<string, Rule>;
}

export interface ModelPoints {
  /** getModelPoints: base 5 + 2·(Save−5) + 2·(Courage−5) + (Initiative−5) + (Movement−6), with the "-" cases. */
  readonly stats: number;
  /** Σ getWeaponCostForModel over the model's weapons (not truncated). */
  readonly weapons: number;
  /** Σ rule costs of the model's and unit's rules that the data prices (not truncated). */
  readonly rules: number;
  /** trunc(stats + weapons + rules): getModelTotalPoints. */
  readonly total: number;
  /** Rule ids (model, unit and weapon rules) whose cost is in the core data, not here: `total` leaves them out. */
  readonly unpricedRules: readonly string[];
  /** Weapon ids with no definition: the app prices them 0, as here. */
  readonly unresolvedWeapons: readonly string[];
}

export interface UnitPoints {
  /** round5(Σ trunc(model total × model min)): getUnitPoints for a "battle" game. */
  readonly total: number;
  readonly models: readonly ModelPoints[];
  /** No unpriced rules: the total is the app's, given the same data. */
  readonly complete: boolean;
  readonly unpricedRules: readonly string[];
}

/** round5 of src/utils/math.js: to the nearest 5, halves up (toward zero below, as parseInt truncates). */
export function round5(x: number): number {
  return x % 5 >= 2.5 ? Math.trunc(x / 5) * 5 + 5 : Math.trunc(x / 5) * 5;
}

/** The points of the stat line (getModelPoints). `null` is the source's "-". */
export function statPoints(stats: Stats): number {
  const { movement, accuracy: shoot, strength: fight, save: defense, initiative: reflexes, courage } = stats;
  // A model with no Accuracy, Strength or Courage pays only for its Save (a wagon, a war machine's body).
  if (shoot === null && fight === null && courage === null) return defense === null ? 0 : ((defense || 5) - 5) * 2;
  if (defense === null && courage === null && reflexes === null) return 0;
  // `x || base` as in the app: a 0 counts as the base value.
  const defenseCost = defense === null ? 0 : ((defense || 5) - 5) * 2;
  const courageCost = courage === null ? 0 : ((courage || 5) - 5) * 2;
  const movementCost = (movement ?? CONSTANTS.baseStats.movement) - 6;
  const reflexCost = reflexes === null ? 0 : (reflexes || 5) - 5;
  return defenseCost + courageCost + reflexCost + movementCost + CONSTANTS.baseStats.baseCost;
}

/** Variables a points expression may name: `rule.x`, `weapon.attacks`, `model.defense`, `constants.apCost`… */
type Variables = Readonly<Record<string, unknown>>;

function lookup(path: string, variables: Variables): unknown {
  let current: unknown = { ...variables, constants: CONSTANTS };
  for (const key of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** resolveVariable: a number as is, a path looked up; anything that is not a number counts 0. */
function resolveOperand(operand: number | string, variables: Variables): number {
  const value = typeof operand === 'string' ? lookup(operand, variables) : operand;
  return typeof value === 'number' ? value : 0;
}

/** resolvePoints: terms applied in order to a total starting at 0. */
export function resolvePoints(expression: PointsExpression, variables: Variables): number {
  const terms: readonly PointsTerm[] = Array.isArray(expression) ? expression : [expression];
  let total = 0;
  for (const term of terms) {
    if (typeof term !== 'object') total += resolveOperand(term, variables);
    else if ('add' in term) total += resolveOperand(term.add, variables);
    else if ('subtract' in term) total -= resolveOperand(term.subtract, variables);
    else if ('multiply' in term) total *= resolveOperand(term.multiply, variables);
    else if ('divide' in term) total /= resolveOperand(term.divide, variables);
    else if ('max' in term) total = Math.max(total, resolveOperand(term.max, variables));
    else total = Math.min(total, resolveOperand(term.min, variables));
  }
  return total;
}

/** The model as points expressions see it: the source's stat names, and its rules by id (formatRuleVariables). */
function modelVariable(stats: Stats, rules: readonly RuleRef[]): Record<string, unknown> {
  const byId = Object.fromEntries(rules.map((rule) => [rule.id, rule.x === undefined ? 1 : rule]));
  return {
    movement: stats.movement,
    shoot: stats.accuracy,
    fight: stats.strength,
    defense: stats.save,
    reflexes: stats.initiative,
    courage: stats.courage,
    rules: byId,
  };
}

/** Collects the ids of rules whose cost is not in the data. */
export interface PointsTally {
  readonly unpriced: Set<string>;
}

function ruleCost(rule: RuleRef, variables: Variables, context: PointsContext, tally: PointsTally): number {
  const data = context.rules.get(rule.id);
  if (data === undefined) {
    tally.unpriced.add(rule.id);
    return 0;
  }
  return data.points === undefined ? 0 : resolvePoints(data.points, { ...variables, rule });
}

/** Stats as numbers the way JavaScript reads "-": not a number, so a profile using it drops out. */
const numberOrNaN = (value: number | null): number => value ?? Number.NaN;

/**
 * getWeaponPoints for one copy: each profile costs ((Strength−5 for melee, Accuracy−5 otherwise) +
 * range + AP) × attacks + its rules' costs, where range is Movement/6 for melee, short/6 with a long
 * band and short/12 without; a `grenade` profile costs 0. A profile that is not a number (a "-"
 * stat it uses) is dropped; the dearest counts in full and every other at half. A weapon with
 * profiles prices only its profiles (the weapon's own line has no range: not a number either).
 */
export function weaponPoints(
  weapon: Weapon | undefined,
  stats: Stats,
  modelRules: readonly RuleRef[],
  context: PointsContext,
  tally: PointsTally = { unpriced: new Set() },
): number {
  if (weapon === undefined) return 0;
  const profiles = 'profiles' in weapon ? weapon.profiles : [weapon];
  const model = modelVariable(stats, modelRules);
  const costs: number[] = [];
  for (const profile of profiles) {
    const melee = profile.short === 'melee';
    const skill = melee ? numberOrNaN(stats.strength) - CONSTANTS.baseStats.fight : numberOrNaN(stats.accuracy) - CONSTANTS.baseStats.shoot;
    const rangeCost = profile.short === 'melee' ? (stats.movement || 6) / 6 : profile.short / 6;
    let points = (skill + (profile.long !== null || melee ? rangeCost : rangeCost / 2) + profile.ap * CONSTANTS.apCost) * profile.attacks;
    let grenade = false;
    for (const rule of profile.rules) {
      const weaponVariable = { ...profile, range: melee ? 'Melee' : profile.short, rangeCost, points, damage: 1 };
      points += ruleCost(rule, { weapon: weaponVariable, model }, context, tally);
      if (rule.id === 'grenade') grenade = true;
    }
    costs.push(grenade ? points * 0 : points);
  }
  const finite = costs.filter((cost) => Number.isFinite(cost)).sort((a, b) => b - a);
  const [dearest = 0, ...others] = finite;
  return dearest + others.reduce((sum, cost) => sum + cost * 0.5, 0);
}

/** getModelTotalPoints; `unitRules` are the unit's rules, which the app appends to the model's. */
export function modelPoints(
  model: Pick<Model, 'stats' | 'weapons' | 'rules'>,
  unitRules: readonly RuleRef[],
  context: PointsContext,
): ModelPoints {
  const rules = [...model.rules, ...unitRules];
  const tally: PointsTally = { unpriced: new Set() };
  const unresolved: string[] = [];
  let weapons = 0;
  for (const ref of model.weapons) {
    const weapon = context.weapons.get(ref.id);
    if (weapon === undefined) unresolved.push(ref.id);
    weapons += weaponPoints(weapon, model.stats, rules, context, tally) * ref.count;
  }
  const variables = { model: modelVariable(model.stats, rules) };
  const rulePoints = rules.reduce((sum, rule) => sum + ruleCost(rule, variables, context, tally), 0);
  const stats = statPoints(model.stats);
  return {
    stats,
    weapons,
    rules: rulePoints,
    total: Math.trunc(stats + weapons + rulePoints),
    unpricedRules: [...tally.unpriced].sort(),
    unresolvedWeapons: unresolved,
  };
}

/** getUnitPoints: each kind of model at its minimum number, truncated, summed and rounded to 5. */
export function unitPoints(unit: Pick<Unit, 'models' | 'rules'>, context: PointsContext): UnitPoints {
  const models = unit.models.map((model) => modelPoints(model, unit.rules, context));
  const sum = models.reduce((total, points, index) => total + Math.trunc(points.total * (unit.models[index]?.min ?? 1)), 0);
  const unpriced = [...new Set(models.flatMap((points) => points.unpricedRules))].sort();
  return { total: round5(sum), models, complete: unpriced.length === 0, unpricedRules: unpriced };
}
