import type { Command } from 'commander';
import { BUILT_INS_ONLY, commandTrust, type TrustedPlugins } from '../../input/plugin-trust.js';

/**
 * `--plugin <module>` on every command that loads scenarios or rosters: the only way, with the
 * config file $CRUCIBLE_CONFIG names, to let a scenario's plugin module run (input/plugin-trust.ts).
 * main.ts turns the option into `pluginTrust` before the command's action runs.
 */

/** What an action receives besides its own options. */
export interface Trusting {
  readonly plugin?: readonly string[];
  /** Set by main.ts's preAction hook: the --plugin modules and the config's, resolved. */
  readonly pluginTrust?: TrustedPlugins;
}

const trusting = new WeakSet<Command>();

export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** Add `--plugin <module>` (repeatable) to `command`. */
export function pluginOption(command: Command): Command {
  trusting.add(command);
  return command.option(
    '--plugin <module>',
    'a plugin rule system module whose code you trust to run, as a path or package name (repeat for several; see docs/plugins.md)',
    collect,
  );
}

/** Resolve a trusting command's plugins before its action (an unknown one is exit 2, as any bad input). */
export function addTrustHook(program: Command, env: NodeJS.ProcessEnv): void {
  program.hook('preAction', async (_program, action) => {
    if (!trusting.has(action)) return;
    action.setOptionValue('pluginTrust', await commandTrust(action.opts<Trusting>().plugin, env));
  });
}

/** The trust an action was given (built-ins only when called without main.ts). */
export const trustOf = (options: Trusting): TrustedPlugins => options.pluginTrust ?? BUILT_INS_ONLY;
