import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { formatPath as cliFormatPath } from '../../input/errors.js';
import {
  alternativesOf,
  defaultValue,
  distinctItem,
  FIELD_KINDS,
  fieldId,
  fieldKind,
  formatPath,
  humanize,
  itemLabel,
  jsonText,
  type JsonSchema,
  mapKeyProblem,
  mapValueSchema,
  matchAlternative,
  moveItem,
  numberBounds,
  parseJsonText,
  pathPattern,
  problemsAt,
  problemsByPath,
  removeAt,
  resolveSchema,
  type SchemaNode,
  schemaOf,
  setAt,
  showsUnsetInPlace,
  singular,
  valueAt,
} from '../../web/app/schema-form-model.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * The schema form's logic (web/app/schema-form-model.ts) on the real scenario formats: every
 * built-in rule system's scenario schema as the workbench makes it, `z.toJSONSchema(…, { io: 'input' })`.
 */

const SCHEMAS = new Map(
  RULE_SYSTEMS.map((system) => [system.id, { system, schema: z.toJSONSchema(system.scenarioSchema, { io: 'input' }) as JsonSchema }]),
);

function schemaFor(id: string): JsonSchema {
  const entry = SCHEMAS.get(id);
  if (entry === undefined) throw new Error(`no rule system ${id}`);
  return entry.schema;
}

/** The node a path reaches: a string steps into properties, a number into items. */
function nodeAt(root: JsonSchema, ...path: (string | number)[]): JsonSchema {
  let node = schemaOf(root, root);
  for (const key of path) {
    const next: SchemaNode = typeof key === 'number' ? node.items : node.properties?.[key];
    if (next === undefined) throw new Error(`no ${String(key)} in the schema`);
    node = schemaOf(next, root);
  }
  return node;
}

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

