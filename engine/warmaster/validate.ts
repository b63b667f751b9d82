import {
  DICE_LIMIT_REASON,
  GROUPS_LIMIT_REASON,
  MAX_DICE_PER_ACTION,
  MAX_GROUPS_PER_SIDE,
  overLimit,
  quote,
  unknownNameHint,
  type ValidationIssue,
} from '../validation.js';
import { FORTIFIED, OPEN } from './codes.js';
import { contactList, effectiveFlags, startingPosition, startingStands } from './compile.js';
import type { Contact, Scenario, ScenarioUnit } from './schema.js';
import type { Troop, WarmasterUnit } from './units.js';

/**
 * Checks zod cannot make alone: army-list references, unit ids, contact targets, and the rules a
 * position must respect (which troops can be defended, who can touch fortified enemy, who can
 * support). compileScenario assumes these hold. Paths are inside the scenario file.
 */

type Path = (string | number)[];

interface UnitRef {
  readonly side: number;
  readonly index: number;
  readonly unit: ScenarioUnit;
  readonly troop: Troop | undefined;
}

const RESERVED_SIDE_NAMES = ['draw', 'unresolved', 'not fought'];
const contactStands = (contact: Omit<Contact, 'target'>): number => contact.front + contact.flank + contact.rear + contact.corner;

/** Only infantry, flyers and giants may touch fortified enemy (Defended & fortified enemy). */
function mayTouchFortified(troop: Troop, unit: ScenarioUnit): boolean {
  return (
    troop.type === 'infantry' || effectiveFlags(unit, troop, []).flyer === true || (troop.type === 'monster' && /giant/i.test(troop.name))
  );
}

/** `armies` names the armies found; `units` maps `<army>/<unit id>` to their entries. */
export function validateWarmaster(
  scenario: Scenario,
  units: ReadonlyMap<string, WarmasterUnit>,
  armies: readonly string[],
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const byId = new Map<string, UnitRef>();
  const [first, second] = scenario.sides;
  if (first !== undefined && second !== undefined && first.name === second.name) {
    issues.push({
      path: ['sides', 1, 'name'],
      message: `both sides are named ${quote(first.name)}: give them different names (they label the results)`,
    });
  }

  const tooMany: ValidationIssue[] = [];
  // Checked first and alone: compile builds units × units tables, and later checks walk the units in pairs.
  scenario.sides.forEach((side, s) => {
    if (side.units.length > MAX_GROUPS_PER_SIDE) {
      tooMany.push({
        path: ['sides', s, 'units'],
        message: overLimit(
          `the number of units of side ${quote(side.name)}`,
          side.units.length,
          MAX_GROUPS_PER_SIDE,
          'MAX_GROUPS_PER_SIDE',
          GROUPS_LIMIT_REASON,
        ),
      });
    }
  });
  if (tooMany.length > 0) return [...issues, ...tooMany];

  // Look every unit up first, so later checks can name targets by id.
  scenario.sides.forEach((side, s) => {
    if (RESERVED_SIDE_NAMES.includes(side.name))
      issues.push({ path: ['sides', s, 'name'], message: `${quote(side.name)} is a result label: choose another side name` });
    side.units.forEach((unit, u) => {
      const path: Path = ['sides', s, 'units', u];
      const troop = lookUpTroop(unit, units, armies, path, issues);
      const existing = byId.get(unit.id);
      if (existing === undefined) byId.set(unit.id, { side: s, index: u, unit, troop });
      else
        issues.push({
          path: [...path, 'id'],
          message: `duplicate unit id ${quote(unit.id)} (already used by sides[${existing.side}].units[${existing.index}])`,
        });
    });
  });

  scenario.sides.forEach((side, s) => {
    const engaged = side.units.filter((unit) => unit.reserve === undefined);
    if (!engaged.some((unit) => unit.contact !== undefined)) {
      issues.push({
        path: ['sides', s, 'units'],
        message: `no unit of ${quote(side.name)} outside reserve touches an enemy: give one a contact`,
      });
    }
    side.units.forEach((unit, u) => {
      const ref = byId.get(unit.id);
      if (ref?.troop === undefined || ref.side !== s || ref.index !== u) return;
      checkUnit(ref, ['sides', s, 'units', u], { byId, units, issues, rules: scenario.rules });
    });
  });
  return issues;
}

