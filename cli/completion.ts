import type { Command, Option } from 'commander';

/**
 * Shell completion scripts (`crucible completion bash|zsh|fish`), made from the program's own
 * command tree — the commands, their options, the values an option allows (methods, layouts,
 * seatings…) and which options and arguments name files — so the scripts cannot drift from the
 * options `--help` lists: there is no second list to keep.
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a word after an option, or an argument, completes to. */
type Value =
  | { readonly kind: 'none' }
  | { readonly kind: 'files' }
  | { readonly kind: 'directories' }
  | { readonly kind: 'words'; readonly words: readonly string[] };

interface OptionSpec {
  readonly names: readonly string[];
  readonly description: string;
  /** Undefined: a flag (no value). */
  readonly value?: Value;
}

interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly options: readonly OptionSpec[];
  /** What its arguments complete to. */
  readonly argument: Value;
}

const NONE: Value = { kind: 'none' };
const FILES: Value = { kind: 'files' };

/** `<file>`, `<paths...>`, `[unit]`: the name in the brackets. */
const valueName = (text: string): string => /[<[]([^>\]]+)[>\]]/.exec(text)?.[1]?.replace(/\.\.\.$/, '') ?? '';

/** A value named like a file (`<file>`, `<roster>`, `<module>`) completes to files; `<dir>` to directories. */
function valueOfName(name: string): Value {
  if (/^dir/.test(name)) return { kind: 'directories' };
  return /^(files?|paths?|parts?|scenario|roster|module)$/.test(name) ? FILES : NONE;
}