describe('classifying the real scenario schemas', () => {
  it('has every rule system engine/registry.ts lists, each scenario format an object', () => {
    expect([...SCHEMAS.keys()]).toEqual(RULE_SYSTEMS.map((system) => system.id));
    for (const [id, { schema }] of SCHEMAS) expect(schemaOf(schema, schema).type, id).toBe('object');
  });

  for (const [id, { schema }] of SCHEMAS) {
    it(`${id}: every node is a known kind, and only an empty node is "any"`, () => {
      const kinds = new Map<string, number>();
      const walk = (node: SchemaNode, at: string, depth: number): void => {
        expect(depth, at).toBeLessThan(30);
        const kind = fieldKind(node, schema);
        expect(FIELD_KINDS, at).toContain(kind);
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
        const resolved = schemaOf(node, schema);
        if (kind === 'any')
          expect(
            Object.keys(resolved).filter((key) => key !== 'description' && key !== 'default'),
            at,
          ).toEqual([]);
        if (kind === 'object') for (const [key, child] of Object.entries(resolved.properties ?? {})) walk(child, `${at}.${key}`, depth + 1);
        if (kind === 'map') walk(mapValueSchema(resolved), `${at}{}`, depth + 1);
        if (kind === 'array') walk(resolved.items, `${at}[]`, depth + 1);
        if (kind === 'union') {
          const alternatives = alternativesOf(resolved, schema);
          expect(alternatives.length, at).toBeGreaterThan(1);
          expect(new Set(alternatives.map((alternative) => alternative.label)).size, `${at}: distinct labels`).toBe(alternatives.length);
          alternatives.forEach((alternative, index) => walk(alternative.schema, `${at}|${index}`, depth + 1));
        }
      };
      walk(schema, id, 0);
      expect(kinds.get('object')).toBeGreaterThan(3);
      expect(kinds.get('array')).toBeGreaterThan(1);
      expect(kinds.get('integer')).toBeGreaterThan(3);
      expect(kinds.get('const')).toBeGreaterThanOrEqual(1);
    });

    it(`${id}: a new scenario made from the schema's defaults is accepted by the zod schema`, () => {
      const { system } = SCHEMAS.get(id) ?? {};
      const data = defaultValue(schema, schema);
      const parsed = system?.scenarioSchema.safeParse(data);
      expect(parsed?.error?.issues ?? [], JSON.stringify(data)).toEqual([]);
      expect((data as Record<string, unknown>).ruleset).toBe(id);
    });
  }

  it('names the kinds of heroic fields', () => {
    const heroic = schemaFor('heroic');
    expect(fieldKind(nodeAt(heroic, 'ruleset'), heroic)).toBe('const');
    expect(fieldKind(nodeAt(heroic, 'name'), heroic)).toBe('string');
    expect(fieldKind(nodeAt(heroic, 'mode'), heroic)).toBe('enum');
    expect(fieldKind(nodeAt(heroic, 'rounds'), heroic)).toBe('integer');
    expect(fieldKind(nodeAt(heroic, 'options'), heroic)).toBe('object');
    expect(fieldKind(nodeAt(heroic, 'units'), heroic)).toBe('map');
    expect(fieldKind(mapValueSchema(nodeAt(heroic, 'units')), heroic)).toBe('map');
    expect(fieldKind(nodeAt(heroic, 'sides'), heroic)).toBe('array');
    expect(fieldKind(nodeAt(heroic, 'sides', 0, 'groups', 0, 'formation'), heroic)).toBe('boolean');
    expect(fieldKind(nodeAt(heroic, 'sides', 0, 'groups', 0), heroic)).toBe('object');
  });

  it('shows an unset field in place only when it has a default and is a single value', () => {
    const heroic = schemaFor('heroic');
    expect(showsUnsetInPlace(nodeAt(heroic, 'rounds'), heroic)).toBe(true);
    expect(showsUnsetInPlace(nodeAt(heroic, 'mode'), heroic)).toBe(true);
    expect(showsUnsetInPlace(nodeAt(heroic, 'options'), heroic)).toBe(false);
    expect(showsUnsetInPlace(nodeAt(heroic, 'rules'), heroic)).toBe(false);
    expect(showsUnsetInPlace(nodeAt(heroic, 'description'), heroic)).toBe(false);
    const epic = schemaFor('epic');
    expect(showsUnsetInPlace(nodeAt(epic, 'players', 0, 'formations', 0).properties?.markersPerTurn, epic)).toBe(true);
  });

  it('gives number inputs their range and step', () => {
    const heroic = schemaFor('heroic');
    expect(numberBounds(nodeAt(heroic, 'rounds'))).toEqual({ min: 1, max: 1000, step: 1 });
    expect(numberBounds({ type: 'number', exclusiveMinimum: 0, maximum: 1 })).toEqual({ min: 0, max: 1, step: 'any' });
    expect(numberBounds({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({ min: 1, max: 9, step: 1 });
  });
});

describe('unions', () => {
  const epic = schemaFor('epic');
  const formation = nodeAt(epic, 'players', 0, 'formations', 0).properties ?? {};

  it("labels and matches epic's number-or-distribution fields", () => {
    const markers = formation.markersPerTurn;
    expect(fieldKind(markers, epic)).toBe('union');
    expect(alternativesOf(markers, epic).map((alternative) => alternative.label)).toEqual(['number', 'list of {value, p}']);
    expect(matchAlternative(markers, 2, epic)).toBe(0);
    expect(
      matchAlternative(
        markers,
        [
          { value: 1, p: 0.5 },
          { value: 2, p: 0.5 },
        ],
        epic,
      ),
    ).toBe(1);
    expect(matchAlternative(markers, 0.5, epic)).toBe(-1);
    expect(matchAlternative(markers, 'two', epic)).toBe(-1);
    expect(matchAlternative(markers, undefined, epic)).toBe(-1);
    // Switching to the distribution starts it with one valid entry.
    const alternatives = alternativesOf(markers, epic);
    expect(defaultValue(alternatives[1]?.schema, epic)).toEqual([{ value: 0, p: 0 }]);
  });

  it("labels and matches epic's yes/no-or-probability fields", () => {
    const within = formation.enemyWithin30;
    expect(alternativesOf(within, epic).map((alternative) => alternative.label)).toEqual(['yes/no', 'number']);
    expect(matchAlternative(within, true, epic)).toBe(0);
    expect(matchAlternative(within, 0.25, epic)).toBe(1);
  });

  it("matches warmaster's and battleforge's unions with objects", () => {
    const warmaster = schemaFor('warmaster');
    const unit = nodeAt(warmaster, 'sides', 0, 'units', 0).properties ?? {};
    expect(alternativesOf(unit.retreatBlocked, warmaster).map((alternative) => alternative.label)).toEqual(['yes/no', 'number', 'object']);
    expect(matchAlternative(unit.retreatBlocked, { chance: 0.5 }, warmaster)).toBe(2);
    expect(matchAlternative(unit.retreatBlocked, false, warmaster)).toBe(0);
    expect(alternativesOf(unit.shootsAtChargers, warmaster).map((alternative) => alternative.label)).toEqual(['true', 'object']);
    expect(matchAlternative(unit.shootsAtChargers, true, warmaster)).toBe(0);
    expect(matchAlternative(unit.shootsAtChargers, false, warmaster)).toBe(-1);
    expect(matchAlternative(unit.shootsAtChargers, { target: 'orcs' }, warmaster)).toBe(1);
    expect(matchAlternative(unit.contact, [{ front: 2 }], warmaster)).toBe(1);
    expect(matchAlternative(unit.contact, { front: 2 }, warmaster)).toBe(0);
    const battleforge = schemaFor('battleforge');
    const models = nodeAt(battleforge, 'sides', 0, 'units', 0).properties?.models;
    expect(alternativesOf(models, battleforge).map((alternative) => alternative.label)).toEqual(['number', 'named entries']);
    expect(matchAlternative(models, 5, battleforge)).toBe(0);
    expect(matchAlternative(models, { Soldier: 4 }, battleforge)).toBe(1);
  });
});

describe('references, allOf and nullable', () => {
  it('follows $ref into $defs, definitions and the root, its siblings winning', () => {
    const root: JsonSchema = {
      type: 'object',
      properties: {
        a: { $ref: '#/$defs/count', description: 'here' },
        b: { $ref: '#/definitions/name' },
        self: { $ref: '#' },
        lost: { $ref: '#/$defs/none' },
      },
      $defs: { count: { type: 'integer', minimum: 1, description: 'there' } },
      definitions: { name: { type: 'string' } },
    };
    expect(resolveSchema(root.properties?.a, root)).toEqual({ type: 'integer', minimum: 1, description: 'here' });
    expect(fieldKind(root.properties?.b, root)).toBe('string');
    expect(fieldKind(root.properties?.self, root)).toBe('object');
    expect(fieldKind(root.properties?.lost, root)).toBe('any');
  });

  it('handles a recursive zod schema ($ref), allOf, type lists and nullable', () => {
    interface Tree {
      label: string;
      children?: Tree[] | undefined;
    }
    const tree: z.ZodType<Tree> = z.object({
      label: z.string(),
      get children() {
        return z.array(tree).optional();
      },
    });
    const root = z.toJSONSchema(z.object({ tree, note: z.string().nullable() }), { io: 'input' }) as JsonSchema;
    const child = nodeAt(root, 'tree', 'children', 0);
    expect(fieldKind(child, root)).toBe('object');
    expect(Object.keys(child.properties ?? {})).toEqual(['label', 'children']);
    expect(fieldKind(nodeAt(root, 'tree'), root)).toBe('object');
    expect(alternativesOf(nodeAt(root).properties?.note, root).map((alternative) => alternative.label)).toEqual(['text', 'none']);
    expect(matchAlternative(nodeAt(root).properties?.note, null, root)).toBe(1);
    const merged = {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'number' } }, required: ['b'] },
      ],
    } as JsonSchema;
    expect(fieldKind(merged, merged)).toBe('object');
    expect(defaultValue(merged, merged)).toEqual({ a: '', b: 0 });
    const either: JsonSchema = { type: ['string', 'null'], description: 'maybe' };
    expect(fieldKind(either, either)).toBe('union');
    expect(resolveSchema({ type: 'integer', nullable: true }, {}).anyOf).toEqual([{ type: 'integer' }, { type: 'null' }]);
  });
});

