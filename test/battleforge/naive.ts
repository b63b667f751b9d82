import type { Plan, Scenario, ScenarioUnit, Side, UnitProfile } from '../../engine/battleforge/index.js';
import { mulberry32 } from '../helpers/mulberry32.js';

/**
 * A Battle Forge game written the way a hobbyist would: an object per model and per unit, an array
 * per roll, `.filter`/`.map`/`.reduce`, die by die, and a seeded `Math.random`-style generator. It is
 * the yardstick bench/run.ts measures the engine against and a second, independent reading of the
 * rules (the Battle Forge core rules, rulings §19–25, engine/battleforge/README.md) for
 * test/battleforge/naive-agrees.test.ts — written from those texts, not from the engine's code.
 * Deliberately NOT optimised.
 *
 * Scope: `mode: game`, exactly one unit per side. Anything else throws.
 */

export interface NaiveSummary {
  trials: number;
  histograms: Record<string, Record<number, number>>;
}

/** Codes of `winner`, in the engine's label order: side A's name, side B's name, none. */
export const WINNER = { A: 0, B: 1, none: 2 } as const;

type Kind = 'shoot' | 'fight';
type Action = 'shoot' | 'fight' | 'move' | 'charge' | 'focus' | 'hold' | 'evade' | 'rally' | 'nothing';

interface Weapon {
  name: string;
  dice: number;
  ap: number;
  melee: boolean;
  short: number;
  long: number;
}
interface Model {
  name: string;
  movement: number;
  accuracy: number;
  strength: number;
  save: number;
  initiative: number;
  courage: number;
  maxWounds: number;
  wounds: number;
  alive: boolean;
  weapons: Weapon[];
}
interface Unit {
  key: 'A' | 'B';
  id: string;
  plan: Plan;
  rallyAt: number;
  bid: number;
  reactions: Side['reactions'];
  cover: number;
  terrain: boolean;
  models: Model[];
  /** Its model types: the weapons each model of the type carries, and those models. */
  types: { weapons: Weapon[]; models: Model[] }[];
  /** The model whose characteristics the unit's own tests use: its most numerous type (README). */
  lead: Model;
  startModels: number;
  startWounds: number;
  shock: number;
  /** Focus: `any` (text version, or a stated one) or one stat's token (rulings §24); an Evade token. */
  focusAny: boolean;
  focusAcc: boolean;
  focusStr: boolean;
  evade: boolean;
  broke: boolean;
  destroyed: boolean;
  goneInRound: number;
  /** This round: activated, reacted (its round is over), on Hold, made its one Shoot, its one Fight. */
  activated: boolean;
  reacted: boolean;
  onHold: boolean;
  shot: boolean;
  fought: boolean;
}

interface Outcome {
  attacker: Unit;
  target: Unit;
  hits: number;
  damage: Model[];
}
interface Loss {
  target: Unit;
  gainedShock: boolean;
  modelsBefore: number;
  modelsLost: number;
  woundsBefore: number;
  woundsLost: number;
}

const COVER: Record<string, number> = { none: 0, soft: 1, hard: 2, fortified: 3, negative: -1 };

const living = (unit: Unit): Model[] => unit.models.filter((model) => model.alive);
const woundsLeft = (unit: Unit): number => living(unit).reduce((sum, model) => sum + model.wounds, 0);
const gone = (unit: Unit): boolean => unit.broke || unit.destroyed;
/** §19: a 1 always passes, a 10 always fails, else D10 ≤ target. */
const passes = (face: number, target: number): boolean => face === 1 || (face !== 10 && face <= target);

