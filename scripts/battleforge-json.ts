import { closestNames } from '../engine/validation.js';
import {
  type Model,
  pointsExpressionSchema,
  type Power,
  type Rule,
  type RuleRef,
  SOURCE_STAT_NAMES,
  STAT_NAMES,
  type Stats,
  type Unit,
  type UnitOption,
  type Weapon,
  type WeaponProfile,
  type WeaponRef,
} from '../engine/battleforge/units.js';

/**
 * Reading the Battle Forge "Fantasy Realms" JSONs (see data/battleforge/source/README.md) into the project's
 * format. Anything malformed is a problem naming the file and the JSON path (`units.x.models[0].
 * weapons[1]`); fields the converter does not know are problems too, so nothing is dropped
 * unnoticed — except the prose (descriptions, flavour, strategies, relics), left out on purpose.
 * The source's few known faults are accepted only where listed below, each with a note.
 */

export interface SourceProblem {
  readonly file: string;
  readonly where: string;
  readonly message: string;
}
export const formatSourceProblem = (problem: SourceProblem): string => `${problem.file}: ${problem.where}: ${problem.message}`;

/** Weapon ids the source names but never defines, kept with `unresolved: true` (the app prices them 0). */
export const UNRESOLVED_WEAPONS: readonly { file: string; where: string; id: string; note: string }[] = [
  {
    file: 'dark_elves.json',
    where: 'units.elf_bodyguards.models[0].weapons[0]',
    id: 'poison_greatweapon',
    note: 'the index has poison_great_weapon',
  },
  { file: 'dark_elves.json', where: 'units.elf_bodyguards.options[0].replaceWeapon[0]', id: 'poison_greatweapon', note: 'as above' },
  {
    file: 'vampire_lords.json',
    where: 'units.zombies.models[0].weapons[0]',
    id: 'unarmed',
    note: 'no weapon of that id anywhere in this data',
  },
  { file: 'wood_elves.json', where: 'units.elf_rangers.models[0].weapons[1]', id: 'longbow', note: 'the index has long_bow' },
  {
    file: 'corrupted_legions.json',
    where: 'units.corrupted_outriders.models[0].options[0].withWeapon[0][1]',
    id: 'barbarian_javelin',
    note: 'the index has javelin and heavy_javelin',
  },
];

/** Fields under a wrong key, read as the key they stand for. */
export const MISSPELT_FIELDS: readonly { file: string; where: string; key: string; means: string }[] = [
  { file: 'index.json', where: 'weapons.light_mace', key: 'name_0', means: 'name' },
];

/** What a rule's parameter x means, in our own words (the source only has the rules' prose). */
export function parameterMeaning(ruleId: string): string | undefined {
  if (ruleId === 'icon') return 'the keyword(s) of the friendly units near it that benefit, e.g. "Infantry"';
  if (ruleId === 'repair') return 'the highest D10 score that repairs a damaged vehicle or war machine near it';
  if (ruleId.endsWith('_tactics') || ruleId === 'great_leader')
    return 'how many friendly units near it, of the keyword the rule names, it may pick to share its re-rolls when activated';
  return undefined;
}

/** The same for core rules (defined outside this data), where the meaning is certain. */
export const CORE_RULE_PARAMETERS: Readonly<Record<string, string>> = {
  wounds: 'wounds the model has (1 without the rule)',
  power: 'how many powers the model can use (core rules, Powers)',
};

export type Json = unknown;
export const isRecord = (value: Json): value is Record<string, Json> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const pathKey = (where: string, key: string): string => (where === '' ? key : `${where}.${key}`);

/** Problems found in one source file, and the references it makes. */
export class SourceReader {
  readonly problems: SourceProblem[] = [];
  /** Rule ids referenced, with whether one came with x. */
  readonly ruleUses = new Map<string, boolean>();
  constructor(
    readonly file: string,
    readonly base: string,
  ) {}

  fail(where: string, message: string): undefined {
    this.problems.push({ file: this.file, where: where || '(root)', message });
    return undefined;
  }