function lookUpTroop(
  unit: ScenarioUnit,
  units: ReadonlyMap<string, WarmasterUnit>,
  armies: readonly string[],
  path: Path,
  issues: ValidationIssue[],
): Troop | undefined {
  const [army = '', id = ''] = unit.unit.split('/');
  unit.characters.forEach((reference, c) => {
    const entry = units.get(reference);
    if (entry?.kind === 'character') return;
    const message = entry === undefined ? unknownReference(reference, units, armies) : `${quote(reference)} is a troop, not a character`;
    issues.push({ path: [...path, 'characters', c], message });
  });
  const entry = units.get(unit.unit);
  if (entry === undefined) {
    issues.push({ path: [...path, 'unit'], message: unknownReference(unit.unit, units, armies) });
    return undefined;
  }
  if (entry.kind !== 'troop') {
    issues.push({
      path: [...path, 'unit'],
      message: `${quote(unit.unit)} is a ${entry.type}, not a troop: list it under a unit's characters`,
    });
    return undefined;
  }
  const problems: string[] = [];
  if (entry.attacks === null)
    problems.push(
      `its Attacks are ${entry.attacksSpecial === undefined ? '–' : quote(entry.attacksSpecial)}, which the combat engine does not roll`,
    );
  if (entry.hits === null) problems.push('its Hits are – in the army list');
  if (problems.length > 0) {
    issues.push({ path: [...path, 'unit'], message: `${quote(`${army}/${id}`)} cannot fight: ${problems.join('; ')}` });
    return undefined;
  }
  return entry;
}

function unknownReference(reference: string, units: ReadonlyMap<string, WarmasterUnit>, armies: readonly string[]): string {
  const [army = ''] = reference.split('/');
  if (!armies.includes(army)) return `unknown army ${quote(army)}${unknownNameHint(army, armies, 'armies', 'data/warmaster/armies')}`;
  const known = [...units.keys()].filter((key) => key.startsWith(`${army}/`));
  return `no unit ${quote(reference)} in the ${army} army list${unknownNameHint(reference, known, 'units', `data/warmaster/armies/${army}.yaml`)}`;
}

interface Check {
  readonly byId: ReadonlyMap<string, UnitRef>;
  readonly units: ReadonlyMap<string, WarmasterUnit>;
  readonly issues: ValidationIssue[];
  readonly rules?: Scenario['rules'];
}

/**
 * The most Attacks one stand of `unit` can roll in a round: its own, its best character's bonus
 * (compile.ts characterBonus) and every per-stand bonus a rule knob can add (charge, monster or
 * chariot charge, first-round front, against monsters, the charge D6 at their most). An upper bound,
 * so that the pool is bounded before any table is built (issue 17).
 */
function mostAttacksPerStand(unit: ScenarioUnit, troop: Troop, check: Check): number {
  const characterBonus = Math.max(
    0,
    ...unit.characters.map((reference) => {
      const entry = check.units.get(reference);
      return entry?.kind === 'character' ? (entry.attackBonus ?? 0) : 0;
    }),
  );
  const rules = check.rules;
  const knobs =
    rules === undefined
      ? 0
      : rules.chargeBonus +
        rules.monsterChariotChargeBonus +
        rules.firstRoundFrontBonusAttacks +
        rules.vsMonstersBonusAttacks +
        6 * rules.chargeBonusD6Dice;
  return (troop.attacks ?? 0) + characterBonus + knobs;
}