function buildUnit(key: 'A' | 'B', side: Side, input: ScenarioUnit, profile: UnitProfile): Unit {
  const counts = profile.models.map((model, m) =>
    input.models === undefined
      ? model.count
      : typeof input.models === 'number'
        ? m === 0
          ? input.models
          : 0
        : (input.models[model.name] ?? 0),
  );
  // Models without characteristics take no hits and go with the rest: they change no metric.
  const types = profile.models
    .map((model, m) => ({ model, count: counts[m] ?? 0 }))
    .filter((t) => t.count > 0 && t.model.hasCharacteristics);
  const byType = types.map(({ model, count }) =>
    Array.from(
      { length: count },
      (): Model => ({
        name: model.name,
        movement: model.movement,
        accuracy: model.accuracy,
        strength: model.strength,
        save: model.save,
        initiative: model.initiative,
        courage: model.courage,
        maxWounds: model.wounds,
        wounds: model.wounds,
        alive: true,
        weapons: model.weapons.map((w) => ({
          name: w.name,
          dice: w.attacks * w.copies,
          ap: w.ap,
          melee: w.melee,
          short: w.short,
          long: w.long,
        })),
      }),
    ),
  );
  const models = byType.flat();
  const most = types.reduce((best, t) => (t.count > best.count ? t : best));
  const lead = models.find((model) => model.name === most.model.name);
  if (lead === undefined) throw new Error('naive: a unit needs a model with characteristics');
  return {
    key,
    id: input.id,
    plan: input.plan ?? side.plan,
    rallyAt: input.rallyAt ?? side.rallyAt ?? 0,
    bid: side.bid,
    reactions: side.reactions,
    cover: COVER[input.cover] ?? 0,
    terrain: input.terrain,
    models,
    lead,
    types: byType.map((group) => ({ weapons: group[0]?.weapons ?? [], models: group })),
    startModels: models.length,
    startWounds: models.reduce((sum, model) => sum + model.wounds, 0),
    shock: input.shock,
    focusAny: input.focus,
    focusAcc: false,
    focusStr: false,
    evade: input.evade,
    broke: false,
    destroyed: false,
    goneInRound: 0,
    activated: false,
    reacted: false,
    onHold: false,
    shot: false,
    fought: false,
  };
}

/** One game: an object per unit and per model, methods that read and change them. */
class Game {
  readonly A: Unit;
  readonly B: Unit;
  readonly options: Scenario['options'];
  /** The line between the two units (README "The line"): their distance, and whether they are engaged. */
  readonly state = { distance: 0, engaged: false, round: 0 };

  constructor(
    readonly scenario: Scenario,
    profiles: ReadonlyMap<string, UnitProfile>,
    readonly random: () => number,
  ) {
    const [sideA, sideB] = scenario.sides;
    const [inputA, inputB] = [sideA?.units[0], sideB?.units[0]];
    const [profileA, profileB] = [profiles.get(inputA?.unit ?? ''), profiles.get(inputB?.unit ?? '')];
    if (!sideA || !sideB || !inputA || !inputB || !profileA || !profileB) throw new Error('naive: two sides with known units');
    this.A = buildUnit('A', sideA, inputA, profileA);
    this.B = buildUnit('B', sideB, inputB, profileB);
    this.options = scenario.options;
    // A's line at 0, B's at `distance`; a unit starts `position` in front of its line.
    this.state.distance = Math.abs(scenario.distance - inputB.position - inputA.position);
    this.state.engaged = this.state.distance === 0;
  }

  d10(): number {
    return Math.floor(this.random() * 10) + 1;
  }
  rollD10s(count: number): number[] {
    return Array.from({ length: count }, () => this.d10());
  }
  enemyOf(unit: Unit): Unit {
    return unit === this.A ? this.B : this.A;
  }
  over(): boolean {
    return gone(this.A) || gone(this.B);
  }
  moveOf(unit: Unit): number {
    return Math.max(0, unit.lead.movement - unit.shock);
  }
  courageTest(unit: Unit): boolean {
    return passes(this.d10(), unit.lead.courage);
  }
  initiativeTest(unit: Unit): boolean {
    return passes(this.d10(), unit.lead.initiative - unit.shock);
  }
  weapons(unit: Unit, melee: boolean): Weapon[] {
    return unit.types
      .filter((type) => type.models.some((model) => model.alive))
      .flatMap((type) => type.weapons.filter((w) => w.melee === melee));
  }
  canShootAt(unit: Unit, distance: number): boolean {
    return !this.state.engaged && this.weapons(unit, false).some((w) => distance <= w.long);
  }
  chargeReach(unit: Unit): number {
    return this.moveOf(unit) + Math.floor(unit.lead.movement / 2);
  }

