import { type Command, Option } from 'commander';

/**
 * Options that take several values — `--variant`, `--metric`, `--only` — the way other command-line
 * tools take them: repeated (`--metric winner --metric rounds`) or comma-separated
 * (`--metric winner,rounds`). They were Commander variadic options (`<name...>`), which take every
 * word up to the next option, a command's file argument too (`compare --variant hold s.yaml` read
 * s.yaml as a second variant and then missed the scenario). The old spelling, the values one after
 * another, still works where the words cannot be the command's file: once its required arguments
 * are given (`compare s.yaml --variant stand pursue`), see `spreadListValues`.
 */

const LIST_OPTIONS = new WeakSet<Option>();

/** The values of one `--option a,b` added to those of the earlier ones. */
export function appendListValues(text: string, previous: readonly string[] | undefined): string[] {
  const values = text
    .split(',')
    .map((value) => value.trim())
    .filter((value) => value !== '');
  return [...(previous ?? []), ...values];
}

/** A repeatable, comma-separated option: `flags` such as `--metric <name>`. */
export function listOption(flags: string, description: string): Option {
  const option = new Option(flags, `${description} (repeat the option, or separate names with commas)`).argParser(appendListValues);
  LIST_OPTIONS.add(option);
  return option;
}

const isOptionWord = (word: string): boolean => word.length > 1 && word.startsWith('-');

/** The option `word` names on `command` (`--out`, `--out=x`, `-o`, `-ox`), if any. */
function optionOf(command: Command, word: string): Option | undefined {
  const name = word.startsWith('--') ? (word.split('=')[0] ?? word) : word.slice(0, 2);
  return command.options.find((option) => option.long === name || option.short === name);
}

/** Does `word` carry its option's value (`--out=x`, `-ox`)? */
const valueAttached = (word: string): boolean => (word.startsWith('--') ? word.includes('=') : word.length > 2);

/**
 * `command`'s arguments with the old spelling of a list option (its values one after another)
 * rewritten as the option repeated: a word after a list option's value is one more value only when
 * the command's required arguments are all given by then, else it is the next argument, never
 * swallowed. `compare s.yaml --variant a b` → `compare s.yaml --variant a --variant b`;
 * `compare --variant a s.yaml` stays as it is (s.yaml is the scenario).
 */
export function spreadListValues(command: Command, args: readonly string[]): string[] {
  const required = command.registeredArguments.filter((argument) => argument.required && !argument.variadic).length;
  const out: string[] = [];
  let positionals = 0;
  /** The list option whose values may go on, once its first is read. */
  let list: Option | undefined;
  for (let i = 0; i < args.length; i++) {
    const word = args[i] as string;
    if (word === '--') {
      out.push(...args.slice(i));
      break;
    }
    if (isOptionWord(word)) {
      const option = optionOf(command, word);
      out.push(word);
      list = undefined;
      const takesValue = option !== undefined && (option.required || option.optional) && !valueAttached(word);
      if (takesValue && i + 1 < args.length && (option.required || !isOptionWord(args[i + 1] as string))) {
        out.push(args[++i] as string);
        if (LIST_OPTIONS.has(option)) list = option;
      } else if (option !== undefined && LIST_OPTIONS.has(option) && valueAttached(word)) list = option;
      continue;
    }
    if (list !== undefined && positionals >= required) {
      out.push(list.long ?? list.flags, word);
      continue;
    }
    list = undefined;
    positionals++;
    out.push(word);
  }
  return out;
}
