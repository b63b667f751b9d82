import type { Contact, Scenario, ScenarioUnit } from '../../engine/warmaster/schema.js';
import type { CombatFlags, Troop, WarmasterUnit } from '../../engine/warmaster/units.js';
import { binomial, convolve, type Distribution, mixture, pointMass } from '../helpers/distribution.js';

/**
 * Exact distribution of a Warmaster engagement's FIRST round — the test oracle for engine/warmaster.
 *
 * Written from Warmaster Revolution's Combat chapter, rulings §12–18 (docs/rulings.md) and the step order of
 * engine/warmaster/README.md only, never from the engine's compile/kernel code, so agreement is
 * evidence and not an echo. Every die is independent: a die of a contact group takes a hit off its
 * target with q = P(hit) · P(no save), so a group's hits are Binomial(dice, q) (a mixture over the
 * D6 for chargeBonusD6); per target unit the groups are convolved, then capped (§15). Shooting at
 * chargers is enumerated outcome by outcome. All float64 sums of products: every probability is
 * within ~1e-13 of the exact rational (see helpers/distribution.ts).
 *
 * Readings this oracle takes where the text leaves a choice (the README's, stated for the report):
 * - Stands fill contact places front, corner, flank, rear (contact order within a kind), then
 *   supporting places (option keep-fighting). The character bonus and bonusAttackOnOneStand go on
 *   the first stand filled, added before the floor at 0; chargeBonusD6 adds one D6 of dice to the
 *   first group that gets the charge bonus; the last-ditch die goes to the first fighting group.
 * - Shooting at chargers (§15): its hits, capped at what the target could take, count toward the
 *   shooter's side's round-1 result. before-combat: the whole stands they destroy are removed
 *   before round 1 (the charger fills fewer places), the rest stays as outstanding hits, so the
 *   round-1 cap is what is left — shooting + combat hits on a unit together never exceed what it
 *   could take at the start. after-round-1: no stand is removed first, and the combat cap is the
 *   start capacity minus the shooting hits (the same combined cap).
 * - Outcome (README step 6): a side whose engaged units are all destroyed loses whatever its result
 *   (both sides: a draw); else the higher result wins. A unit is destroyed when its outstanding
 *   plus taken hits reach stands × Hits.
 * - Retreat (step 7): ⌈difference ÷ engaged units of the losing side⌉, at least 1; 0 for a draw
 *   or when every losing unit is destroyed (the engine's `retreat` metric).
 */

/**
 * The numbers of the text this oracle reads, named as the scenario's `rules:` knobs so a test can set
 * one; the values are the text's own (combat.adoc), typed here, not read from the engine.
 */
export interface OracleRules {
  readonly hitOnOpen: number;
  readonly hitOnDefended: number;
  readonly hitOnFortified: number;
  readonly chargeBonus: number;
  readonly monsterChariotChargeBonus: number;
  readonly terrorPenalty: number;
  readonly flankRearPenalty: number;
  readonly confusedPenalty: number;
  readonly lastDitchDice: number;
  readonly armourOneWorseFaces: number;
  readonly supportBonus: number;
  readonly retreatCmPerHit: number;
  readonly minimumRetreat: number;
  readonly oneStandBonusAttacks: number;
  readonly firstRoundFrontBonusAttacks: number;
  readonly vsMonstersBonusAttacks: number;
  readonly chargeBonusD6Dice: number;
}

/** 4+ / 5+ / 6 to hit, +1 charging (+2 monsters and chariots), −1 terror, flank or rear, confused, one last-ditch die, Armour one worse, +1 per support, 1 cm per hit and at least 1 cm, the army lists' +1s and +D6. */
export const TEXT_RULES: OracleRules = {
  hitOnOpen: 4,
  hitOnDefended: 5,
  hitOnFortified: 6,
  chargeBonus: 1,
  monsterChariotChargeBonus: 1,
  terrorPenalty: 1,
  flankRearPenalty: 1,
  confusedPenalty: 1,
  lastDitchDice: 1,
  armourOneWorseFaces: 1,
  supportBonus: 1,
  retreatCmPerHit: 1,
  minimumRetreat: 1,
  oneStandBonusAttacks: 1,
  firstRoundFrontBonusAttacks: 1,
  vsMonstersBonusAttacks: 1,
  chargeBonusD6Dice: 1,
};