describe('editing data by path', () => {
  const data = deepFreeze({
    name: 'x',
    sides: [{ groups: [{ unit: 'a' }, { unit: 'b' }, { unit: 'c' }] }, { groups: [] }],
    rules: { k: 1 },
  });

  it('reads values', () => {
    expect(valueAt(data, ['sides', 0, 'groups', 1, 'unit'])).toBe('b');
    expect(valueAt(data, ['sides', 5])).toBeUndefined();
    expect(valueAt(data, ['name', 'length'])).toBeUndefined();
    expect(valueAt(data, [])).toBe(data);
  });

  it('sets without changing the original, sharing untouched branches', () => {
    const next = setAt(data, ['sides', 0, 'groups', 1, 'unit'], 'z') as typeof data;
    expect(next.sides[0]?.groups[1]).toEqual({ unit: 'z' });
    expect(data.sides[0]?.groups[1]).toEqual({ unit: 'b' });
    expect(next.sides[1]).toBe(data.sides[1]);
    expect(next.rules).toBe(data.rules);
    expect(next.sides[0]?.groups[0]).toBe(data.sides[0]?.groups[0]);
    expect(Object.keys(next)).toEqual(Object.keys(data));
  });

  it('makes missing containers and keeps odd keys as plain data', () => {
    expect(setAt(undefined, ['a', 0, 'b'], 1)).toEqual({ a: [{ b: 1 }] });
    expect(setAt(data, ['options', 'x'], 'y')).toMatchObject({ options: { x: 'y' } });
    const odd = setAt({}, ['__proto__', 'polluted'], true) as Record<string, unknown>;
    expect(Object.keys(odd)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(setAt(data, [], 5)).toBe(5);
    expect(setAt(data, ['rules'], undefined)).not.toHaveProperty('rules');
  });

  it('removes array elements (later ones shift) and object keys', () => {
    const fewer = removeAt(data, ['sides', 0, 'groups', 0]) as typeof data;
    expect(fewer.sides[0]?.groups).toEqual([{ unit: 'b' }, { unit: 'c' }]);
    expect(data.sides[0]?.groups).toHaveLength(3);
    const noRules = removeAt(data, ['rules']) as Record<string, unknown>;
    expect(Object.keys(noRules)).toEqual(['name', 'sides']);
    expect(removeAt(data, ['missing', 'deeper'])).toBe(data);
    expect(removeAt(data, ['sides', 7])).toBe(data);
    expect(removeAt(data, [])).toBeUndefined();
  });

  it('moves array elements', () => {
    const moved = moveItem(data, ['sides', 0, 'groups'], 2, 0) as typeof data;
    expect(moved.sides[0]?.groups.map((group) => group.unit)).toEqual(['c', 'a', 'b']);
    expect(moveItem(data, ['sides', 0, 'groups'], 0, -1)).toBe(data);
    expect((moveItem(data, ['sides', 0, 'groups'], 0, 99) as typeof data).sides[0]?.groups.map((group) => group.unit)).toEqual([
      'b',
      'c',
      'a',
    ]);
  });
});

describe('new values', () => {
  const heroic = schemaFor('heroic');
  const group = nodeAt(heroic, 'sides', 0, 'groups', 0);

  it('makes a heroic group with its required fields, accepted in a scenario', () => {
    const item = defaultValue(group, heroic, { path: ['sides', 0, 'groups', 1], minimal: true });
    expect(Object.keys(item as object).sort()).toEqual(['id', 'models', 'unit']);
    expect(item).toEqual({ id: 'new', unit: 'new', models: 1 });
    const scenario = setAt(defaultValue(heroic, heroic), ['sides', 0, 'groups', 1], distinctItem(item, [{ id: 'new' }], group, heroic));
    const parsed = SCHEMAS.get('heroic')?.system.scenarioSchema.safeParse(scenario);
    expect(parsed?.error?.issues ?? []).toEqual([]);
    expect(valueAt(scenario, ['sides', 0, 'groups', 1, 'id'])).toBe('new-2');
  });

  it('starts a field with choices at the first one offered', () => {
    const choices = { 'sides[].groups[].unit': [{ value: 'ogre', label: 'Ogre' }] };
    expect(defaultValue(group, heroic, { path: ['sides', 1, 'groups', 0], choices })).toMatchObject({ unit: 'ogre' });
  });

  it('uses a default, an enum, a minimum; and starts an object with only its required fields when minimal', () => {
    expect(defaultValue(nodeAt(heroic, 'rounds'), heroic)).toBe(10);
    expect(defaultValue(nodeAt(heroic, 'options'), heroic)).toMatchObject({ order: 'weakness-then-shield' });
    expect(defaultValue(nodeAt(heroic, 'options'), heroic, { minimal: true })).toEqual({});
    expect(defaultValue({ enum: ['b', 'a'] }, {})).toBe('b');
    expect(defaultValue({ type: 'integer', minimum: 3 }, {})).toBe(3);
    expect(defaultValue({ type: 'number', maximum: -2 }, {})).toBe(-2);
    expect(defaultValue({ type: 'string', pattern: '^[a-z]+/[a-z]+$' }, {})).toBe('new/new');
    expect(defaultValue({ type: 'array', items: { type: 'boolean' }, minItems: 2 }, {})).toEqual([false, false]);
    expect(defaultValue({}, {})).toBeNull();
  });

  it('stops at a bounded depth on a schema that refers to itself', () => {
    const loop: JsonSchema = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] };
    let value = defaultValue(loop, loop);
    let depth = 0;
    while (typeof value === 'object' && value !== null && 'next' in value) {
      value = (value as { next: unknown }).next;
      depth++;
    }
    expect(depth).toBeGreaterThan(3);
    expect(depth).toBeLessThan(20);
  });
});