function checkUnit(ref: UnitRef, path: Path, check: Check): void {
  const { unit, troop } = ref;
  if (troop === undefined) return;
  const issues = check.issues;
  const stands = startingStands(unit, troop);
  const flags = effectiveFlags(unit, troop, []);
  const position = startingPosition(unit, flags);
  const perStand = troop.hits ?? 1;
  // Close combat rolls a unit's Attacks × stands as one pool (an outcome table of that many dice); a
  // `units:` change, a character or a rule knob can raise the Attacks, so the pool is bounded here too.
  const perStandAttacks = mostAttacksPerStand(unit, troop, check);
  const closeDice = perStandAttacks * stands;
  if (closeDice > MAX_DICE_PER_ACTION) {
    issues.push({
      path,
      message: overLimit(
        `unit ${quote(unit.id)} fights with up to ${perStandAttacks} Attacks (with bonuses) × ${stands} stands: the dice of one attack`,
        closeDice,
        MAX_DICE_PER_ACTION,
        'MAX_DICE_PER_ACTION',
        DICE_LIMIT_REASON,
      ),
    });
  }
  if (unit.stands !== undefined && unit.stands > troop.unitSize) {
    issues.push({ path: [...path, 'stands'], message: `${unit.stands} stands, but a ${troop.name} unit has ${troop.unitSize}` });
  }
  if (unit.hits >= perStand) {
    issues.push({
      path: [...path, 'hits'],
      message: `${unit.hits} outstanding hits would already have removed a stand (Hits ${perStand}): give fewer than ${perStand}`,
    });
  }
  if (position !== OPEN && troop.type !== 'infantry' && troop.type !== 'artillery' && unit.position !== undefined) {
    issues.push({
      path: [...path, 'position'],
      message: `only infantry and artillery can be defended or fortified; this is ${troop.type}`,
    });
  }
  if (unit.charging && unit.position !== undefined && unit.position !== 'open') {
    issues.push({ path: [...path, 'position'], message: 'a charging unit is in the open: chargers cannot be defended or fortified' });
  }
  if (unit.charging && unit.reserve !== undefined)
    issues.push({ path: [...path, 'charging'], message: 'a unit in reserve has not charged: remove charging or reserve' });

  const contacts = contactList(unit);
  let touching = 0;
  contacts.forEach((contact, c) => {
    const at: Path = Array.isArray(unit.contact) ? [...path, 'contact', c] : [...path, 'contact'];
    const count = contactStands(contact);
    touching += count;
    if (count === 0) issues.push({ path: at, message: 'touches with no stands: give front, flank, rear or corner' });
    if (contact.target === undefined) return;
    const target = enemyTarget(contact.target, ref, [...at, 'target'], check);
    if (target?.troop === undefined) return;
    if (unit.reserve === undefined && target.unit.reserve !== undefined) {
      issues.push({ path: [...at, 'target'], message: `${quote(contact.target)} is in reserve: only an advance meets it` });
    }
    const targetPosition = startingPosition(target.unit, effectiveFlags(target.unit, target.troop, []));
    if (targetPosition === FORTIFIED && !mayTouchFortified(troop, unit)) {
      issues.push({
        path: [...at, 'target'],
        message: `${quote(contact.target)} is fortified: only infantry, flyers and giants can touch it, not ${troop.type}`,
      });
    }
  });
  if (touching + unit.supports > stands) {
    issues.push({
      path: [...path, contacts.length > 0 ? 'contact' : 'supports'],
      message: `${touching} stands touching and ${unit.supports} supporting, but the unit has ${stands} stands`,
    });
  }
  if (unit.reserve === undefined && contacts.length === 0 && unit.supports === 0) {
    issues.push({
      path,
      message: `${quote(unit.id)} neither touches an enemy nor supports: give it contact or supports, or put it in reserve`,
    });
  }
  if (unit.newContact !== undefined) {
    const count = contactStands(unit.newContact);
    if (count === 0 || count > stands)
      issues.push({ path: [...path, 'newContact'], message: `must place 1 to ${stands} stands, not ${count}` });
  }
  checkSupports(ref, path, check);
  checkShooting(ref, path, check);
  const blocked = unit.retreatBlocked;
  if (typeof blocked === 'object' && blocked.stands !== undefined && blocked.stands > stands) {
    issues.push({ path: [...path, 'retreatBlocked', 'stands'], message: `${blocked.stands} stands, but the unit has ${stands}` });
  }
}

