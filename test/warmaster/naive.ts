import type { Contact, Scenario, ScenarioUnit, WinnerPolicy } from '../../engine/warmaster/schema.js';
import type { CombatFlags, Troop, TroopType, WarmasterUnit } from '../../engine/warmaster/units.js';
import { mulberry32 } from '../helpers/mulberry32.js';

/**
 * A Warmaster engagement written the way a hobbyist would: an object per stand and per unit, an
 * array per roll, `.filter`/`.map`/`.reduce`, die by die, and a seeded `Math.random`-style
 * generator. It is the yardstick bench/run.ts measures the engine against and a second, independent
 * reading of the rules (Warmaster Revolution's Combat chapter, rulings §12–18,
 * engine/warmaster/README.md) for test/warmaster/naive-agrees.test.ts. Deliberately NOT optimised.
 *
 * Scope: one unit per side, both in contact (with optional supporting stands of their own), no
 * reserves, no shooting at chargers. Anything else throws.
 */

/** What a naive run returns: how many trials gave each value of each metric (engine names). */
export interface NaiveSummary {
  trials: number;
  histograms: Record<string, Record<number, number>>;
}

/** Codes of the category metrics, in the README's label order. */
export const WINNER = { A: 0, B: 1, draw: 2, unresolved: 3 } as const;
export const ROUND = { notFought: 0, A: 1, B: 2, draw: 3 } as const;

type SideName = 'A' | 'B';
type Place = 'front' | 'corner' | 'flank' | 'rear' | 'support' | 'idle';
type Position = 'open' | 'defended' | 'fortified';

interface Stand {
  place: Place;
  alive: boolean;
}

/** Everything about one side's unit that never changes during a trial. */
interface UnitSpec {
  side: SideName;
  id: string;
  troop: Troop;
  flags: CombatFlags;
  policy: WinnerPolicy;
  stands: number;
  startHits: number;
  charging: boolean;
  irregular: boolean;
  confused: boolean;
  position: Position;
  terrifying: boolean;
  characterBonus: number;
  armourPiercing: boolean;
  contact: { front: number; corner: number; flank: number; rear: number };
  supports: number;
  blockedChance: number;
  blockedStands: number | undefined;
  retreatTerrain: TroopType[];
}

/** A unit during a trial. */
interface Unit {
  spec: UnitSpec;
  stands: Stand[];
  hits: number;
  position: Position;
}

const rollDice = (count: number, random: () => number): number[] => Array.from({ length: count }, () => Math.floor(random() * 6) + 1);
const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
const living = (unit: Unit): Stand[] => unit.stands.filter((stand) => stand.alive);
const standsLost = (unit: Unit): number => unit.spec.stands - living(unit).length;

const UNSUPPORTED_FLAGS: (keyof CombatFlags)[] = ['chargeBonusD6', 'defendedVsMountedChargeFront', 'alwaysDefended'];

function unitSpec(
  side: SideName,
  policy: WinnerPolicy,
  input: ScenarioUnit,
  enemyId: string,
  units: ReadonlyMap<string, WarmasterUnit>,
): UnitSpec {
  const troop = units.get(input.unit);
  if (troop === undefined || troop.kind !== 'troop') throw new Error(`naive: ${input.unit} is not a troop of the army lists`);
  if (troop.attacks === null || troop.hits === null) throw new Error(`naive: ${input.unit} has no plain Attacks/Hits`);
  if (input.reserve !== undefined || input.shootsAtChargers !== undefined) throw new Error('naive: no reserves, no shooting at chargers');
  if (input.contact === undefined) throw new Error('naive: every unit must be in contact');
  const contacts: Contact[] = Array.isArray(input.contact) ? input.contact : [input.contact];
  const contact = contacts[0];
  if (contacts.length !== 1 || contact === undefined) throw new Error('naive: one contact per unit');
  if (contact.target !== undefined && contact.target !== enemyId) throw new Error('naive: unknown contact target');
  if (input.supporting !== undefined && input.supporting !== input.id) throw new Error('naive: supports only within the unit');
  if (input.supports > 0 && troop.type !== 'infantry') throw new Error('naive: only infantry supports');
  const flags: CombatFlags = { ...troop.flags, ...input.flags };
  for (const flag of UNSUPPORTED_FLAGS) if (flags[flag]) throw new Error(`naive: flag ${flag} is out of scope`);
  const characters = input.characters.map((reference) => {
    const character = units.get(reference);
    if (character === undefined || character.kind !== 'character') throw new Error(`naive: ${reference} is not a character`);
    return character;
  });
  const blocked = input.retreatBlocked;
  return {
    side,
    id: input.id,
    troop,
    flags,
    policy,
    stands: input.stands ?? troop.unitSize,
    startHits: input.hits,
    charging: input.charging,
    irregular: input.irregular,
    confused: input.confused,
    position: input.position ?? 'open',
    // A terrifying character or mount makes its unit terrifying (README, Attacks).
    terrifying: flags.terror === true || characters.some((character) => character.flags?.terror === true),
    // Only the highest character bonus counts (rulings §12).
    characterBonus: characters.length === 0 ? 0 : Math.max(...characters.map((character) => character.attackBonus ?? 0)),
    armourPiercing: input.armourPiercing,
    contact: { front: contact.front, corner: contact.corner, flank: contact.flank, rear: contact.rear },
    supports: input.supports,
    blockedChance: blocked === true ? 1 : blocked === false ? 0 : typeof blocked === 'number' ? blocked : blocked.chance,
    blockedStands: typeof blocked === 'object' ? blocked.stands : undefined,
    retreatTerrain: input.retreatTerrain,
  };
}