export interface Round1Exact {
  readonly aWins: number;
  readonly bWins: number;
  readonly draw: number;
  /** P(retreat = v cm) for the round-1 loser (0: draw or loser destroyed). */
  readonly retreat: Distribution;
}

type Kind = 'front' | 'corner' | 'flank' | 'rear';
const KINDS: readonly Kind[] = ['front', 'corner', 'flank', 'rear'];

interface UnitInfo {
  readonly index: number;
  readonly side: number;
  readonly spec: ScenarioUnit;
  readonly troop: Troop;
  readonly flags: CombatFlags;
  readonly terrifying: boolean;
  readonly open: boolean;
  readonly hitOn: number;
  readonly startStands: number;
  readonly hitsPerStand: number;
  readonly contacts: readonly (Contact & { readonly targetIndex: number })[];
  /** Highest character bonus plus bonusAttackOnOneStand: added to one stand. */
  readonly oneStandBonus: number;
}

/** Per unit after shooting: stands left and hits outstanding. */
interface State {
  readonly stands: number[];
  readonly outstanding: number[];
  /** Hits that cap this round's combat hits (after-round-1: shooting hits not yet applied). */
  readonly pending: number[];
  readonly shootingScore: number[];
}

function troopOf(units: ReadonlyMap<string, WarmasterUnit>, reference: string): Troop {
  const unit = units.get(reference);
  if (unit?.kind !== 'troop') throw new Error(`${reference}: not a troop in the army lists`);
  return unit;
}

function describeUnits(scenario: Scenario, units: ReadonlyMap<string, WarmasterUnit>, rules: OracleRules): UnitInfo[] {
  const specs = scenario.sides.flatMap((side, s) => side.units.filter((u) => u.reserve === undefined).map((spec) => ({ spec, side: s })));
  const firstEnemy = (side: number): number => specs.findIndex((u) => u.side !== side);
  return specs.map(({ spec, side }, index) => {
    const troop = troopOf(units, spec.unit);
    const flags: CombatFlags = { ...troop.flags, ...spec.flags };
    if (flags.defendedVsMountedChargeFront === true) throw new Error('oracle: defendedVsMountedChargeFront not covered');
    const characters = spec.characters.map((c) => units.get(c));
    const terrifying = flags.terror === true || characters.some((c) => c?.flags?.terror === true);
    const characterBonus = Math.max(0, ...characters.map((c) => (c?.kind === 'character' ? (c.attackBonus ?? 0) : 0)));
    const position = spec.position ?? (flags.alwaysDefended === true ? 'defended' : 'open');
    const contactList = spec.contact === undefined ? [] : Array.isArray(spec.contact) ? spec.contact : [spec.contact];
    const contacts = contactList.map((c) => {
      const targetIndex = c.target === undefined ? firstEnemy(side) : specs.findIndex((u) => u.spec.id === c.target);
      if (targetIndex < 0) throw new Error(`${spec.id}: no target ${c.target ?? '(default)'}`);
      return { ...c, targetIndex };
    });
    if (troop.attacks === null || troop.hits === null) throw new Error(`${spec.unit}: no numeric Attacks or Hits`);
    return {
      index,
      side,
      spec,
      troop,
      flags,
      terrifying,
      open: position === 'open',
      hitOn: position === 'fortified' ? rules.hitOnFortified : position === 'defended' ? rules.hitOnDefended : rules.hitOnOpen,
      startStands: spec.stands ?? troop.unitSize,
      hitsPerStand: troop.hits,
      contacts,
      oneStandBonus: characterBonus + (flags.bonusAttackOnOneStand === true ? rules.oneStandBonusAttacks : 0),
    };
  });
}

/** P(a hit is taken) per die: hit on `hitOn`+, then not saved on `armour`+ (`faces` worse if `worse`). */
export function takenPerDie(hitOn: number, armour: number | null, worse: boolean, faces = 1): number {
  const save = armour === null ? 7 : armour + (worse ? faces : 0);
  return ((7 - hitOn) / 6) * (1 - Math.max(0, 7 - save) / 6);
}