function enemyTarget(id: string, ref: UnitRef, path: Path, check: Check): UnitRef | undefined {
  const target = check.byId.get(id);
  if (target === undefined) {
    check.issues.push({
      path,
      message: `no unit has id ${quote(id)}${unknownNameHint(id, [...check.byId.keys()], 'unit ids', 'the scenario')}`,
    });
    return undefined;
  }
  if (target.side === ref.side) {
    check.issues.push({ path, message: `${quote(id)} is on this unit's own side: it must be an enemy unit` });
    return undefined;
  }
  return target;
}

/** Only infantry supports, and only a friendly infantry unit fighting to its front (Support). */
function checkSupports(ref: UnitRef, path: Path, check: Check): void {
  const { unit, troop } = ref;
  if (unit.supports === 0) {
    if (unit.supporting !== undefined)
      check.issues.push({ path: [...path, 'supporting'], message: 'names a unit to support but has no supports' });
    return;
  }
  if (troop?.type !== 'infantry') {
    check.issues.push({ path: [...path, 'supports'], message: `only infantry can support; this is ${troop?.type ?? 'not a troop'}` });
    return;
  }
  const frontInfantry = (other: UnitRef) =>
    other.troop?.type === 'infantry' &&
    other.side === ref.side &&
    (other.unit.reserve === undefined) === (unit.reserve === undefined) &&
    contactList(other.unit).some((contact) => contact.front > 0);
  if (unit.supporting === undefined) {
    if (![...check.byId.values()].some(frontInfantry)) {
      check.issues.push({
        path: [...path, 'supports'],
        message: 'no friendly infantry unit fights to its front here, so there is nothing to support',
      });
    }
    return;
  }
  const supported = check.byId.get(unit.supporting);
  if (supported === undefined) {
    check.issues.push({
      path: [...path, 'supporting'],
      message: `no unit has id ${quote(unit.supporting)}${unknownNameHint(unit.supporting, [...check.byId.keys()], 'unit ids', 'the scenario')}`,
    });
  } else if (!frontInfantry(supported)) {
    check.issues.push({
      path: [...path, 'supporting'],
      message: `${quote(unit.supporting)} must be a friendly infantry unit with stands touching the enemy with their front`,
    });
  }
}

function checkShooting(ref: UnitRef, path: Path, check: Check): void {
  const { unit, troop } = ref;
  const shooting = unit.shootsAtChargers;
  if (shooting === undefined || troop === undefined) return;
  const at: Path = [...path, 'shootsAtChargers'];
  const dice = shooting === true ? undefined : shooting.attacks;
  if (dice === undefined && (troop.shootingAttacks ?? 0) === 0) {
    check.issues.push({
      path: at,
      message: `${troop.name} has no plain shooting Attacks${troop.shootingSpecial === undefined ? '' : ` (${quote(troop.shootingSpecial)})`}: give attacks`,
    });
  }
  // The shots are rolled as one pool (an outcome table of that many dice): compile.ts's shotDice.
  const shots = dice ?? (troop.shootingAttacks ?? 0) * startingStands(unit, troop);
  if (shots > MAX_DICE_PER_ACTION) {
    const what = `unit ${quote(unit.id)} shoots at chargers with ${dice === undefined ? 'its shooting Attacks × stands' : 'attacks'}: the dice of one shooting`;
    check.issues.push({
      path: dice === undefined ? at : [...at, 'attacks'],
      message: overLimit(what, shots, MAX_DICE_PER_ACTION, 'MAX_DICE_PER_ACTION', DICE_LIMIT_REASON),
    });
  }
  const target = shooting === true ? undefined : shooting.target;
  if (target !== undefined) {
    const found = enemyTarget(target, ref, [...at, 'target'], check);
    if (found !== undefined && unit.reserve === undefined && !found.unit.charging) {
      check.issues.push({ path: [...at, 'target'], message: `${quote(target)} did not charge: only chargers are shot at` });
    }
  } else if (
    unit.reserve === undefined &&
    ![...check.byId.values()].some((other) => other.side !== ref.side && other.unit.charging && other.unit.reserve === undefined)
  ) {
    check.issues.push({ path: at, message: 'no enemy unit is charging, so there is nobody to shoot at' });
  }
}