function freshUnit(spec: UnitSpec): Unit {
  return {
    spec,
    stands: Array.from({ length: spec.stands }, (): Stand => ({ place: 'idle', alive: true })),
    hits: spec.startHits,
    position: spec.position,
  };
}

/** Step 1: the stands left fill the stated places: front, corner, flank, rear, then supports (rulings §14). */
function placeStands(unit: Unit, keepSupports: boolean): void {
  const { front, corner, flank, rear } = unit.spec.contact;
  const fighting: Place[] = [
    ...Array<Place>(front).fill('front'),
    ...Array<Place>(corner).fill('corner'),
    ...Array<Place>(flank).fill('flank'),
    ...Array<Place>(rear).fill('rear'),
  ];
  const supporting = Array<Place>(unit.spec.supports).fill('support');
  // keep-supports: a support needs a stand fighting to its front (Support), so one fighting stand
  // first, then the supports, then the other fighting places.
  const [first, ...others] = fighting;
  const places = keepSupports && first !== undefined ? [first, ...supporting, ...others] : [...fighting, ...supporting];
  living(unit).forEach((stand, i) => {
    stand.place = places[i] ?? 'idle';
  });
}

const isFighting = (stand: Stand): boolean => stand.alive && stand.place !== 'idle' && stand.place !== 'support';

interface RoundState {
  firstRound: boolean;
  /** The unit that pursued the enemy last round and its bonus: +1, +1 per full 3 cm (§12). */
  pursuer: SideName | null;
  pursuitBonus: number;
}

/** Step 2 (rulings §12): dice rolled by `unit` against `enemy`. */
function attackDice(unit: Unit, enemy: Unit, state: RoundState): number {
  const spec = unit.spec;
  const fighters = unit.stands.filter(isFighting);
  if (fighters.length === 0) return 0;
  const perStand = fighters.map((stand, i) => {
    let attacks = spec.troop.attacks ?? 0;
    const chargeInOpen = state.firstRound && spec.charging && enemy.position === 'open' && !spec.flags.noChargeBonus;
    if (chargeInOpen) attacks += 1;
    if (chargeInOpen && (spec.troop.type === 'monster' || spec.troop.type === 'chariot' || spec.flags.monsterChargeBonus)) attacks += 1;
    if (state.pursuer === spec.side) attacks += state.pursuitBonus;
    if (enemy.spec.terrifying && !spec.terrifying && !spec.flags.immuneToTerror) attacks -= 1;
    if (stand.place === 'flank' || stand.place === 'rear') attacks -= 1;
    if (spec.confused) attacks -= 1;
    if (spec.flags.firstRoundFrontBonus && state.firstRound && stand.place === 'front') attacks += 1;
    if (spec.flags.bonusAttackVsMonsters && enemy.spec.troop.type === 'monster') attacks += 1;
    // Our choice: the character's bonus and the one-stand bonus go on the first fighting stand.
    if (i === 0) attacks += spec.characterBonus + (spec.flags.bonusAttackOnOneStand ? 1 : 0);
    return Math.max(0, attacks);
  });
  const total = sum(perStand);
  // The last-ditch die, per unit.
  return total === 0 ? 1 : total;
}

/** Step 3 (rulings §13): hits that get through the enemy's Armour. */
function rollHits(unit: Unit, enemy: Unit, dice: number, random: () => number): number {
  let toHit = enemy.position === 'fortified' ? 6 : enemy.position === 'defended' ? 5 : 4;
  if (unit.spec.flags.alwaysHitsOn4) toHit = 4;
  const hits = rollDice(dice, random).filter((face) => face >= toHit).length;
  const armour = enemy.spec.troop.armour;
  if (armour === null) return hits;
  const save = unit.spec.armourPiercing ? armour + 1 : armour;
  if (save > 6) return hits;
  const saved = rollDice(hits, random).filter((face) => face >= save).length;
  return hits - saved;
}