  record(value: Json, where: string, allowed: readonly string[]): Record<string, Json> | undefined {
    if (!isRecord(value)) return this.fail(where, `expected an object, found ${JSON.stringify(value)}`);
    const misspelt = MISSPELT_FIELDS.filter((entry) => entry.file === this.base && entry.where === where);
    const out: Record<string, Json> = { ...value };
    for (const entry of misspelt) {
      out[entry.means] = out[entry.key];
      delete out[entry.key];
    }
    for (const key of Object.keys(out))
      if (!allowed.includes(key)) this.fail(pathKey(where, key), `unknown field (known: ${allowed.join(', ')})`);
    return out;
  }

  list(value: Json, where: string): Json[] {
    if (Array.isArray(value)) return value;
    this.fail(where, `expected a list, found ${JSON.stringify(value)}`);
    return [];
  }

  text(value: Json, where: string): string {
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    this.fail(where, `expected text, found ${JSON.stringify(value)}`);
    return '?';
  }

  id(value: Json, where: string): string {
    if (typeof value === 'string' && /^\S+$/.test(value)) return value;
    this.fail(where, `expected an id, found ${JSON.stringify(value)}`);
    return '?';
  }

  int(value: Json, where: string, min: number): number {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min) return value;
    this.fail(where, `expected a whole number ≥ ${min}, found ${JSON.stringify(value)}`);
    return min;
  }

  ruleRef(value: Json, where: string): RuleRef {
    if (typeof value === 'string') return this.useRule({ id: this.id(value, where) }, false);
    const ref = this.record(value, where, ['id', 'x']);
    if (ref === undefined) return { id: '?' };
    const { x } = ref;
    if (x === undefined) return this.useRule({ id: this.id(ref.id, pathKey(where, 'id')) }, false);
    if (typeof x !== 'number' && typeof x !== 'string')
      this.fail(pathKey(where, 'x'), `expected a number or text, found ${JSON.stringify(x)}`);
    return this.useRule({ id: this.id(ref.id, pathKey(where, 'id')), x: typeof x === 'number' || typeof x === 'string' ? x : 0 }, true);
  }

  private useRule(ref: RuleRef, withX: boolean): RuleRef {
    this.ruleUses.set(ref.id, (this.ruleUses.get(ref.id) ?? false) || withX);
    return ref;
  }

  ruleRefs(value: Json, where: string): RuleRef[] {
    return value === undefined ? [] : this.list(value, where).map((item, index) => this.ruleRef(item, `${where}[${index}]`));
  }

  weaponRef(value: Json, where: string, weapons: ReadonlySet<string>): WeaponRef {
    let ref: WeaponRef;
    if (typeof value === 'string') ref = { id: this.id(value, where), count: 1 };
    else {
      const object = this.record(value, where, ['id', 'count', 'x']);
      if (object === undefined) return { id: '?', count: 1 };
      ref = {
        id: this.id(object.id, pathKey(where, 'id')),
        count: object.count === undefined ? 1 : this.int(object.count, pathKey(where, 'count'), 1),
      };
      if (object.x !== undefined) ref.x = this.int(object.x, pathKey(where, 'x'), 0);
    }
    if (weapons.has(ref.id) || ref.id === '?') return ref;
    if (UNRESOLVED_WEAPONS.some((known) => known.file === this.base && known.where === where && known.id === ref.id))
      return { ...ref, unresolved: true };
    const near = closestNames(ref.id, [...weapons]);
    this.fail(
      where,
      `unknown weapon ${JSON.stringify(ref.id)}: neither the index nor the faction defines it${near.length > 0 ? ` (did you mean ${near.map((name) => JSON.stringify(name)).join(', ')}?)` : ''}`,
    );
    return ref;
  }

  /** A list of choices: each element one choice, a bare element a choice of one (the app's castArray). */
  choices<T>(value: Json, where: string, item: (value: Json, where: string) => T): T[][] {
    const list = Array.isArray(value) ? value : [value];
    return list.map((choice, index) => {
      const at = Array.isArray(value) ? `${where}[${index}]` : where;
      return Array.isArray(choice) ? choice.map((element, inner) => item(element, `${at}[${inner}]`)) : [item(choice, at)];
    });
  }

  /** "-" is a missing characteristic; a number in text ("12") is read as the number, as the app's arithmetic does. */
  stats(model: Record<string, Json>, where: string): Stats {
    const entries = STAT_NAMES.map((name) => {
      const key = SOURCE_STAT_NAMES[name];
      const value = model[key];
      const at = pathKey(where, key);
      if (value === '-') return [name, null] as const;
      if (typeof value === 'string' && /^\d+$/.test(value)) return [name, Number(value)] as const;
      return [name, this.int(value, at, 0)] as const;
    });
    return Object.fromEntries(entries) as Stats;
  }

  profile(value: Record<string, Json>, where: string): Omit<WeaponProfile, 'name'> {
    const short = value.short === 'Melee' ? 'melee' : this.int(value.short, pathKey(where, 'short'), 1);
    if (short === 'melee' && value.medium !== undefined) this.fail(pathKey(where, 'medium'), 'a melee weapon with a long range band');
    return {
      attacks: this.int(value.attacks, pathKey(where, 'attacks'), 0),
      ap: value.ap === undefined ? 0 : this.int(value.ap, pathKey(where, 'ap'), 0),
      short,
      long: value.medium === undefined || short === 'melee' ? null : this.int(value.medium, pathKey(where, 'medium'), 1),
      rules: this.ruleRefs(value.rules, pathKey(where, 'rules')),
    };
  }

  weapon(id: string, value: Json, where: string): Weapon | undefined {
    const weapon = this.record(value, where, ['name', 'attacks', 'ap', 'short', 'medium', 'rules', 'profiles']);
    if (weapon === undefined) return undefined;
    const name = this.text(weapon.name, pathKey(where, 'name'));
    if (weapon.profiles === undefined) return { id, name, ...this.profile(weapon, where) };
    for (const key of ['attacks', 'ap', 'short', 'medium'])
      if (weapon[key] !== undefined) this.fail(pathKey(where, key), 'a weapon with profiles has its stats in them');
    const profiles = this.list(weapon.profiles, pathKey(where, 'profiles')).map((item, index) => {
      const at = `${where}.profiles[${index}]`;
      const profile = this.record(item, at, ['name', 'attacks', 'ap', 'short', 'medium', 'rules']) ?? {};
      return { name: this.text(profile.name, pathKey(at, 'name')), ...this.profile(profile, at) };
    });
    if (profiles.length < 2) this.fail(pathKey(where, 'profiles'), 'fewer than two profiles');
    return { id, name, rules: this.ruleRefs(weapon.rules, pathKey(where, 'rules')), profiles };
  }

  rule(id: string, value: Json, where: string): Rule | undefined {
    const rule = this.record(value, where, ['name', 'description', 'points', 'inputs']);
    if (rule === undefined) return undefined;
    const out: Rule = { id, name: this.text(rule.name, pathKey(where, 'name')) };
    if (rule.points !== undefined) {
      const points = pointsExpressionSchema.safeParse(rule.points);
      if (points.success) out.points = points.data;
      else this.fail(pathKey(where, 'points'), `not a points expression the converter knows: ${JSON.stringify(rule.points)}`);
    }
    if (rule.inputs !== undefined) {
      if (JSON.stringify(rule.inputs) !== '["x"]')
        this.fail(pathKey(where, 'inputs'), `only ["x"] is known, found ${JSON.stringify(rule.inputs)}`);
      const meaning = parameterMeaning(id);
      if (meaning === undefined)
        this.fail(
          pathKey(where, 'inputs'),
          `no meaning recorded for rule ${JSON.stringify(id)}'s parameter: add one to parameterMeaning in scripts/battleforge-json.ts`,
        );
      else out.parameter = meaning;
    }
    return out;
  }

  power(id: string, value: Json, where: string): Power | undefined {
    const power = this.record(value, where, ['name', 'description', 'charge', 'category', 'school', 'subfactions']);
    if (power === undefined) return undefined;
    const out: Power = {
      id,
      name: this.text(power.name, pathKey(where, 'name')),
      charge: this.int(power.charge, pathKey(where, 'charge'), 1),
    };
    if (power.category !== undefined) out.category = this.id(power.category, pathKey(where, 'category'));
    if (power.school !== undefined) out.school = this.id(power.school, pathKey(where, 'school'));
    if (power.subfactions !== undefined) out.subfactions = this.ids(power.subfactions, pathKey(where, 'subfactions'));
    Object.assign(out, powerEffect(typeof power.description === 'string' ? power.description : ''));
    return out;
  }

  ids(value: Json, where: string): string[] {
    return this.list(value, where).map((item, index) => this.id(item, `${where}[${index}]`));
  }

  option(value: Json, where: string, weapons: ReadonlySet<string>): UnitOption {
    const keys = ['replaceWeapon', 'withWeapon', 'addWeapon', 'replaceRule', 'withRule', 'addRule', 'modelLimit', 'limit', 'subfactions'];
    const option = this.record(value, where, keys) ?? {};
    const weapon = (item: Json, at: string): WeaponRef => this.weaponRef(item, at, weapons);
    const rule = (item: Json, at: string): RuleRef => this.ruleRef(item, at);
    const out: UnitOption = {};
    const at = (key: string): string => pathKey(where, key);
    if (option.replaceWeapon !== undefined) out.replaceWeapon = this.choices(option.replaceWeapon, at('replaceWeapon'), weapon).flat();
    if (option.withWeapon !== undefined) out.withWeapon = this.choices(option.withWeapon, at('withWeapon'), weapon);
    if (option.addWeapon !== undefined) out.addWeapon = this.choices(option.addWeapon, at('addWeapon'), weapon);
    if (option.replaceRule !== undefined) out.replaceRule = this.choices(option.replaceRule, at('replaceRule'), rule).flat();
    if (option.withRule !== undefined) out.withRule = this.choices(option.withRule, at('withRule'), rule);
    if (option.addRule !== undefined) out.addRule = this.choices(option.addRule, at('addRule'), rule);
    if ((out.replaceWeapon === undefined) !== (out.withWeapon === undefined))
      this.fail(where, 'replaceWeapon and withWeapon come together');
    if ((out.replaceRule === undefined) !== (out.withRule === undefined)) this.fail(where, 'replaceRule and withRule come together');
    const limit = option.modelLimit;
    if (limit === 'all' || typeof limit === 'number') out.modelLimit = limit === 'all' ? 'all' : this.int(limit, at('modelLimit'), 1);
    else if (typeof limit === 'string' && /^\d+\/\d+$/.test(limit)) {
      const [count = 0, per = 0] = limit.split('/').map(Number);
      out.modelLimit = { count: this.int(count, at('modelLimit'), 1), per: this.int(per, at('modelLimit'), 1) };
    } else if (limit !== undefined) this.fail(at('modelLimit'), `expected a number, "all" or "n/m", found ${JSON.stringify(limit)}`);
    if (option.limit !== undefined) out.limit = this.int(option.limit, at('limit'), 1);
    if (option.subfactions !== undefined) out.subfactions = this.ids(option.subfactions, at('subfactions'));
    return out;
  }

  model(value: Json, where: string, weapons: ReadonlySet<string>): Model | undefined {
    const keys = ['name', 'movement', 'shoot', 'fight', 'defense', 'courage', 'reflexes', 'weapons', 'rules', 'min', 'max', 'options'];
    const model = this.record(value, where, keys);
    if (model === undefined) return undefined;
    const min = this.int(model.min, pathKey(where, 'min'), 0);
    const max = this.int(model.max, pathKey(where, 'max'), 0);
    if (max < min) this.fail(pathKey(where, 'max'), `max ${max} is below min ${min}`);
    return {
      name: this.text(model.name, pathKey(where, 'name')),
      stats: this.stats(model, where),
      min,
      max,
      weapons: this.list(model.weapons, pathKey(where, 'weapons')).map((item, index) =>
        this.weaponRef(item, `${where}.weapons[${index}]`, weapons),
      ),
      rules: this.ruleRefs(model.rules, pathKey(where, 'rules')),
      options:
        model.options === undefined
          ? []
          : this.list(model.options, pathKey(where, 'options')).map((item, index) =>
              this.option(item, `${where}.options[${index}]`, weapons),
            ),
    };
  }

  unit(id: string, value: Json, where: string, weapons: ReadonlySet<string>, categories: ReadonlySet<string>): Unit | undefined {
    const keys = ['name', 'description', 'Description', 'category', 'min', 'max', 'keywords', 'subfactions', 'rules', 'models', 'options'];
    const unit = this.record(value, where, keys);
    if (unit === undefined) return undefined;
    // One unit gives its category as a one-element list.
    const rawCategory = Array.isArray(unit.category) && unit.category.length === 1 ? unit.category[0] : unit.category;
    const category = this.id(rawCategory, pathKey(where, 'category'));
    if (!categories.has(category))
      this.fail(pathKey(where, 'category'), `unknown category ${JSON.stringify(category)} (index: ${[...categories].join(', ')})`);
    const name = this.text(unit.name, pathKey(where, 'name'));
    const optional = {
      ...(unit.min === undefined ? {} : { min: this.int(unit.min, pathKey(where, 'min'), 0) }),
      ...(unit.max === undefined ? {} : { max: this.int(unit.max, pathKey(where, 'max'), 0) }),
      ...(unit.keywords === undefined
        ? {}
        : {
            keywords: this.list(unit.keywords, pathKey(where, 'keywords')).map((item, index) =>
              this.text(item, `${where}.keywords[${index}]`),
            ),
          }),
      ...(unit.subfactions === undefined ? {} : { subfactions: this.ids(unit.subfactions, pathKey(where, 'subfactions')) }),
    };
    const rules = this.ruleRefs(unit.rules, pathKey(where, 'rules'));
    const models = this.list(unit.models, pathKey(where, 'models')).flatMap(
      (item, index) => this.model(item, `${where}.models[${index}]`, weapons) ?? [],
    );
    if (models.length === 0) this.fail(pathKey(where, 'models'), 'no models');
    const options =
      unit.options === undefined
        ? []
        : this.list(unit.options, pathKey(where, 'options')).map((item, index) => this.option(item, `${where}.options[${index}]`, weapons));
    const out: Unit = { id, name, category, ...optional, rules, models, options };
    return out;
  }
}

/**
 * The numbers of a power's effect, where its text has one of the two forms the engine models: an
 * enemy unit within R" takes N hits with AP(A), or an enemy unit within R" gains N Shock. The text
 * itself is not kept (it is prose); other powers get no effect and are not cast by the engine.
 */
export function powerEffect(text: string): Pick<Power, 'attack' | 'shock' | 'range' | 'unlimited'> {
  const effect: Pick<Power, 'attack' | 'shock' | 'range' | 'unlimited'> = {};
  const attack = /^Target enemy (?:unit|model) within (\d+)" takes? (\d+) hits?(?: each)? with AP\((\d+)\)/i.exec(text);
  const shock = /^Target enemy unit within (\d+)" gains (\d+) Shock/i.exec(text);
  if (attack !== null) effect.attack = { range: Number(attack[1]), hits: Number(attack[2]), ap: Number(attack[3]) };
  else if (shock !== null) {
    effect.range = Number(shock[1]);
    effect.shock = Number(shock[2]);
  }
  if (/may be cast unlimited times/i.test(text)) effect.unlimited = true;
  return effect;
}
