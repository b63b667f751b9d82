import type { RuleSystem } from '../../engine/rule-system.js';
import { BUILT_IN_RULE_SYSTEMS } from '../../engine/registry.js';

/**
 * The built-in rule systems' descriptors, in the order of engine/registry.ts (the one list: which
 * there are, and in what order). The page bundles them all, as it bundles their kernel modules
 * (browser-platform.ts): its pickers and forms read every one at once, and it has no process
 * start-up to save by loading one only when a scenario names it, as the CLI does.
 */
const folders = import.meta.glob<{ readonly default?: RuleSystem }>('../../engine/*/index.ts', { eager: true });

export const RULE_SYSTEMS: readonly RuleSystem[] = BUILT_IN_RULE_SYSTEMS.map(({ id }) => {
  const system = folders[`../../engine/${id}/index.ts`]?.default;
  if (system === undefined) throw new Error(`engine/${id}/index.ts is not in this build`);
  return system;
});