/** Step 4 (rulings §15): +1 per supporting infantry stand of a unit with a front stand fighting. */
function supportCount(unit: Unit): number {
  if (unit.spec.troop.type !== 'infantry' || unit.spec.confused) return 0;
  if (!unit.stands.some((stand) => stand.alive && stand.place === 'front')) return 0;
  return unit.stands.filter((stand) => stand.alive && stand.place === 'support').length;
}

/** Step 5 (rulings §14, 18): whole stands removed per full Hits value, then regeneration. */
function takeCasualties(unit: Unit, hits: number): void {
  const hitsPerStand = unit.spec.troop.hits ?? 1;
  unit.hits += hits;
  while (unit.hits >= hitsPerStand && living(unit).length > 0) {
    const last = living(unit).pop();
    if (last) last.alive = false;
    unit.hits -= hitsPerStand;
  }
  if (living(unit).length === 0) unit.hits = 0;
  if (unit.spec.flags.regenerates && living(unit).length > 0 && unit.hits > 0) unit.hits -= 1;
}

/** Winner's choice (rulings §17): may `winner` pursue `loser` at all? */
function mayPursue(winner: Unit, loser: Unit, state: RoundState): boolean {
  const w = winner.spec;
  const l = loser.spec;
  if (w.troop.type === 'artillery' || winner.position === 'fortified') return false;
  if (l.retreatTerrain.includes(w.troop.type)) return false;
  // The exception: it charged the unit this round in flank or rear, or the unit is irregular.
  const flankOrRear = loser.stands.some((stand) => stand.alive && (stand.place === 'flank' || stand.place === 'rear'));
  const charged = state.firstRound && w.charging && (flankOrRear || l.irregular);
  const mounted = l.troop.type === 'cavalry' || l.troop.type === 'chariot';
  if (w.troop.type === 'infantry' && mounted && !charged && !w.flags.mayPursueCavalryAndChariots) return false;
  const flies = l.flags.flyer === true && !l.flags.awkwardFlyer;
  if (flies && !w.flags.flyer && !charged && !w.flags.mayPursueFlyers) return false;
  return true;
}

const threeD6 = (random: () => number): number => sum(rollDice(3, random));

