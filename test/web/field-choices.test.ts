import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Choice, FieldChoices } from '../../engine/rule-system.js';
import { fileSystemData } from '../../input/data-file.js';
import { InputError } from '../../input/errors.js';
import {
  type LoadedScenario,
  loadScenarioChanged,
  loadScenarioData,
  loadScenarioFile,
  readScenarioData,
} from '../../input/scenario-file.js';
import { BUILT_IN_EXAMPLES } from '../helpers/examples.js';
import { REPOSITORY } from '../helpers/repository.js';

/**
 * Every built-in rule system's `choices` (engine/<system>/choices.ts), for the workbench's pickers,
 * on every bundled scenario: the values a scenario uses are among those offered, each pattern's
 * values are unique, and a reference changed to another offered value still loads.
 */

/**
 * Every bundled scenario of every rule system engine/registry.ts lists (its examples.ts's
 * `scenarios` folder), with the patterns its `choices` may return (`choices` there: `always` for
 * every scenario, `maybe` when the scenario calls for them — battleforge's powers: when it has a caster).
 */
const scenarios = BUILT_IN_EXAMPLES.flatMap((found) => {
  const folder = found.file(found.examples.scenarios);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => ({ system: found.system.id, patterns: found.examples.choices, name, file: path.join(folder, name) }));
});