describe('paths, ids and words', () => {
  it('formats paths like the CLI, the root as empty', () => {
    expect(formatPath(['sides', 0, 'groups', 1, 'unit'])).toBe('sides[0].groups[1].unit');
    expect(formatPath([])).toBe('');
    expect(formatPath(['units', 'orcs/orc-warriors', 'attacks'])).toBe('units["orcs/orc-warriors"].attacks');
    for (const path of [['a'], [0, 'b'], ['x y', 2], ['sides', 1, 'name']]) expect(formatPath(path)).toBe(cliFormatPath(path));
  });

  it('turns a path into its choices pattern', () => {
    expect(pathPattern(['sides', 0, 'groups', 1, 'unit'])).toBe('sides[].groups[].unit');
    expect(pathPattern(['sides', 1, 'units', 3, 'characters', 0])).toBe('sides[].units[].characters[]');
    expect(pathPattern(['players', 0, 'army'])).toBe('players[].army');
    expect(pathPattern(['units', '[0]'])).toBe('units["[0]"]');
  });

  it('makes stable ids from the prefix and path', () => {
    expect(fieldId('a', ['sides', 1, 'groups', 0, 'models'])).toBe('a-sides-1-groups-0-models');
    expect(fieldId('sf', [])).toBe('sf__root');
    expect(fieldId('b', ['units', 'orcs/orc-warriors'])).toBe('b-units-orcs_2forc_2dwarriors');
    expect(fieldId('b', ['a__b', 'x_y'])).toBe('b-a_5f_5fb-x_5fy');
    // Distinct paths, distinct ids (and never a `__`, which the form's own element ids add).
    const paths = [
      ['a', 'b'],
      ['a-b'],
      ['a', 0],
      ['a', '0'],
      ['a_2d'],
      ['a-'],
      ['a', ''],
      ['help'],
      ['x', 'help'],
      ['a\u02db'],
      ['a-b\u02db'],
      ['\u{1F600}'],
    ];
    const ids = paths.map((path) => fieldId('p', path));
    expect(ids.filter((id) => id.includes('__'))).toEqual([]);
    expect(new Set(ids.filter((_, index) => index !== 3)).size).toBe(paths.length - 1);
  });

  it('puts names into words', () => {
    expect(humanize('enemyWithin30')).toBe('Enemy within 30');
    expect(humanize('markersPerTurn')).toBe('Markers per turn');
    expect(humanize('markers-per-turn')).toBe('Markers per turn');
    expect(humanize('chargeBonusD6')).toBe('Charge bonus D6');
    expect(humanize('alwaysHitsOn4')).toBe('Always hits on 4');
    expect(humanize('id')).toBe('ID');
    expect(humanize('unitsFile')).toBe('Units file');
    expect(humanize('woundsTaken')).toBe('Wounds taken');
    expect(singular('Groups')).toBe('Group');
    expect(singular('Casualties')).toBe('Casualty');
    expect(singular('Split')).toBe('Split');
    expect(itemLabel('Groups', 1)).toBe('Group 2');
    expect(itemLabel('Area', 0)).toBe('Area 1');
  });
});

