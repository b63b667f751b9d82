import { Argument, type Command } from 'commander';
import { completionScript, type Shell, SHELLS } from '../completion.js';
import type { Io } from './io.js';

/** `crucible completion bash|zsh|fish`: the shell's completion script, made from the program's commands (cli/completion.ts). */
export function registerCompletion(program: Command, io: Io): void {
  program
    .command('completion')
    .description('print a shell completion script (commands, options, their values and file names) for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      `
Load it once per shell session, or save it where the shell looks for completions:
  bash:  source <(crucible completion bash)           (in ~/.bashrc)
  zsh:   source <(crucible completion zsh)            (in ~/.zshrc, after compinit)
  fish:  crucible completion fish > ~/.config/fish/completions/crucible.fish`,
    )
    .action((shell: Shell) => {
      io.stdout(completionScript(program, shell));
    });
}
