import { z } from 'zod';
import { locateData } from '../data-location.js';
import { applyOverrides } from '../overrides.js';
import { parsedRefs } from '../refs-check.js';
import type { ValidationIssue } from '../validation.js';
import type { BundledData, DataFiles, LoadResult, Problem } from '../rule-system.js';
import type { ModelProfile, PowerProfile, UnitProfile, WeaponProfile } from './profile.js';
import { type Scenario, scenarioSchema } from './schema.js';
import {
  type CombatModel,
  combatModels,
  type FactionFile,
  factionFileSchema,
  type IndexFile,
  indexFileSchema,
  weaponTable,
} from './units.js';
import { saveBonuses } from './save-rules.js';
import { validateBattleforge } from './validate.js';

/** The combat profiles and powers a Battle Forge scenario uses, keyed `<faction>/<id>` (plain JSON: sent to workers). */
export interface BattleforgeRefs {
  readonly profiles: Readonly<Record<string, UnitProfile>>;
  readonly powers: Readonly<Record<string, PowerProfile>>;
}

const count = z.number().int().min(0);
const weaponProfileSchema = z.strictObject({
  name: z.string().min(1),
  attacks: count.max(100),
  copies: count.max(100),
  ap: count.max(10),
  melee: z.boolean(),
  short: z.number().min(0).max(200),
  long: z.number().min(0).max(200),
});
const modelProfileSchema = z.strictObject({
  name: z.string().min(1),
  count: count.max(1000),
  hasCharacteristics: z.boolean(),
  movement: count.max(20),
  accuracy: count.max(10),
  strength: count.max(10),
  save: count.max(10),
  meleeSave: count.max(10).optional(),
  initiative: count.max(10),
  courage: count.max(10),
  wounds: z.number().int().min(1).max(100),
  weapons: z.array(weaponProfileSchema),
});
/** A combat profile as the engine reads it (profile.ts), checked after a scenario's `units:` changes. */
const unitProfileSchema = z.strictObject({
  reference: z.string(),
  name: z.string().min(1),
  models: z.array(modelProfileSchema).min(1),
  powerSlots: count.max(10).optional(),
});

/** A power the engine casts: one whose effect the converter read as hits or Shock; undefined otherwise. */
function powerProfile(power: IndexFile['powers'][number]): PowerProfile | undefined {
  if (power.attack !== undefined)
    return { name: power.name, cast: power.charge, range: power.attack.range, hits: power.attack.hits, ap: power.attack.ap, shock: 0 };
  if (power.shock !== undefined && power.range !== undefined)
    return { name: power.name, cast: power.charge, range: power.range, hits: 0, ap: 0, shock: power.shock };
  return undefined;
}

/**
 * A weapon as the engine uses it: for each way of attacking (melee, ranged) the first profile of
 * that kind, since a weapon's profiles are alternatives (a thrown and a held javelin).
 */