  /** One attack rolled on the present state, nothing applied yet (so Counter Attacks are simultaneous). */
  rollAttack(attacker: Unit, target: Unit, kind: Kind, distance: number): Outcome | null {
    const shooting = kind === 'shoot';
    const firing = living(attacker).flatMap((model) =>
      model.weapons.filter((w) => (shooting ? !w.melee && distance <= w.long : w.melee)).map((weapon) => ({ model, weapon })),
    );
    if (firing.length === 0) return null;
    // §24: Focus +1 on the unit's next attack, the target's Evade −1 (text: both stats; token: the stat used).
    let bonus = 0;
    if (attacker.focusAny) [bonus, attacker.focusAny] = [bonus + 1, false];
    else if (shooting && attacker.focusAcc) [bonus, attacker.focusAcc] = [bonus + 1, false];
    else if (!shooting && attacker.focusStr) [bonus, attacker.focusStr] = [bonus + 1, false];
    if (target.evade) [bonus, target.evade] = [bonus - 1, false];
    const hitsPerWeapon = firing.map(({ model, weapon }) => {
      let need = (shooting ? model.accuracy : model.strength) - attacker.shock + bonus;
      if (shooting && distance > weapon.short) need--; // long range
      if (!shooting && target.terrain) need--; // intervening terrain
      return { weapon, hits: this.rollD10s(weapon.dice).filter((face) => passes(face, need)).length };
    });
    const hits = hitsPerWeapon.reduce((sum, h) => sum + h.hits, 0);
    // §20: no cover against fighting, nor at 3" or less (Point Blank Range).
    const cover = shooting && distance > 3 ? target.cover : 0;
    const pending = new Map<Model, number>();
    const left = (model: Model): number => model.wounds - (pending.get(model) ?? 0);
    const damage: Model[] = [];
    hitsPerWeapon.forEach(({ weapon, hits: count }) => {
      for (let h = 0; h < count; h++) {
        // The defender gives each hit to a model (option `allocation`), then rolls its save.
        let candidates = living(target).filter((model) => left(model) > 0);
        if (candidates.length === 0) return;
        if (this.options.allocation === 'best-save-first') {
          const best = Math.max(...candidates.map((model) => model.save));
          candidates = candidates.filter((model) => model.save === best);
        }
        const model = candidates.find((m) => left(m) < m.maxWounds) ?? candidates[0];
        if (model === undefined) return;
        if (!passes(this.d10(), model.save - weapon.ap + cover)) {
          damage.push(model);
          pending.set(model, (pending.get(model) ?? 0) + 1);
        }
      }
    });
    return { attacker, target, hits, damage };
  }

  applyOutcome(outcome: Outcome): Loss {
    const target = outcome.target;
    const modelsBefore = living(target).length;
    const woundsBefore = woundsLeft(target);
    outcome.damage.forEach((model) => (model.alive = --model.wounds > 0));
    // §21: +1 Shock when hit by an attack, at most one per attack, counted on hits before saves
    // (a unit with no model left has nothing to shock).
    const gainedShock = outcome.hits > 0 && living(target).length > 0;
    if (gainedShock) target.shock++;
    if (living(target).length === 0 && !target.destroyed) this.destroyed(target);
    return {
      target,
      gainedShock,
      modelsBefore,
      modelsLost: modelsBefore - living(target).length,
      woundsBefore,
      woundsLost: outcome.damage.length,
    };
  }

  /** §22: a single Courage test after Shock ≥ Courage, or more than half its models (Wounds(x): Wounds) lost in one attack. */
  breakTest(loss: Loss): void {
    const unit = loss.target;
    if (gone(unit)) return;
    const multiWound = unit.models.some((model) => model.maxWounds > 1);
    const heavy = multiWound ? loss.woundsLost * 2 > loss.woundsBefore : loss.modelsLost * 2 > loss.modelsBefore;
    if (((loss.gainedShock && unit.shock >= unit.lead.courage) || heavy) && !this.courageTest(unit)) this.breakUnit(unit);
  }

  /** Every model gone: +1 Shock to every unit within 3" of it (friend or enemy: "a unit within 3\""). */
  destroyed(unit: Unit): void {
    unit.destroyed = true;
    if (unit.goneInRound === 0) unit.goneInRound = this.state.round;
    [this.A, this.B]
      .filter((other) => other !== unit && !gone(other) && this.state.distance <= 3)
      .forEach((other) => this.gainShock(other));
  }

  gainShock(unit: Unit): void {
    unit.shock++;
    if (unit.shock >= unit.lead.courage && !this.courageTest(unit)) this.breakUnit(unit);
  }

  /**
   * §22: a broken unit falls back. Leaving melee it tests Initiative first (failed: a free attack
   * from the unit it leaves); if it still has models, it leaves the fight — or, option `surrender`,
   * cannot get 6" away and surrenders: destroyed, its models removed (their Wounds are not "lost").
   */
  breakUnit(unit: Unit): void {
    unit.broke = true;
    if (unit.goneInRound === 0) unit.goneInRound = this.state.round;
    if (this.state.engaged) {
      if (!this.initiativeTest(unit)) {
        const free = this.rollAttack(this.enemyOf(unit), unit, 'fight', 0);
        if (free) this.applyOutcome(free);
      }
      this.state.engaged = false;
    }
    if (!unit.destroyed && this.random() < this.options.surrender) {
      unit.models.forEach((model) => (model.alive = false));
      this.destroyed(unit);
    }
  }