/** One line for a menu: the description up to its first clause (unless that says too little), at most 80 characters. */
function shortDescription(text: string): string {
  const first = text.split(/; | \(/)[0]?.trim() ?? '';
  const line = first.length >= 24 ? first : text.trim();
  return line.length <= 80 ? line : `${line.slice(0, 79)}…`;
}

function optionSpec(option: Option): OptionSpec {
  const names = [option.short, option.long].filter((name): name is string => name !== undefined);
  const description = shortDescription(option.description);
  if (!option.required && !option.optional) return { names, description };
  const choices = option.argChoices;
  return { names, description, value: choices !== undefined ? { kind: 'words', words: choices } : valueOfName(valueName(option.flags)) };
}

/** The program's commands as the scripts need them, `help` (whose argument is a command) among them. */
export function commandSpecs(program: Command): CommandSpec[] {
  const help: OptionSpec = { names: ['-h', '--help'], description: 'show help' };
  const specs = program.commands.map(
    (command): CommandSpec => ({
      name: command.name(),
      description: shortDescription(command.description()),
      options: [...command.options.filter((option) => !option.hidden).map(optionSpec), help],
      argument: command.registeredArguments.some((argument) => valueOfName(argument.name()).kind !== 'none') ? FILES : NONE,
    }),
  );
  const names = specs.map((spec) => spec.name);
  return [...specs, { name: 'help', description: 'show help for a command', options: [], argument: { kind: 'words', words: names } }];
}

/** The script for `shell`. */
export function completionScript(program: Command, shell: Shell): string {
  const commands = commandSpecs(program);
  if (shell === 'bash') return bashScript(program.name(), commands);
  if (shell === 'zsh') return zshScript(program.name(), commands);
  return fishScript(program.name(), commands);
}

/** A word in single quotes, for any of the three shells. */
const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/** A word list for bash's `compgen -W`, one a line: the script splits on line breaks only (file names may hold spaces). */
const bashWords = (words: readonly string[]): string => quoted(words.join('\n'));

function bashValue(value: Value): string {
  switch (value.kind) {
    case 'none':
      return 'COMPREPLY=()';
    case 'files':
      return 'COMPREPLY=($(compgen -f -- "$cur"))';
    case 'directories':
      return 'COMPREPLY=($(compgen -d -- "$cur"))';
    case 'words':
      return `COMPREPLY=($(compgen -W ${bashWords(value.words)} -- "$cur"))`;
  }
}

function bashScript(program: string, commands: readonly CommandSpec[]): string {
  const name = `_${program.replace(/\W/g, '_')}`;
  const cases = commands.map((command) => {
    const valued = command.options.filter((option) => option.value !== undefined);
    const values = valued.map((option) => `        ${option.names.join('|')}) ${bashValue(option.value as Value)}; return ;;`);
    const flags = command.options.flatMap((option) => option.names);
    return [
      `    ${command.name})`,
      ...(values.length === 0 ? [] : ['      case "$prev" in', ...values, '      esac']),
      `      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${bashWords(flags)} -- "$cur")); else ${bashValue(command.argument)}; fi`,
      '      ;;',
    ].join('\n');
  });
  return `# bash completion for ${program} (generated by \`${program} completion bash\`)
# Load it in ~/.bashrc:  source <(${program} completion bash)
${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" command="" i
  local IFS=$'\\n'
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      -*) ;;
      *) command="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [[ -z "$command" ]]; then
    COMPREPLY=($(compgen -W ${bashWords([...commands.map((command) => command.name), '--help', '--version'])} -- "$cur"))
    return
  fi
  case "$command" in
${cases.join('\n')}
  esac
}
complete -o filenames -o bashdefault -F ${name} ${program}
`;
}

/** Text inside a zsh `_arguments` spec's brackets or a `_describe` entry: its own special characters escaped. */
const zshText = (text: string): string => text.replace(/([[\]:\\])/g, '\\$1');

function zshValue(value: Value, label: string): string {
  switch (value.kind) {
    case 'none':
      return `:${label}: `;
    case 'files':
      return `:${label}:_files`;
    case 'directories':
      return `:${label}:_files -/`;
    case 'words':
      return `:${label}:(${value.words.join(' ')})`;
  }
}

function zshScript(program: string, commands: readonly CommandSpec[]): string {
  const name = `_${program.replace(/\W/g, '_')}`;
  const described = commands.map((command) => `    ${quoted(`${command.name}:${zshText(command.description)}`)}`);
  const cases = commands.map((command) => {
    const specs = command.options.map((option) => {
      const value = option.value === undefined ? '' : zshValue(option.value, 'value');
      const text = `[${zshText(option.description)}]${value}`;
      if (option.names.length === 1) return quoted(`${option.names[0]}${text}`);
      // Either spelling, once: (-n --trials){-n,--trials}'[…]'.
      return `${quoted(`(${option.names.join(' ')})`)}{${option.names.join(',')}}${quoted(text)}`;
    });
    const argument = command.argument.kind === 'none' ? [] : [quoted(`*${zshValue(command.argument, 'argument')}`)];
    return [`    (${command.name})`, `      _arguments -s ${[...specs, ...argument].join(' \\\n        ')}`, '      ;;'].join('\n');
  });
  return `#compdef ${program}
# zsh completion for ${program} (generated by \`${program} completion zsh\`)
# Load it in ~/.zshrc (after compinit):  source <(${program} completion zsh)
${name}() {
  local -a commands
  commands=(
${described.join('\n')}
  )
  local state line
  _arguments -C '(- *)'{-h,--help}'[show help]' '(- *)'{-V,--version}'[print the version]' '1: :->command' '*:: :->arguments'
  case $state in
    (command) _describe command commands ;;
    (arguments)
      case $line[1] in
${cases.join('\n')}
      esac
      ;;
  esac
}
if [[ $zsh_eval_context[-1] == loadautofunc ]]; then ${name} "$@"; else compdef ${name} ${program}; fi
`;
}

function fishValue(value: Value): string {
  switch (value.kind) {
    case 'none':
      return ' -x';
    case 'files':
      return ' -r -F';
    case 'directories':
      return " -x -a '(__fish_complete_directories)'";
    case 'words':
      return ` -x -a ${quoted(value.words.join(' '))}`;
  }
}

function fishScript(program: string, commands: readonly CommandSpec[]): string {
  const all = commands.map((command) => command.name).join(' ');
  const lines = [
    `# fish completion for ${program} (generated by \`${program} completion fish\`)`,
    `# Save it as ~/.config/fish/completions/${program}.fish:  ${program} completion fish > ~/.config/fish/completions/${program}.fish`,
    `complete -c ${program} -f`,
    `complete -c ${program} -n ${quoted(`not __fish_seen_subcommand_from ${all}`)} -s h -l help -d 'show help'`,
    `complete -c ${program} -n ${quoted(`not __fish_seen_subcommand_from ${all}`)} -s V -l version -d 'print the version'`,
  ];
  for (const command of commands) {
    const when = `-n ${quoted(`__fish_seen_subcommand_from ${command.name}`)}`;
    lines.push(
      `complete -c ${program} -n ${quoted(`not __fish_seen_subcommand_from ${all}`)} -a ${command.name} -d ${quoted(command.description)}`,
    );
    for (const option of command.options) {
      const names = option.names
        .map((spelling) => (spelling.startsWith('--') ? `-l ${spelling.slice(2)}` : `-s ${spelling.slice(1)}`))
        .join(' ');
      const value = option.value === undefined ? '' : fishValue(option.value);
      lines.push(`complete -c ${program} ${when} ${names}${value} -d ${quoted(option.description)}`);
    }
    if (command.argument.kind === 'files') lines.push(`complete -c ${program} ${when} -F`);
    if (command.argument.kind === 'words') lines.push(`complete -c ${program} ${when} -a ${quoted(command.argument.words.join(' '))}`);
  }
  return `${lines.join('\n')}\n`;
}
