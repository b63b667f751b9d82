import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/capture.js';
import { REPOSITORY } from '../helpers/repository.js';

const REPOSITORY_DATA = path.join(REPOSITORY, 'data');

/**
 * `crucible completion bash|zsh|fish` (issue 34): each script, made from the program's own command
 * tree, names every command `crucible --help` lists and every option each command's help lists,
 * offers an option's allowed values, and is valid for its shell (checked by the shell itself where
 * it is installed: bash always, zsh and fish when present).
 */

const folder = mkdtemp(path.join(tmpdir(), 'crucible-completion-'));
afterAll(async () => rm(await folder, { recursive: true, force: true }));

async function stdoutOf(args: readonly string[]): Promise<string> {
  const result = await runCli(args);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

/** The commands `crucible --help` lists, and each one's long options as its help lists them. */
async function helpListing(): Promise<Map<string, string[]>> {
  const help = await stdoutOf(['--help']);
  const commands = [...help.slice(help.indexOf('Commands:')).matchAll(/^ {2}([a-z]+)\b/gm)].map((match) => match[1] as string);
  const listing = new Map<string, string[]>();
  for (const command of commands.filter((name) => name !== 'help')) {
    const text = await stdoutOf(['help', command]);
    const options = text.slice(text.indexOf('Options:'));
    listing.set(command, [...new Set([...options.matchAll(/(?:^|, ) *(--[a-z][a-z-]*)/gm)].map((match) => match[1] as string))]);
  }
  return listing;
}

const installed = (shell: string): boolean => spawnSync(shell, ['--version'], { stdio: 'ignore' }).status === 0;

describe('crucible completion', () => {
  it.each(['bash', 'zsh', 'fish'])('%s: every command and option the help lists, and the values an option allows', async (shell) => {
    const script = await stdoutOf(['completion', shell]);
    const listing = await helpListing();
    expect(listing.size).toBeGreaterThan(10);
    for (const [command, options] of listing) {
      expect(script, command).toMatch(new RegExp(`\\b${command}\\b`));
      expect(options.length, command).toBeGreaterThan(0);
      for (const option of options) {
        // fish names a long option without its dashes (-l trials).
        const spelled = shell === 'fish' ? `-l ${option.slice(2)}` : option;
        expect(script, `${command} ${option}`).toContain(spelled);
      }
    }
    // Option values from the options' own choices: methods, layouts, seatings, formats.
    for (const word of ['mc-dice', 'auto', 'points', 'wide', 'second', 'letter', 'md']) expect(script).toContain(word);
  });

  it('bash: the script is valid bash, and completes a command, an option value and a file', async () => {
    const script = await stdoutOf(['completion', 'bash']);
    const file = path.join(await folder, 'crucible.bash');
    await writeFile(file, script);
    execFileSync('bash', ['-n', file]);
    // Run the completion function as bash would for `crucible ma<TAB>` and `crucible run x --method <TAB>`.
    const complete = (words: string[]): string[] =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$1"; COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _crucible; printf '%s\\n' "\${COMPREPLY[@]}"`,
          '-',
          file,
        ],
        { encoding: 'utf8' },
      )
        .split('\n')
        .filter((line) => line !== '');
    expect(complete(['crucible', 'ma'])).toEqual(['matchups']);
    expect(complete(['crucible', 'run', 'x.yaml', '--method', ''])).toEqual(['auto', 'exact', 'mc', 'mc-dice']);
    expect(complete(['crucible', 'sweep', 'x.yaml', '--lay'])).toEqual(['--layout']);
    expect(complete(['crucible', 'run', path.join(REPOSITORY_DATA, 'heroic', 'units.y')])).toEqual([
      path.join(REPOSITORY_DATA, 'heroic', 'units.yaml'),
    ]);
  });

  it.each(['zsh', 'fish'])('%s: the script is valid where the shell is installed', async (shell) => {
    if (!installed(shell)) return;
    const file = path.join(await folder, `crucible.${shell}`);
    await writeFile(file, await stdoutOf(['completion', shell]));
    execFileSync(shell, [shell === 'fish' ? '--no-execute' : '-n', file]);
  });

  it('an unknown shell is exit 2, naming the three', async () => {
    const result = await runCli(['completion', 'powershell']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/Allowed choices are bash, zsh, fish/);
  });
});