interface Group {
  readonly target: number;
  readonly dice: number;
  /** D6 rolled and added to `dice` (chargeBonusD6). */
  readonly d6: number;
  readonly q: number;
}

interface Filled {
  readonly groups: Group[];
  readonly frontStands: number;
  readonly supportStands: number;
}

/** README steps 1–3 for one unit with `stands` left: its contact groups' dice, and its supports. */
function fill(u: UnitInfo, all: readonly UnitInfo[], stands: number, rules: OracleRules): Filled {
  let left = stands;
  let bonusLeft = true;
  let d6Left = u.flags.chargeBonusD6 === true;
  const dice = u.contacts.map((): number => 0);
  const d6 = u.contacts.map((): number => 0);
  let fighting = 0;
  let frontStands = 0;
  let firstGroup = -1;
  for (const kind of KINDS) {
    u.contacts.forEach((c, g) => {
      const target = all[c.targetIndex] as UnitInfo;
      const places = Math.min(c[kind], left);
      if (places === 0) return;
      left -= places;
      fighting += places;
      if (kind === 'front') frontStands += places;
      if (firstGroup < 0) firstGroup = g;
      // §12 modifiers, round 1 (no pursuit), per stand.
      const charge = u.spec.charging && u.flags.noChargeBonus !== true && target.open;
      const bigCharger = u.troop.type === 'monster' || u.troop.type === 'chariot' || u.flags.monsterChargeBonus === true;
      let attack = u.troop.attacks ?? 0;
      if (charge) attack += rules.chargeBonus + (bigCharger ? rules.monsterChariotChargeBonus : 0);
      if (target.terrifying && !u.terrifying && u.flags.immuneToTerror !== true) attack -= rules.terrorPenalty;
      if (kind === 'flank' || kind === 'rear') attack -= rules.flankRearPenalty;
      if (u.spec.confused) attack -= rules.confusedPenalty;
      if (kind === 'front' && u.flags.firstRoundFrontBonus === true) attack += rules.firstRoundFrontBonusAttacks;
      if (u.flags.bonusAttackVsMonsters === true && target.troop.type === 'monster') attack += rules.vsMonstersBonusAttacks;
      let total = Math.max(0, attack) * places;
      if (bonusLeft) {
        total += Math.max(0, attack + u.oneStandBonus) - Math.max(0, attack);
        bonusLeft = false;
      }
      dice[g] = (dice[g] as number) + total;
      if (charge && d6Left) {
        d6[g] = rules.chargeBonusD6Dice;
        d6Left = false;
      }
    });
  }
  const anyD6 = d6.some((x) => x > 0);
  if (fighting > 0 && !anyD6 && !dice.some((d) => d > 0)) dice[firstGroup] = rules.lastDitchDice; // the last-ditch die
  const supportStands = Math.min(u.spec.supports, left);
  const groups = u.contacts.map((c, g) => {
    const target = all[c.targetIndex] as UnitInfo;
    const hitOn = u.flags.alwaysHitsOn4 === true ? rules.hitOnOpen : target.hitOn;
    return {
      target: c.targetIndex,
      dice: dice[g] as number,
      d6: d6[g] as number,
      q: takenPerDie(hitOn, target.troop.armour, u.spec.armourPiercing, rules.armourOneWorseFaces),
    };
  });
  return { groups, frontStands, supportStands };
}

function groupHits(group: Group): Distribution {
  if (group.d6 === 0) return binomial(group.dice, group.q);
  // The D6s' total, then a mixture of binomials over it.
  let total: Distribution = pointMass(0);
  for (let die = 0; die < group.d6; die++)
    total = convolve(
      total,
      Float64Array.from([0, 1, 1, 1, 1, 1, 1], (x) => x / 6),
    );
  let d: Distribution = new Float64Array(1);
  let seen = 0;
  total.forEach((p, k) => {
    if (p === 0) return;
    seen += p;
    d = mixture(p / seen, binomial(group.dice + k, group.q), d);
  });
  return d;
}

