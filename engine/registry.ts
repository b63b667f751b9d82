import battleforge from './battleforge/index.js';
import epic from './epic/index.js';
import heroic from './heroic/index.js';
import type { RuleSystem } from './rule-system.js';
import warmaster from './warmaster/index.js';

/**
 * The built-in rule systems: the one list sim/, analysis/, cli/ and reports/ reach them through.
 * A scenario may instead name a plugin by module path or package (`ruleset: ./rules/my-game.ts`),
 * which joins at load time through the same RuleSystem interface (input/rule-systems.ts).
 * Adding a built-in: its folder under engine/, exporting its descriptor, and one line here.
 */
export const RULE_SYSTEMS: readonly RuleSystem[] = [heroic, warmaster, battleforge, epic];
