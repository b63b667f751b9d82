import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILT_IN_RULE_SYSTEMS, loadBuiltInRuleSystems } from '../../engine/registry.js';
import { runFields, scenarioHeading } from '../../engine/scenario-base.js';
import { formatsOf } from '../../input/data-file-kinds.js';
import { trustPlugins } from '../../input/plugin-trust.js';
import { descriptorProblems, resolveRuleSystem } from '../../input/rule-systems.js';
import { builtInExamples } from '../../scripts/rule-system-examples.js';
import { REPOSITORY, repositoryTree } from '../helpers/repository.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * A rule system is one folder reached through one list (engine/registry.ts): nothing above the
 * engine — input/, sim/, analysis/, cli/, reports/, web/, the API in index.ts — imports a rule
 * system's folder (dependency-cruiser's rule `through-the-descriptor`, .dependency-cruiser.cjs) or
 * names one to dispatch on (below); they reach every rule system through its RuleSystem descriptor,
 * the interface a plugin implements too. (That one folder and one line suffice: install-rule-system.test.ts.)
 */

/** The repository's TypeScript files, relative to it. */
const sourceFiles = (): string[] =>
  repositoryTree()
    .files.filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.relative(REPOSITORY, file));

/** The code above the engine, which must not tell rule systems apart by name. */
const ABOVE_THE_ENGINE = /^(input|statistics|sim|queue|analysis|documents|reports|cli|web)\/.*\.tsx?$|^index\.ts$/;

/** Where code above the engine may write a built-in's id, and why. */
const NAMED_ON_PURPOSE: readonly { readonly file: string; readonly id: string; readonly why: string }[] = [
  {
    file: 'web/app/app.tsx',
    id: 'heroic',
    why: 'an imported file naming no known rule system opens beside the default scenario (DEFAULT_SCENARIO, a heroic one)',
  },
];

/**
 * Each place `source` writes one of `ids` as a whole string (`'warmaster'`, a template without
 * substitutions, a case label) or as a property name (`{ heroic: … }`, a table by rule system):
 * `line: text`. Comments and longer strings (`data/heroic/scenarios`) are not names.
 */