  /** §23: the reaction a defender makes to a declared Shoot, Fight or Charge, if it may and can. */
  react(defender: Unit, kind: Kind | 'charge', distance: number): string {
    const policy =
      kind === 'shoot' ? defender.reactions.toShooting : kind === 'fight' ? defender.reactions.toFighting : defender.reactions.toCharge;
    if (policy === 'none' || gone(defender) || defender.reacted) return 'none';
    if (!defender.onHold && (defender.activated || !defender.reactions.beforeActivating)) return 'none';
    if (policy === 'counter-attack' && kind === 'shoot' && (defender.shot || !this.canShootAt(defender, distance))) return 'none';
    if (policy === 'counter-attack' && kind === 'fight' && (defender.fought || this.weapons(defender, true).length === 0)) return 'none';
    if (policy === 'overwatch' && !this.canShootAt(defender, distance)) return 'none';
    const automatic = defender.onHold && (policy === 'counter-attack' || policy === 'overwatch');
    if (!automatic && !this.initiativeTest(defender)) {
      if (this.options.failedReaction === 'spends-round') defender.reacted = true;
      this.gainShock(defender);
      return 'failed';
    }
    defender.reacted = true;
    return policy;
  }

  resolve(attacker: Unit, target: Unit, kind: Kind, distance = this.state.distance): void {
    const outcome = this.rollAttack(attacker, target, kind, distance);
    if (outcome) this.breakTest(this.applyOutcome(outcome));
  }

  /** Counter Attack: both attacks rolled on the state before either, then casualties and Shock, then break tests. */
  simultaneous(attacker: Unit, defender: Unit, kind: Kind): void {
    const first = this.rollAttack(attacker, defender, kind, this.state.distance);
    const second = this.rollAttack(defender, attacker, kind, this.state.distance);
    if (kind === 'shoot') defender.shot = true;
    else defender.fought = true;
    const losses = [first, second].filter((o): o is Outcome => o !== null).map((o) => this.applyOutcome(o));
    losses.forEach((loss) => this.breakTest(loss));
  }

  /** A Shoot action; it counts as the unit's one shooting of the round once the attack is made. */
  shoot(unit: Unit): void {
    const target = this.enemyOf(unit);
    const reaction = this.react(target, 'shoot', this.state.distance);
    if (this.over()) return;
    unit.shot = true;
    if (reaction === 'counter-attack') return this.simultaneous(unit, target, 'shoot');
    if (reaction === 'dodge') target.evade = true;
    if (reaction === 'escape') {
      this.state.distance += this.moveOf(target);
      if (!this.canShootAt(unit, this.state.distance)) unit.shot = false; // out of range: the attack is not made
    }
    this.resolve(unit, target, 'shoot');
  }

  /** A Fight action (or a charge's free fight): the unit's one fight of the round, unless the target escapes it. */
  fight(unit: Unit): void {
    const target = this.enemyOf(unit);
    const reaction = this.react(target, 'fight', 0);
    if (this.over()) return;
    if (reaction === 'escape' && this.moveOf(target) > 0) {
      // Falling back from melee: an Initiative test, or a free attack from the unit it leaves.
      if (!this.initiativeTest(target)) this.resolve(unit, target, 'fight');
      if (this.over()) return;
      this.state.engaged = false;
      this.state.distance = this.moveOf(target);
      return;
    }
    unit.fought = true;
    if (reaction === 'counter-attack') return this.simultaneous(unit, target, 'fight');
    if (reaction === 'dodge') target.evade = true;
    this.resolve(unit, target, 'fight');
  }

  moveToward(unit: Unit): void {
    if (this.state.distance > 1) this.state.distance = Math.max(1, this.state.distance - this.moveOf(unit)); // not within 1" unless charging
  }

  /**
   * A Move action. An enemy on Hold may Overwatch it (text: "or a Move action is performed in their
   * line of sight"; not in the README), at the shortest distance on its path: where the move ends.
   */
  moveAction(unit: Unit): void {
    this.moveToward(unit);
    const watcher = this.enemyOf(unit);
    if (watcher.onHold && this.react(watcher, 'charge', this.state.distance) === 'overwatch') this.resolve(watcher, unit, 'shoot');
  }