function weaponProfiles(model: CombatModel): WeaponProfile[] {
  const seen = new Set<string>();
  const weapons: WeaponProfile[] = [];
  for (const weapon of model.weapons) {
    const key = `${weapon.id}:${weapon.melee ? 'melee' : 'ranged'}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const long = weapon.long ?? weapon.short ?? 0;
    weapons.push({
      name: weapon.profile === null ? weapon.name : `${weapon.name} (${weapon.profile})`,
      attacks: weapon.attacks,
      copies: weapon.count,
      ap: weapon.ap,
      melee: weapon.melee,
      short: weapon.short ?? long,
      long,
    });
  }
  return weapons;
}

/** A faction unit's combat profile: each model type at its minimum count (at least one model in the unit). */
export function unitProfile(faction: string, unit: FactionFile['units'][number], weapons: ReturnType<typeof weaponTable>): UnitProfile {
  const models = combatModels(unit, weapons);
  const anyMinimum = models.some((model) => model.min > 0);
  const profiles = models.map((model, m): ModelProfile => {
    // Armour and shields: the model's and unit's rules and its weapons' (a Shield is a weapon with the `shield` rule).
    const bonus = saveBonuses([...model.rules, ...model.weapons.flatMap((weapon) => weapon.rules)].map((rule) => rule.id));
    return {
      name: model.name,
      count: anyMinimum ? model.min : m === 0 ? 1 : 0,
      hasCharacteristics: model.canBeAssignedHits,
      movement: model.stats.movement ?? 0,
      accuracy: model.stats.accuracy ?? 0,
      strength: model.stats.strength ?? 0,
      save: (model.stats.save ?? 0) + bonus.shooting,
      // Only where it differs (a buckler): a `units:` change of `save` then changes both.
      ...(bonus.melee === bonus.shooting ? {} : { meleeSave: (model.stats.save ?? 0) + bonus.melee }),
      initiative: model.stats.initiative ?? 0,
      courage: model.stats.courage ?? 0,
      wounds: model.wounds,
      weapons: weaponProfiles(model),
    };
  });
  const slots = Math.max(
    0,
    ...models.flatMap((model) =>
      model.rules.filter((rule) => rule.id === 'power' && typeof rule.x === 'number').map((rule) => Number(rule.x)),
    ),
  );
  return { reference: `${faction}/${unit.id}`, name: unit.name, models: profiles, powerSlots: slots };
}

const DEFAULT_DATA = scenarioSchema.shape.data.parse(undefined);

/**
 * Where a scenario's Battle Forge data is (`data`, or the bundled data: engine/data-location.ts):
 * `<data>/index.yaml`, `<data>/factions/`, and the faction ids there; a problem when no factions/ can be read.
 */
export async function dataFolder(
  scenario: Scenario,
  file: string,
  files: DataFiles,
): Promise<{ indexFile: string; factionsDirectory: string; factionIds: string[]; bundled?: BundledData } | { problem: Problem }> {
  const factionsOf = (directory: string): Promise<readonly string[] | undefined> => files.list(files.join(directory, 'factions'));
  const field = { name: 'data', value: scenario.data, defaultValue: DEFAULT_DATA, what: 'Battle Forge data' };
  const location = await locateData(files, file, 'battleforge', field, async (directory) => (await factionsOf(directory)) !== undefined);
  if ('problem' in location) return location;
  const factionsDirectory = files.join(location.path, 'factions');
  const listing = await files.list(factionsDirectory);
  if (listing === undefined)
    return { problem: { file, path: 'data', message: `Battle Forge data not found: ${factionsDirectory} cannot be read` } };
  const factionIds = listing.filter((name) => name.endsWith('.yaml')).map((name) => name.slice(0, -'.yaml'.length));
  return {
    indexFile: files.join(location.path, 'index.yaml'),
    factionsDirectory,
    factionIds,
    ...(location.bundled === undefined ? {} : { bundled: location.bundled }),
  };
}

/** A faction file, checked against its format: its units' combat profiles and the powers it may use (the index's, then its own), keyed `<faction>/<id>`. */
export async function readFaction(
  files: DataFiles,
  factionsDirectory: string,
  faction: string,
  index: IndexFile,
): Promise<{
  file: string;
  value?: FactionFile;
  profiles: Map<string, UnitProfile>;
  powers: Map<string, IndexFile['powers'][number]>;
  problems: Problem[];
}> {
  const factionFile = files.join(factionsDirectory, `${faction}.yaml`);
  const profiles = new Map<string, UnitProfile>();
  const powers = new Map<string, IndexFile['powers'][number]>();
  const { value, problems } = await files.readChecked(factionFile, factionFileSchema);
  if (value === undefined) return { file: factionFile, profiles, powers, problems };
  const weapons = weaponTable(index, value);
  for (const unit of value.units) profiles.set(`${faction}/${unit.id}`, unitProfile(faction, unit, weapons));
  for (const power of [...index.powers, ...value.powers]) powers.set(`${faction}/${power.id}`, power);
  return { file: factionFile, value, profiles, powers, problems };
}

/** The scenario's `units:` changes laid over the combat profiles (models and weapons by name: engine/overrides.ts), each checked; new ones come last. */
export function scenarioProfiles(
  profiles: ReadonlyMap<string, UnitProfile>,
  scenario: Scenario,
  file: string,
  files: DataFiles,
): { entries: Map<string, UnitProfile>; problems: Problem[] } {
  return applyOverrides(
    profiles,
    scenario.units,
    (reference) => ({ reference }),
    (reference, merged) => {
      const { value, problems: found } = files.check(file, unitProfileSchema, merged, ['units', reference]);
      return { ...(value === undefined ? {} : { value: value as UnitProfile }), problems: found };
    },
  );
}

/** The powers the engine can cast (those doing hits or Shock), by the same keys. */
export function castablePowers(powers: ReadonlyMap<string, IndexFile['powers'][number]>): Map<string, PowerProfile> {
  const castable = new Map<string, PowerProfile>();
  for (const [key, power] of powers) {
    const profile = powerProfile(power);
    if (profile !== undefined) castable.set(key, profile);
  }
  return castable;
}

/**
 * Loading a Battle Forge scenario: the data's index.yaml and the faction files its units name
 * (`<faction>/<unit>` → `<data>/factions/<faction>.yaml`), each checked against its format; then
 * the units' combat profiles and the scenario's references (validate.ts).
 */
export async function loadBattleforge(scenario: Scenario, file: string, files: DataFiles): Promise<LoadResult<BattleforgeRefs>> {
  const folder = await dataFolder(scenario, file, files);
  if ('problem' in folder) return { inputs: [file], problems: [folder.problem] };
  const { indexFile, factionsDirectory, factionIds } = folder;
  const problems: Problem[] = [];
  const inputs = [file, indexFile];
  const { value: index, problems: indexProblems } = await files.readChecked(indexFile, indexFileSchema);
  problems.push(...indexProblems);
  if (index === undefined || problems.length > 0) return { inputs, problems };

  const wanted = [
    ...new Set(
      [...scenario.sides.flatMap((side) => side.units.map((unit) => unit.unit)), ...Object.keys(scenario.units)].map(
        (reference) => reference.split('/')[0] ?? '',
      ),
    ),
  ]
    .filter((id) => factionIds.includes(id))
    .sort();
  const profiles = new Map<string, UnitProfile>();
  const powers = new Map<string, IndexFile['powers'][number]>();
  for (const faction of wanted) {
    const read = await readFaction(files, factionsDirectory, faction, index);
    inputs.push(read.file);
    problems.push(...read.problems);
    for (const [key, profile] of read.profiles) profiles.set(key, profile);
    for (const [key, power] of read.powers) powers.set(key, power);
  }
  const changed = scenarioProfiles(profiles, scenario, file, files);
  problems.push(...changed.problems);
  if (problems.length > 0) return { inputs, problems };
  const castable = castablePowers(powers);
  const issues = validateBattleforge(scenario, changed.entries, factionIds, { known: new Set(powers.keys()), castable }).map((issue) => ({
    file,
    path: files.formatPath(issue.path),
    message: issue.message,
  }));
  if (issues.length > 0) return { inputs, problems: issues };
  const used = Object.fromEntries(
    scenario.sides.flatMap((side) => side.units.map((unit) => [unit.unit, changed.entries.get(unit.unit) as UnitProfile] as const)),
  );
  const usedPowers = Object.fromEntries(
    scenario.sides
      .flatMap((side) => side.units.flatMap((unit) => unit.powers.map((id) => `${unit.unit.split('/')[0] ?? ''}/${id}`)))
      .map((key) => [key, castable.get(key) as PowerProfile] as const),
  );
  return {
    refs: { profiles: used, powers: usedPowers },
    inputs,
    problems: [],
    ...(folder.bundled === undefined ? {} : { bundled: [folder.bundled] }),
  };
}

/** A castable power as the engine reads it (powerProfile above). */
const powerProfileSchema = z.strictObject({
  name: z.string().min(1),
  cast: count.max(100),
  range: z.number().min(0).max(200),
  hits: count.max(100),
  ap: count.max(10),
  shock: count.max(100),
});
const battleforgeRefsSchema = z.strictObject({
  profiles: z.record(z.string(), unitProfileSchema),
  powers: z.record(z.string(), powerProfileSchema),
});

/** checkRefs (engine/rule-system.ts): each profile and power in its format, then the scenario against them (dice per action…). */
export function checkBattleforgeRefs(scenario: Scenario, refs: unknown): ValidationIssue[] {
  const parsed = parsedRefs(battleforgeRefsSchema, refs);
  if ('issues' in parsed) return parsed.issues;
  const profiles = new Map(Object.entries(parsed.value.profiles) as [string, UnitProfile][]);
  const castable = new Map(Object.entries(parsed.value.powers));
  const factions = [...new Set([...profiles.keys()].map((key) => key.split('/')[0] ?? ''))];
  return validateBattleforge(scenario, profiles, factions, { known: new Set(castable.keys()), castable });
}