describe('problems, map keys and JSON text', () => {
  it('groups problems by path, and gathers those inside a field', () => {
    const byPath = problemsByPath([
      { path: 'sides[0].name', message: 'too short' },
      { path: 'sides[0].name', message: 'taken' },
      { path: 'sides[0].groups[1].unit', message: 'unknown unit' },
      { path: '(root)', message: 'bad file' },
      { path: 'sides[10]', message: 'not this one' },
    ]);
    expect(problemsAt(byPath, ['sides', 0, 'name'])).toEqual(['too short', 'taken']);
    expect(problemsAt(byPath, [])).toEqual(['bad file']);
    expect(problemsAt(byPath, ['sides', 1])).toEqual([]);
    expect(problemsAt(byPath, ['sides', 0, 'groups'], true)).toEqual(['[1].unit: unknown unit']);
    expect(problemsAt(byPath, ['sides', 1], true)).toEqual([]);
  });

  it("checks a new map key against the schema's propertyNames", () => {
    const heroic = schemaFor('heroic');
    const units = nodeAt(heroic, 'units');
    expect(mapKeyProblem(units, 'ogre', [], heroic)).toBeUndefined();
    expect(mapKeyProblem(units, 'Ogre King', [], heroic)).toMatch(/pattern/);
    expect(mapKeyProblem(units, 'ogre', ['ogre'], heroic)).toMatch(/already/);
    expect(mapKeyProblem(units, '', [], heroic)).toMatch(/key/);
  });

  it('reads JSON or YAML text and writes values back', () => {
    expect(parseJsonText('{ "def": 5 }')).toEqual({ ok: true, value: { def: 5 } });
    expect(parseJsonText('{ def: 5, tags: [a, b] }')).toEqual({ ok: true, value: { def: 5, tags: ['a', 'b'] } });
    expect(parseJsonText('{ def: ')).toMatchObject({ ok: false });
    expect(parseJsonText('  ')).toMatchObject({ ok: false });
    expect(jsonText({ def: 5 })).toBe('{"def":5}');
    expect(jsonText(undefined)).toBe('');
    expect(jsonText({ text: 'x'.repeat(80) }).split('\n')).toHaveLength(3);
  });
});