  charge(unit: Unit): void {
    const target = this.enemyOf(unit);
    const start = this.state.distance;
    const reaction = this.react(target, 'charge', start);
    if (this.over()) return;
    if (reaction === 'overwatch') this.resolve(target, unit, 'shoot', start); // before contact, from where the charge started
    if (this.over()) return;
    if (reaction === 'escape') this.state.distance += this.moveOf(target);
    // The charge move: beyond Movement − Shock the charger Rushes (an Initiative test for
    // ⌊Movement / 2⌋ more; failed, no extra distance and 1 Shock after the move). A charge that no
    // longer reaches (Shock from Overwatch, an Escape) becomes that move, stopping 1" short.
    let move = this.moveOf(unit);
    let rushFailed = false;
    if (this.state.distance > move) {
      if (this.initiativeTest(unit)) move += Math.floor(unit.lead.movement / 2);
      else rushFailed = true;
    }
    if (this.state.distance > move) {
      this.state.distance = Math.max(1, this.state.distance - move);
      if (rushFailed) this.gainShock(unit);
      return;
    }
    this.state.distance = 0;
    this.state.engaged = true;
    if (this.weapons(unit, true).length > 0 && !unit.fought) this.fight(unit); // the free fight
  }

  chooseAction(unit: Unit, index: number): Action {
    if (this.state.engaged) return !unit.fought && this.weapons(unit, true).length > 0 ? 'fight' : 'focus';
    const d = this.state.distance;
    const inRange = !unit.shot && this.canShootAt(unit, d);
    const inReach = d <= this.chargeReach(unit);
    switch (unit.plan) {
      case 'shoot-and-hold':
        return index === 0 ? (inRange ? 'shoot' : 'move') : 'hold';
      case 'focus-then-shoot':
        return index === 0 ? 'focus' : inRange ? 'shoot' : 'move';
      case 'move-and-shoot':
        // "Move toward the nearest enemy unless it is within short range" (of its longest short
        // band), then "Shoot if in range"; the README gives neither an "else".
        if (index === 0) return d <= Math.max(0, ...this.weapons(unit, false).map((w) => w.short)) ? 'nothing' : 'move';
        return inRange ? 'shoot' : 'nothing';
      case 'shoot-then-charge':
        if (index === 0 && inRange) return 'shoot';
        return inReach ? 'charge' : 'move';
      case 'charge-and-fight':
        return inReach ? 'charge' : 'move';
      case 'hold-for-overwatch':
        return index === 0 ? 'focus' : 'hold';
      case 'evade-and-shoot':
        return index === 0 ? 'evade' : inRange ? 'shoot' : 'move';
    }
  }

  perform(unit: Unit, action: Action): void {
    if (action === 'shoot') this.shoot(unit);
    else if (action === 'fight') this.fight(unit);
    else if (action === 'move') this.moveAction(unit);
    else if (action === 'charge') this.charge(unit);
    else if (action === 'hold') unit.onHold = true;
    else if (action === 'evade') unit.evade = true;
    else if (action === 'focus') {
      if (this.options.focusEvade === 'text') unit.focusAny = true;
      else if (this.state.engaged || this.weapons(unit, false).length === 0)
        unit.focusStr = true; // token: the stat its next attack uses
      else unit.focusAcc = true;
    } else if (action === 'rally') {
      unit.shock -= this.rollD10s(unit.shock).filter((face) => passes(face, unit.lead.courage)).length;
    }
  }

  activate(unit: Unit): void {
    unit.activated = true;
    // §21: one Courage test per Shock, each pass removes one.
    unit.shock -= this.rollD10s(unit.shock).filter((face) => passes(face, unit.lead.courage)).length;
    const rally = unit.rallyAt > 0 && unit.shock >= unit.rallyAt;
    for (let i = 0; i < 2; i++) {
      if (this.over()) return;
      this.perform(unit, i === 0 && rally ? 'rally' : this.chooseAction(unit, rally ? 1 : i));
    }
  }

  /** §25: bid Shock one at a time while the unit stays strictly below half its Courage; returns false if forfeited. */
  assignBid(unit: Unit): boolean {
    const placed = Array.from({ length: unit.bid }).filter(() => {
      if ((unit.shock + 1) * 2 >= unit.lead.courage) return false;
      unit.shock++;
      return true;
    }).length;
    return placed === unit.bid;
  }

  /** A D10 roll-off, ties re-rolled. */
  rollOff(): Unit {
    for (;;) {
      const [a, b] = [this.d10(), this.d10()];
      if (a !== b) return a > b ? this.A : this.B;
    }
  }