/** Joint law of (result, every enemy unit destroyed) as p[2·score + flag]. */
type Joint = Map<number, number>;
const key = (score: number, destroyed: boolean): number => 2 * score + (destroyed ? 1 : 0);

function addUnit(joint: Joint, capped: Distribution, cap: number): Joint {
  const out: Joint = new Map();
  for (const [k, p] of joint) {
    const score = k >> 1;
    const destroyed = (k & 1) === 1;
    capped.forEach((pc, c) => {
      if (pc === 0) return;
      const nk = key(score + c, destroyed && c >= cap);
      out.set(nk, (out.get(nk) ?? 0) + p * pc);
    });
  }
  return out;
}

function cappedAt(d: Distribution, cap: number): Distribution {
  const out = new Float64Array(cap + 1);
  d.forEach((p, v) => {
    out[Math.min(v, cap)] = (out[Math.min(v, cap)] as number) + p;
  });
  return out;
}

/** Round 1 given the state after shooting: adds p·(outcome) into `acc`. */
function combat(
  all: readonly UnitInfo[],
  state: State,
  weight: number,
  acc: { a: number; b: number; draw: number; retreat: number[] },
  rules: OracleRules,
): void {
  const filled = all.map((u) => fill(u, all, state.stands[u.index] as number, rules));
  // Retarget groups whose target has no stands left (README step 1) to the first enemy with stands.
  const hitsOn = all.map(() => pointMass(0));
  filled.forEach((f, i) =>
    f.groups.forEach((g) => {
      const u = all[i] as UnitInfo;
      let target = g.target;
      if ((state.stands[target] as number) === 0) {
        target = all.findIndex((t) => t.side !== u.side && (state.stands[t.index] as number) > 0);
        if (target < 0) return;
        if (all[target]?.hitOn !== all[g.target]?.hitOn || all[target]?.troop.armour !== all[g.target]?.troop.armour)
          throw new Error('oracle: retarget changes dice');
      }
      hitsOn[target] = convolve(hitsOn[target] as Distribution, groupHits(g));
    }),
  );
  // Supports (§15): infantry, not confused, behind/beside an engaged infantry unit fighting to its front.
  const supports = [0, 0];
  filled.forEach((f, i) => {
    const u = all[i] as UnitInfo;
    if (f.supportStands === 0 || u.spec.confused || u.troop.type !== 'infantry') return;
    const supportedId = u.spec.supporting ?? (f.frontStands > 0 ? u.spec.id : undefined);
    const supported =
      supportedId === undefined
        ? all.findIndex((v) => v.side === u.side && v.troop.type === 'infantry' && (filled[v.index]?.frontStands ?? 0) > 0)
        : all.findIndex((v) => v.spec.id === supportedId);
    const v = all[supported];
    if (v === undefined || v.troop.type !== 'infantry' || (filled[v.index]?.frontStands ?? 0) === 0) return;
    supports[u.side] = (supports[u.side] as number) + f.supportStands * rules.supportBonus;
  });
  // Per side: the law of (result, all enemy units destroyed).
  const joints = [0, 1].map((side) => {
    const shooting = all.filter((u) => u.side === side).reduce((sum, u) => sum + (state.shootingScore[u.index] as number), 0);
    let joint: Joint = new Map([[key(shooting + (supports[side] as number), true), 1]]);
    for (const t of all.filter((u) => u.side !== side)) {
      const cap =
        (state.stands[t.index] as number) * t.hitsPerStand - (state.outstanding[t.index] as number) - (state.pending[t.index] as number);
      joint = addUnit(joint, cappedAt(hitsOn[t.index] as Distribution, Math.max(0, cap)), Math.max(0, cap));
    }
    return joint;
  });
  const losingUnits = [0, 1].map((side) => all.filter((u) => u.side === side).length);
  for (const [ka, pa] of joints[0] as Joint) {
    for (const [kb, pb] of joints[1] as Joint) {
      const p = weight * pa * pb;
      const [ra, allBDead, rb, allADead] = [ka >> 1, (ka & 1) === 1, kb >> 1, (kb & 1) === 1];
      let retreat = 0;
      if (allADead && allBDead) acc.draw += p;
      else if (allBDead) acc.a += p;
      else if (allADead) acc.b += p;
      else if (ra === rb) acc.draw += p;
      else {
        if (ra > rb) acc.a += p;
        else acc.b += p;
        retreat = Math.max(
          rules.minimumRetreat,
          Math.ceil((Math.abs(ra - rb) * rules.retreatCmPerHit) / (losingUnits[ra > rb ? 1 : 0] as number)),
        );
      }
      acc.retreat[retreat] = (acc.retreat[retreat] ?? 0) + p;
    }
  }
}