type Key = string | number;
interface Found {
  readonly path: readonly Key[];
  readonly value: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Where a pattern (`sides[].groups[].unit`) reaches in `data`: with `expandLast` false, the fields its
 * last step names (a list itself, for `characters[]`); with true, each value there (each element).
 */
function walk(data: unknown, pattern: string, expandLast = true): Found[] {
  let found: Found[] = [{ path: [], value: data }];
  const steps = pattern.split('.');
  steps.forEach((step, s) => {
    const each = step.endsWith('[]');
    const key = each ? step.slice(0, -2) : step;
    const next: Found[] = [];
    for (const { path: at, value } of found) {
      if (!isRecord(value) || !Object.hasOwn(value, key)) continue;
      const field = value[key];
      if (!each || (s === steps.length - 1 && !expandLast)) next.push({ path: [...at, key], value: field });
      else if (Array.isArray(field)) field.forEach((element: unknown, i) => next.push({ path: [...at, key, i], value: element }));
    }
    found = next;
  });
  return found;
}

function setAt(data: unknown, at: readonly Key[], value: unknown): unknown {
  const copy = structuredClone(data);
  let node = copy as Record<Key, unknown>;
  at.slice(0, -1).forEach((key) => {
    node = node[key] as Record<Key, unknown>;
  });
  node[at.at(-1) as Key] = value;
  return copy;
}

/** Messages that would mean a choice was not a value the loader knows (rather than one the rest of the scenario does not fit). */
const UNKNOWN_REFERENCE = /unknown|no unit "|no power "|cannot fight|not a troop|not a character|does neither|not found/;

/** A bundled scenario, read as `system`'s whatever its `ruleset:` names (a plugin's scenarios name its module). */
const loadExampleFile = (system: string, file: string): Promise<LoadedScenario> =>
  loadScenarioChanged(file, { fields: [['ruleset', system]] });

const choicesOf = async (loaded: LoadedScenario): Promise<FieldChoices> => {
  expect(loaded.system.choices).toBeTypeOf('function');
  return loaded.system.choices?.(loaded.scenario, loaded.file, fileSystemData) ?? {};
};

describe('field choices of the bundled scenarios', () => {
  it("covers every rule system engine/registry.ts lists; its examples name its choices' patterns exactly when it has `choices`", () => {
    for (const { system, examples } of BUILT_IN_EXAMPLES) {
      expect(
        scenarios.some((scenario) => scenario.system === system.id),
        system.id,
      ).toBe(true);
      expect(examples.choices !== undefined, `${system.id}: choices patterns in its examples.ts`).toBe(system.choices !== undefined);
    }
  });

  for (const { system, patterns, name, file } of scenarios.filter((scenario) => scenario.patterns !== undefined)) {
    it(`${system}/${name}`, async () => {
      const loaded = await loadExampleFile(system, file);
      expect(loaded.system.id).toBe(system);
      const choices = await choicesOf(loaded);
      const expected = patterns ?? { always: [], maybe: [] };
      for (const pattern of expected.always) expect(Object.keys(choices)).toContain(pattern);
      for (const pattern of Object.keys(choices)) expect([...expected.always, ...expected.maybe]).toContain(pattern);

      const data = { ...((await readScenarioData(file)).data as Record<string, unknown>), ruleset: system };
      for (const [pattern, offered] of Object.entries(choices)) {
        // The pattern names a real field of the format (the parsed scenario has every default filled in).
        expect(walk(loaded.scenario, pattern, false).length, pattern).toBeGreaterThan(0);
        expect(offered.length, pattern).toBeGreaterThan(0);
        const values = offered.map((choice) => choice.value);
        expect(new Set(values).size, `${pattern}: values unique`).toBe(values.length);
        for (const choice of offered) {
          expect(choice.value, pattern).toMatch(/\S/);
          expect(choice.label, pattern).toMatch(/\S/);
        }
        for (const used of walk(loaded.scenario, pattern))
          expect(values, `${pattern}: ${String(used.value)} is offered`).toContain(used.value);

        // Every value offered is one the scenario format accepts there (written at the first place the
        // pattern reaches in the file, or as the only element of a list the file leaves out).
        const [place] = walk(data, pattern);
        const container = walk(loaded.scenario, pattern, false)[0];
        const writeAt = place?.path ?? container?.path ?? [];
        const written = (value: string): unknown => setAt(data, writeAt, place === undefined ? [value] : value);
        const format = loaded.system.scenarioSchema;
        const refused = values.filter((value) => {
          const changed = written(value);
          return !format.safeParse(loaded.system.upgrade?.(changed) ?? changed).success;
        });
        expect(refused, `${pattern}: values the scenario format refuses`).toEqual([]);

        // A reference in the file changed to another offered value, from the last back (the first
        // reference first; another when the rest of its entry does not fit, e.g. a heroic group's
        // weapon set): one loads, and none fails for naming something the loader does not know.
        let changed: LoadedScenario | undefined;
        let tried: Choice | undefined;
        search: for (const found of walk(data, pattern)) {
          for (const candidate of [...offered]
            .reverse()
            .filter((choice) => choice.value !== found.value)
            .slice(0, 6)) {
            tried = candidate;
            try {
              changed = await loadScenarioData(file, setAt(data, found.path, candidate.value));
              break search;
            } catch (error) {
              if (!(error instanceof InputError)) throw error;
              for (const problem of error.problems)
                expect(problem.message, `${pattern} = ${candidate.value}`).not.toMatch(UNKNOWN_REFERENCE);
            }
          }
        }
        if (tried === undefined) continue;
        expect(changed, `${pattern}: no other choice loads`).toBeDefined();
        expect(walk(changed?.scenario, pattern).map((found) => found.value)).toContain(tried?.value);
      }
    });
  }
});

describe('field choices follow the scenario', () => {
  const scenarioFile = (system: string, name: string): string => path.join(REPOSITORY, 'data', system, 'scenarios', name);

  it('heroic: a unit the scenario adds under units: is offered, and can be fielded', async () => {
    const file = scenarioFile('heroic', 'sylvan-knights-singly.yaml');
    const { data } = await readScenarioData(file);
    const golem = { name: 'Test Golem', def: 4, shield: true, might: 6, will: 3, weapons: [{ name: 'Fists', type: 'melee', atk: 3 }] };
    const loaded = await loadScenarioData(file, { ...(data as Record<string, unknown>), units: { 'test-golem': golem } });
    const offered = (await choicesOf(loaded))['sides[].groups[].unit'] ?? [];
    const choice = offered.find((entry) => entry.value === 'test-golem');
    expect(choice?.label).toBe('Test Golem — DEF 4 (S), MIGHT 6, WILL 3 (this scenario)');
    const [first] = walk(loaded.scenario, 'sides[].groups[].unit');
    await expect(
      loadScenarioData(file, setAt(setAt(data, ['units'], { 'test-golem': golem }), first?.path ?? [], 'test-golem')),
    ).resolves.toBeDefined();
  });

  it('warmaster: labels name the army, the entry and its type; a character offered can join a unit', async () => {
    const file = scenarioFile('warmaster', 'monster-charge.yaml');
    const loaded = await loadScenarioFile(file);
    const choices = await choicesOf(loaded);
    expect(choices['sides[].units[].unit']).toContainEqual({ value: 'orcs/giant', label: 'Orcs — Giant (Monster)' });
    // Entries the combat engine cannot roll are not offered (validate.ts refuses them).
    expect(choices['sides[].units[].unit']?.some((choice) => choice.value === 'orcs/orc-warriors')).toBe(true);
    const characters = choices['sides[].units[].characters[]'] ?? [];
    expect(characters.length).toBeGreaterThan(0);
    const { data } = await readScenarioData(file);
    const character = characters.at(-1)?.value;
    const changed = await loadScenarioData(file, setAt(data, ['sides', 0, 'units', 0, 'characters'], [character]));
    expect(walk(changed.scenario, 'sides[].units[].characters[]').map((found) => found.value)).toEqual([character]);
  });

  it('battleforge: units by faction, and the powers its casters know', async () => {
    const loaded = await loadScenarioFile(scenarioFile('battleforge', 'battlemage-vs-orc-warriors.yaml'));
    const choices = await choicesOf(loaded);
    expect(choices['sides[].units[].unit']).toContainEqual({
      value: 'orcs_and_goblins/orc_warriors',
      label: 'Orcs and Goblins — Orc Warriors (Core)',
    });
    const factions = (choices['sides[].units[].unit'] ?? []).map((choice) => choice.label.split(' — ')[0] ?? '');
    expect(factions).toEqual([...factions].sort((a, b) => a.localeCompare(b, 'en')));
    expect(choices['sides[].units[].powers[]']).toContainEqual({ value: 'fireball', label: 'Fireball — cast 7, 3 hits AP 1, 12″' });
  });

  it('epic: armies by name', async () => {
    const loaded = await loadScenarioFile(scenarioFile('epic', 'guard-company-under-fire.yaml'));
    const armies = (await choicesOf(loaded))['players[].army'] ?? [];
    expect(armies.map((choice) => choice.label)).toEqual(
      [...armies.map((choice) => choice.label)].sort((a, b) => a.localeCompare(b, 'en')),
    );
    expect(armies).toContainEqual({ value: 'orks', label: 'Orks (Strategy Rating 3, Initiative 3+)' });
  });
});