  /** Up to `rounds` rounds; the row as metric name → value. */
  play(): GameResult {
    const { A, B } = this;
    for (let round = 1; round <= this.scenario.rounds && !this.over(); round++) {
      this.state.round = round;
      [A, B].forEach((unit) => Object.assign(unit, { activated: false, reacted: false, onHold: false, shot: false, fought: false }));
      // §25: a side that cannot assign its whole bid forfeits the bonus; a tie (or both forfeiting): roll-off.
      const [keptA, keptB] = [this.assignBid(A), this.assignBid(B)];
      let first: Unit;
      if (keptA !== keptB) first = keptA ? A : B;
      else if (keptA && A.bid !== B.bid) first = A.bid > B.bid ? A : B;
      else first = this.rollOff();
      for (const unit of [first, this.enemyOf(first)]) {
        if (this.over()) break;
        if (!gone(unit) && !unit.reacted) this.activate(unit);
      }
    }

    // The winner: the side left with a unit neither destroyed nor broken when the other has none.
    const winner = !gone(A) && gone(B) ? WINNER.A : !gone(B) && gone(A) ? WINNER.B : WINNER.none;
    const loser = winner === WINNER.A ? B : winner === WINNER.B ? A : undefined;
    const side = (unit: Unit): SideResult => ({
      modelsLost: unit.startModels - living(unit).length,
      woundsLost: unit.startWounds - unit.models.reduce((sum, model) => sum + model.wounds, 0),
      destroyed: unit.destroyed ? 1 : 0,
      broke: unit.broke ? 1 : 0,
      shock: unit.shock,
    });
    return { winner, rounds: this.state.round, decisiveRound: loser?.goneInRound ?? 0, A: side(A), B: side(B) };
  }
}

interface SideResult {
  modelsLost: number;
  woundsLost: number;
  destroyed: number;
  broke: number;
  shock: number;
}
interface GameResult {
  winner: number;
  rounds: number;
  decisiveRound: number;
  A: SideResult;
  B: SideResult;
}

/** A game's result as the engine's metrics (README "Metrics"): metric name → value. */
function metricRow(result: GameResult, idA: string, idB: string): [string, number][] {
  const rows: [string, number][] = [
    ['winner', result.winner],
    ['rounds', result.rounds],
    ['decisiveRound', result.decisiveRound],
  ];
  for (const [key, id] of [
    ['A', idA],
    ['B', idB],
  ] as const) {
    const r = result[key];
    rows.push(
      [`${key}.modelsLost`, r.modelsLost],
      [`${key}.woundsLost`, r.woundsLost],
      [`${key}.unitsDestroyed`, r.destroyed],
      [`${key}.unitsBroken`, r.broke],
    );
    rows.push(
      [`${id}.modelsLost`, r.modelsLost],
      [`${id}.woundsLost`, r.woundsLost],
      [`${id}.shock`, r.shock],
      [`${id}.broke`, r.broke],
      [`${id}.destroyed`, r.destroyed],
    );
  }
  return rows;
}

/** Run `trials` naive games of `scenario` from `seed`, counting each metric's values. */
export function runNaiveBattleforge(
  scenario: Scenario,
  profiles: ReadonlyMap<string, UnitProfile>,
  seed: number,
  trials: number,
): NaiveSummary {
  if (scenario.mode !== 'game') throw new Error('naive: only mode "game"');
  if (scenario.sides.some((side) => side.units.length !== 1)) throw new Error('naive: exactly one unit per side');
  const [idA = 'A', idB = 'B'] = scenario.sides.map((side) => side.units[0]?.id);
  const random = mulberry32(seed);
  // Counted by outcome first (a game's result as a string key), then spread over the metrics.
  const outcomes = new Map<string, { result: GameResult; count: number }>();
  for (let t = 0; t < trials; t++) {
    const result = new Game(scenario, profiles, random).play();
    const key = JSON.stringify(result);
    outcomes.set(key, { result, count: (outcomes.get(key)?.count ?? 0) + 1 });
  }
  const histograms: Record<string, Record<number, number>> = {};
  for (const { result, count } of outcomes.values()) {
    for (const [metric, value] of metricRow(result, idA, idB)) {
      const histogram = histograms[metric] ?? {};
      histogram[value] = (histogram[value] ?? 0) + count;
      histograms[metric] = histogram;
    }
  }
  return { trials, histograms };
}
