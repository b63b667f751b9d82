import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULE_SYSTEMS } from '../../engine/rulesets.js';
import { trustPlugins } from '../../input/plugin-trust.js';
import { descriptorProblems, resolveRuleSystem } from '../../input/rule-systems.js';
import { REPOSITORY, repositoryTree } from '../helpers/repository.js';

/**
 * A rule system is one folder reached through one list (engine/rulesets.ts): nothing above the
 * engine — sim/, analysis/, cli/, reports/, the API in index.ts — imports a rule system's folder or
 * names one to dispatch on; they reach every rule system through its RuleSystem descriptor, the
 * interface a plugin implements too.
 */

const RULE_SYSTEM_FOLDER = /from '(\.\.\/)+engine\/(?!rule-system|rulesets|kernel|dice|validation|overrides|state-layout)([\w-]+)\//;
const ABOVE_THE_ENGINE = /^(input|statistics|sim|queue|analysis|documents|cli|reports|web)\/.*\.ts$|^index\.ts$/;

/** The repository's TypeScript files, relative to it. */
const sourceFiles = (): string[] => repositoryTree().files.filter((file) => file.endsWith('.ts')).map((file) => path.relative(REPOSITORY, file));

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

  it('sim/, analysis/, cli/, reports/ and index.ts import no rule system folder: they dispatch through the descriptors only', () => {
    const offenders = sourceFiles()
      .filter((file) => ABOVE_THE_ENGINE.test(file))
      .flatMap((file) => {
        const text = readFileSync(path.join(REPOSITORY, file), 'utf8');
        return text.split('\n').flatMap((line, index) => (RULE_SYSTEM_FOLDER.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : []));
      });
    expect(offenders).toEqual([]);
  });

  it('only engine/rulesets.ts imports the built-ins\' descriptors', () => {
    const importers = sourceFiles()
      .filter((file) => !file.startsWith('test/'))
      .filter((file) => /from '\.\/(heroic|warmaster|battleforge|epic)\/index\.js'/.test(readFileSync(path.join(REPOSITORY, file), 'utf8')));
    expect(importers).toEqual(['engine/rulesets.ts']);
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