/** One engagement to its end; the row as metric name → value. */
function engagementTrial(specs: [UnitSpec, UnitSpec], scenario: Scenario, random: () => number): Record<string, number> {
  const units: Record<SideName, Unit> = { A: freshUnit(specs[0]), B: freshUnit(specs[1]) };
  const other = (side: SideName): SideName => (side === 'A' ? 'B' : 'A');
  const row: Record<string, number> = {
    winner: WINNER.draw,
    rounds: 0,
    turns: 0,
    retreat: 0,
    pursuits: 0,
    advances: 0,
    'A.fallBack': 0,
    'B.fallBack': 0,
  };
  for (let r = 1; r <= 4; r++) row[`round${r}`] = ROUND.notFought;
  const destroyedInRound: Record<SideName, number> = { A: 0, B: 0 };
  const keepSupports = scenario.options.casualties === 'keep-supports';
  const state: RoundState = { firstRound: true, pursuer: null, pursuitBonus: 0 };
  let round = 0;

  const finish = (winner: number): Record<string, number> => {
    row.winner = winner;
    for (const side of ['A', 'B'] as const) {
      const unit = units[side];
      row[`${side}.standsLost`] = standsLost(unit);
      row[`${side}.unitsDestroyed`] = living(unit).length === 0 ? 1 : 0;
      row[`${unit.spec.id}.standsLost`] = standsLost(unit);
      row[`${unit.spec.id}.destroyedInRound`] = destroyedInRound[side];
    }
    return row;
  };

  for (let turn = 1; turn <= scenario.maxTurns; turn++) {
    row.turns = turn;
    // Two rounds per Combat phase at most; a pursuit after the second is unresolved (README step 9).
    for (let roundOfTurn = 1; roundOfTurn <= 2; roundOfTurn++) {
      round++;
      row.rounds = round;
      state.firstRound = round === 1;
      placeStands(units.A, keepSupports);
      placeStands(units.B, keepSupports);

      // Both sides strike before any casualty is removed.
      const startStands = { A: living(units.A).length, B: living(units.B).length };
      const hitsOnB = rollHits(units.A, units.B, attackDice(units.A, units.B, state), random);
      const hitsOnA = rollHits(units.B, units.A, attackDice(units.B, units.A, state), random);
      const capOf = (unit: Unit, stands: number): number => Math.max(0, stands * (unit.spec.troop.hits ?? 1) - unit.hits);
      const takenByB = Math.min(hitsOnB, capOf(units.B, startStands.B));
      const takenByA = Math.min(hitsOnA, capOf(units.A, startStands.A));
      const result = { A: takenByB + supportCount(units.A), B: takenByA + supportCount(units.B) };
      takeCasualties(units.A, takenByA);
      takeCasualties(units.B, takenByB);
      for (const side of ['A', 'B'] as const)
        if (living(units[side]).length === 0 && destroyedInRound[side] === 0) destroyedInRound[side] = round;

      const aGone = living(units.A).length === 0;
      const bGone = living(units.B).length === 0;
      let winner: SideName;
      if (aGone && bGone) {
        // Both destroyed: a draw with nobody left to fall back (README step 6).
        if (round <= 4) row[`round${round}`] = ROUND.draw;
        return finish(WINNER.draw);
      } else if (aGone) winner = 'B';
      else if (bGone) winner = 'A';
      else if (result.A === result.B) {
        // A draw: both sides fall back 3D6 cm, one roll per side, and the engagement ends (§16).
        if (round <= 4) row[`round${round}`] = ROUND.draw;
        row['A.fallBack'] = threeD6(random);
        row['B.fallBack'] = threeD6(random);
        return finish(WINNER.draw);
      } else winner = result.A > result.B ? 'A' : 'B';
      if (round <= 4) row[`round${round}`] = ROUND[winner];

      const loserSide = other(winner);
      const loser = units[loserSide];
      const victor = units[winner];
      if (living(loser).length === 0) return finish(WINNER[winner]); // no reserves: nothing to advance into

      // Retreat (§16): the difference divided by the losing units (1 here), rounded up, at least 1 cm.
      const retreat = Math.max(1, Math.ceil((result[winner] - result[loserSide]) / 1));
      if (round === 1) row.retreat = retreat;
      if (loser.spec.troop.type === 'artillery') {
        living(loser).forEach((stand) => (stand.alive = false));
      } else if (loser.spec.blockedChance > 0 && random() < loser.spec.blockedChance) {
        const doomed = living(loser).slice(0, loser.spec.blockedStands ?? loser.spec.stands);
        doomed.forEach((stand) => (stand.alive = false)); // outstanding hits stay
      }
      loser.position = 'open'; // a retreating unit loses its defended/fortified position
      if (living(loser).length === 0) {
        destroyedInRound[loserSide] = round;
        return finish(WINNER[winner]);
      }

      // Winner's choice (§17).
      let pursues = false;
      if (mayPursue(victor, loser, state)) {
        const policy = victor.spec.policy;
        if (victor.spec.flags.mustPursue || policy === 'pursue') pursues = true;
        else if (policy === 'pursue-while-ahead') pursues = standsLost(victor) <= standsLost(loser);
      }
      if (!pursues) {
        if (victor.spec.policy === 'fall-back') row[`${winner}.fallBack`] = threeD6(random);
        return finish(WINNER[winner]);
      }
      // Pursuits made, the one that leaves the combat unresolved included (README: pursuits).
      row.pursuits = (row.pursuits ?? 0) + 1;
      // "Troops that pursue a retreating enemy are also assumed to be in the open" (Defended &
      // fortified troops): a defended winner that pursues loses its position.
      victor.position = 'open';
      state.pursuer = winner;
      state.pursuitBonus = 1 + Math.floor(retreat / 3);
    }
  }
  return finish(WINNER.unresolved);
}

/** The two units of a scenario the naive code can play (throws for anything else). */
export function naiveUnits(scenario: Scenario, units: ReadonlyMap<string, WarmasterUnit>): [UnitSpec, UnitSpec] {
  const [sideA, sideB] = scenario.sides;
  const a = sideA?.units[0];
  const b = sideB?.units[0];
  if (
    sideA === undefined ||
    sideB === undefined ||
    a === undefined ||
    b === undefined ||
    sideA.units.length !== 1 ||
    sideB.units.length !== 1
  ) {
    throw new Error('naive: exactly one unit per side');
  }
  return [unitSpec('A', sideA.policy, a, b.id, units), unitSpec('B', sideB.policy, b, a.id, units)];
}

/** Run `trials` naive engagements of `scenario` from `seed`, counting each metric's values. */
export function runNaiveWarmaster(
  scenario: Scenario,
  units: ReadonlyMap<string, WarmasterUnit>,
  seed: number,
  trials: number,
): NaiveSummary {
  const specs = naiveUnits(scenario, units);
  const random = mulberry32(seed);
  const histograms: Record<string, Record<number, number>> = {};
  for (let t = 0; t < trials; t++) {
    const row = engagementTrial(specs, scenario, random);
    for (const [metric, value] of Object.entries(row)) {
      const histogram = histograms[metric] ?? {};
      histogram[value] = (histogram[value] ?? 0) + 1;
      histograms[metric] = histogram;
    }
  }
  return { trials, histograms };
}