interface Shot {
  readonly shooter: number;
  readonly target: number;
  readonly hits: Distribution;
}

function shots(all: readonly UnitInfo[], rules: OracleRules): Shot[] {
  return all.flatMap((u) => {
    const spec = u.spec.shootsAtChargers;
    if (spec === undefined) return [];
    const options = spec === true ? {} : spec;
    const targetIndex =
      options.target !== undefined
        ? all.findIndex((t) => t.spec.id === options.target)
        : (u.contacts.map((c) => c.targetIndex).find((t) => all[t]?.spec.charging === true) ?? -1);
    const target = all[targetIndex];
    if (target === undefined) throw new Error(`${u.spec.id}: no charger to shoot at`);
    const dice = options.attacks ?? (u.troop.shootingAttacks ?? 0) * u.startStands;
    const worse = options.armourOneWorse ?? u.flags.shotsMakeArmourOneWorse === true;
    // A charger is in the open: hit as the open unless the scenario says otherwise.
    return [
      {
        shooter: u.index,
        target: targetIndex,
        hits: binomial(dice, takenPerDie(options.hitOn ?? rules.hitOnOpen, target.troop.armour, worse, rules.armourOneWorseFaces)),
      },
    ];
  });
}

/** The exact distribution of round 1 of `scenario`'s engagement, with the text's numbers or `rules`. */
export function exactRound1(scenario: Scenario, units: ReadonlyMap<string, WarmasterUnit>, rules: OracleRules = TEXT_RULES): Round1Exact {
  const all = describeUnits(scenario, units, rules);
  const acc = { a: 0, b: 0, draw: 0, retreat: [] as number[] };
  const beforeCombat = scenario.options.shootingCasualties === 'before-combat';
  const start: State = {
    stands: all.map((u) => u.startStands),
    outstanding: all.map((u) => u.spec.hits),
    pending: all.map(() => 0),
    shootingScore: all.map(() => 0),
  };
  const pending = shots(all, rules);
  const step = (i: number, state: State, weight: number): void => {
    const shot = pending[i];
    if (shot === undefined) {
      combat(all, state, weight, acc, rules);
      return;
    }
    const t = all[shot.target] as UnitInfo;
    const hitsPerStand = t.hitsPerStand;
    shot.hits.forEach((p, rolled) => {
      if (p === 0) return;
      const stands = [...state.stands];
      const outstanding = [...state.outstanding];
      const pendingHits = [...state.pending];
      const score = [...state.shootingScore];
      const room =
        (stands[shot.target] as number) * hitsPerStand - (outstanding[shot.target] as number) - (pendingHits[shot.target] as number);
      const taken = Math.min(rolled, room);
      score[shot.shooter] = (score[shot.shooter] as number) + taken;
      if (beforeCombat) {
        const total = (outstanding[shot.target] as number) + taken;
        stands[shot.target] = (stands[shot.target] as number) - Math.floor(total / hitsPerStand);
        outstanding[shot.target] = total % hitsPerStand;
      } else {
        pendingHits[shot.target] = (pendingHits[shot.target] as number) + taken;
      }
      step(i + 1, { stands, outstanding, pending: pendingHits, shootingScore: score }, weight * p);
    });
  };
  step(0, start, 1);
  const retreat = Float64Array.from({ length: acc.retreat.length }, (_, v) => acc.retreat[v] ?? 0);
  return { aWins: acc.a, bWins: acc.b, draw: acc.draw, retreat };
}
