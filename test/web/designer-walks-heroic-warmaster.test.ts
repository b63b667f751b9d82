import { describe, expect, it } from 'vitest';
import { loadBuiltInRuleSystems } from '../../engine/registry.js';
import { useWorkbench } from './browser-session.js';
import { designerPath, WALKED_IN } from './designer-walk.js';
import { DESIGNER_PATHS } from './designer-paths.js';

/** The built-ins' descriptors, in the registry's order. */
const RULE_SYSTEMS = await loadBuiltInRuleSystems();

/**
 * A designer's path through every view of the workbench (test/web/designer-walk.ts) on heroic and Warmaster, in
 * headless Chromium against the served build. The rule systems are walked in two files that run
 * side by side (designer-walks-*.test.ts): one file of four walks was the suite's longest.
 */

const session = useWorkbench();

describe("a designer's path through the workbench", () => {
  it.each(DESIGNER_PATHS.filter((walk) => (WALKED_IN['heroic-warmaster'] as readonly string[]).includes(walk.system)))(
    '$system: the form, the YAML, a declared variant, an edited copy, a replay and an edited roster, each view as the CLI gives it',
    async (walk) => designerPath(session, walk),
    // A walk is some twenty page runs and CLI runs: Battle Forge's took 34 s alone and 65–90 s with
    // three suites side by side (load 15); each step's own wait ends as soon as it holds.
    240_000,
  );

  it('every built-in rule system has a designer path, walked by one of the two files', () => {
    expect(DESIGNER_PATHS.map((walk) => walk.system).sort()).toEqual(RULE_SYSTEMS.map((system) => system.id).sort());
    expect(Object.values(WALKED_IN).flat().sort()).toEqual(RULE_SYSTEMS.map((system) => system.id).sort());
  });

  it('logs no console error and requests nothing from another origin', () => {
    expect(session.consoleProblems).toEqual([]);
    expect(session.offOrigin).toEqual([]);
  });
});