function namesIn(fileName: string, source: string, ids: ReadonlySet<string>): { readonly id: string; readonly at: string }[] {
  if (![...ids].some((id) => source.includes(id))) return [];
  const file = ts.createSourceFile(
    fileName,
    source,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: { id: string; at: string }[] = [];
  const note = (node: ts.Node, text: string): void => {
    if (!ids.has(text)) return;
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    found.push({ id: text, at: `${fileName}:${line + 1}: ${source.split('\n')[line]?.trim() ?? ''}` });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) note(node, node.text);
    else if (
      ts.isIdentifier(node) &&
      (ts.isPropertyAssignment(node.parent) || ts.isPropertySignature(node.parent) || ts.isShorthandPropertyAssignment(node.parent)) &&
      node.parent.name === node
    )
      note(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('one registry of rule systems', () => {
  it('lists each built-in once, its descriptor in its own folder and passing the checks a plugin passes', async () => {
    const ids = RULE_SYSTEMS.map((system) => system.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const system of RULE_SYSTEMS) {
      expect(descriptorProblems(system, true), system.id).toEqual([]);
      const folder = (await import(pathToFileURL(path.join(REPOSITORY, 'engine', system.id, 'index.ts')).href)) as { default?: unknown };
      expect(folder.default, `engine/${system.id}/index.ts exports its descriptor`).toBe(system);
    }
  });

  it("each entry's light fields are its descriptor's: the id it is loaded by, the data file names told without loading it", () => {
    expect(BUILT_IN_RULE_SYSTEMS.map((entry) => entry.id)).toEqual(RULE_SYSTEMS.map((system) => system.id));
    for (const [index, entry] of BUILT_IN_RULE_SYSTEMS.entries()) {
      const system = RULE_SYSTEMS[index];
      const named = system === undefined ? [] : formatsOf(system).flatMap((format) => (format.names === undefined ? [] : [format.names]));
      expect(entry.dataFileNames ?? [], entry.id).toEqual(named);
      for (const [at, names] of named.entries()) expect(entry.dataFileNames?.[at], entry.id).toBe(names);
    }
  });

  it("each built-in's folder exports its examples (examples.ts), naming files that exist: what the shared suites and the docs read", async () => {
    const all = await builtInExamples();
    expect(all.map((found) => found.system.id)).toEqual(RULE_SYSTEMS.map((system) => system.id));
    for (const { system, examples, file } of all) {
      const { contract, sample, docs } = examples;
      for (const named of [examples.scenarios, contract.action.file, contract.chain.file, sample.scenario, ...sample.dataFiles])
        expect(existsSync(file(named)), `${system.id}: ${named}`).toBe(true);
      expect(existsSync(path.join(REPOSITORY, 'engine', system.id, docs.source)), `${system.id}: ${docs.source}`).toBe(true);
    }
  });

  it("nothing above the engine names a built-in to tell it apart: no `ruleset === 'warmaster'`, no table by id", () => {
    const ids = new Set(RULE_SYSTEMS.map((system) => system.id));
    const named = sourceFiles()
      .filter((file) => ABOVE_THE_ENGINE.test(file))
      .flatMap((file) => namesIn(file, readFileSync(path.join(REPOSITORY, file), 'utf8'), ids).map((name) => ({ file, ...name })))
      .filter(({ file, id }) => !NAMED_ON_PURPOSE.some((allowed) => allowed.file === file && allowed.id === id));
    expect(named.map((name) => name.at)).toEqual([]);
    // Every allowance is still needed.
    for (const allowed of NAMED_ON_PURPOSE) {
      expect(
        namesIn(allowed.file, readFileSync(path.join(REPOSITORY, allowed.file), 'utf8'), ids).map((name) => name.id),
        allowed.why,
      ).toContain(allowed.id);
    }
  });

  it('the check sees a dispatch by name, and a table by id, and not a comment or a path', () => {
    const ids = new Set(['warmaster', 'heroic', 'epic']);
    const source = [
      "if (ruleset === 'warmaster') return 1;",
      'switch (id) { case `epic`: break; }',
      'const ROUNDS = { heroic: 10 };',
      'interface Limits { readonly heroic: number }',
      '// heroic, warmaster',
      "const folder = 'data/heroic/scenarios';",
      'const label = `the heroic units`;',
    ].join('\n');
    expect(namesIn('x.ts', source, ids).map((name) => name.at)).toEqual([
      "x.ts:1: if (ruleset === 'warmaster') return 1;",
      'x.ts:2: switch (id) { case `epic`: break; }',
      'x.ts:3: const ROUNDS = { heroic: 10 };',
      'x.ts:4: interface Limits { readonly heroic: number }',
    ]);
  });

  it('every scenario format has the shared header (engine/scenario-base.ts): ruleset, name, description, seed and trials as there', () => {
    const json = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input' }) as { properties: Record<string, { description?: string }> };
    for (const system of RULE_SYSTEMS) {
      const { properties } = json(system.scenarioSchema);
      const noun = /number of simulated (\S+)/.exec(properties.trials?.description ?? '')?.[1] ?? '';
      const shared = json(z.object({ ...scenarioHeading(system.id, properties.ruleset?.description), ...runFields(noun) })).properties;
      for (const field of Object.keys(shared)) expect(properties[field], `${system.id}: ${field}`).toEqual(shared[field]);
    }
  });

  it("only engine/registry.ts imports the built-ins' descriptors", () => {
    const descriptor = new RegExp(`(from |import\\()'\\./(${RULE_SYSTEMS.map((system) => system.id).join('|')})/index\\.js'`);
    const importers = sourceFiles()
      .filter((file) => !file.startsWith('test/'))
      .filter((file) => descriptor.test(readFileSync(path.join(REPOSITORY, file), 'utf8')));
    expect(importers).toEqual(['engine/registry.ts']);
  });

  it('a plugin named two ways (two scenarios, two relative paths) is one module, recorded as each scenario names it', async () => {
    const example = path.join(REPOSITORY, 'examples', 'homebrew');
    const trusted = trustPlugins([path.join(example, 'index.ts')]);
    const fromScenarios = await resolveRuleSystem(path.join(example, 'scenarios', 'volley.yaml'), '../index.ts', trusted);
    const fromRoot = await resolveRuleSystem(path.join(REPOSITORY, 'x.yaml'), './examples/homebrew/index.ts', trusted);
    expect(fromRoot.system).toBe(fromScenarios.system);
    expect([fromScenarios.plugin?.module, fromRoot.plugin?.module]).toEqual(['../index.ts', './examples/homebrew/index.ts']);
    expect(fromRoot.plugin?.codeHash).toBe(fromScenarios.plugin?.codeHash);
  });
});
