import { type ComponentChildren, createContext } from 'preact';
import { useContext, useState } from 'preact/hooks';
import {
  constValue,
  fieldId,
  jsonText,
  numberBounds,
  parseJsonText,
  pathPattern,
  problemsAt,
  schemaOf,
  type JsonSchema,
  type Path,
  type SchemaNode,
} from './schema-form-model.js';

/**
 * The single-value fields of the schema form (schema-form.tsx): text (with suggestions), number,
 * choice, yes/no, fixed value and JSON text, each with its label, help and problems.
 */

/**
 * What a form's controls are called for a screen reader before their visible label, where a page
 * holds two forms of one schema (the scenario and its edited copy): without it, two fields would
 * both be "Name". Empty for the page's first form.
 */
export const FormName = createContext('');

/** The form's name, read by a screen reader before a visible label (nothing drawn). */
export function FormNamePrefix() {
  const name = useContext(FormName);
  return name === '' ? null : <span class="sr-only">{name}: </span>;
}

/** An aria-label with the form's name before it. */
export function useFormLabel(label: string): string {
  const name = useContext(FormName);
  return name === '' ? label : `${name}: ${label}`;
}

export type Choices = Readonly<Record<string, readonly { readonly value: string; readonly label: string }[]>>;

/** What every field of one form shares. */
export interface FormContext {
  readonly root: JsonSchema;
  readonly prefix: string;
  readonly problems: ReadonlyMap<string, readonly string[]>;
  readonly choices: Choices | undefined;
  readonly hidden: ReadonlySet<string>;
  set(path: Path, value: unknown): void;
  remove(path: Path): void;
  /** Focus the element with this id (or the first control inside it) once it is drawn. */
  focus(id: string): void;
}

export interface FieldProps {
  readonly ctx: FormContext;
  readonly node: SchemaNode;
  readonly path: Path;
  /** undefined: not set. */
  readonly value: unknown;
  readonly label: string;
  /** Clearing it removes the field (an optional property). */
  readonly optional: boolean;
  /** The default shown while the field is not set (else the node's own). */
  readonly fallback?: unknown;
  /** Buttons beside the label: remove, move. */
  readonly tools?: ComponentChildren;
  /** A union's alternative: no frame of its own. */
  readonly bare?: boolean;
  /** Shown beside a container's legend: an array element's name or id. */
  readonly aside?: string | undefined;
}

/** The ids an input's aria-describedby lists: its help, its problems, a message of its own. */
export function describedBy(id: string, parts: { help?: boolean; problems?: boolean; local?: boolean }): string | undefined {
  const ids = [
    parts.help === true ? `${id}__help` : '',
    parts.problems === true ? `${id}__problems` : '',
    parts.local === true ? `${id}__entry` : '',
  ].filter((part) => part !== '');
  return ids.length === 0 ? undefined : ids.join(' ');
}

export function Help({ id, text }: { id: string; text: string | undefined }) {
  return text === undefined || text === '' ? null : (
    <p class="sf-help" id={`${id}__help`}>
      {text}
    </p>
  );
}

export function Problems({ id, messages }: { id: string; messages: readonly string[] }) {
  return messages.length === 0 ? null : (
    <div class="sf-problem" id={`${id}__problems`}>
      {messages.map((message, index) => (
        <p key={index}>{message}</p>
      ))}
    </div>
  );
}

export function ToolButton({
  label,
  text,
  onClick,
  disabled = false,
}: {
  label: string;
  text: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button type="button" class="sf-tool" aria-label={useFormLabel(label)} title={label} disabled={disabled} onClick={onClick}>
      {text}
    </button>
  );
}

interface ShellProps {
  readonly id: string;
  readonly label: string;
  readonly help: string | undefined;
  readonly problems: readonly string[];
  readonly tools?: ComponentChildren;
  readonly control: ComponentChildren;
  /** A checkbox: the control before its label, on one line. */
  readonly inline?: boolean;
  readonly note?: ComponentChildren;
}

function Shell({ id, label, help, problems, tools, control, inline = false, note }: ShellProps) {
  return (
    <div class={`sf-field${inline ? ' sf-check' : ''}${problems.length > 0 ? ' sf-invalid' : ''}`}>
      <div class="sf-label-row">
        {inline ? control : null}
        <label for={id}>
          <FormNamePrefix />
          {label}
        </label>
        {inline ? note : null}
        {tools === undefined ? null : <span class="sf-tools">{tools}</span>}
      </div>
      {inline ? null : control}
      {inline ? null : note}
      <Help id={id} text={help} />
      <Problems id={id} messages={problems} />
    </div>
  );
}

interface Leaf {
  readonly id: string;
  readonly schema: JsonSchema;
  readonly problems: string[];
  readonly help: string | undefined;
  readonly fallback: unknown;
  readonly aria: (local?: boolean) => Record<string, string | undefined>;
}

function leaf(props: FieldProps): Leaf {
  const { ctx, path } = props;
  const schema = schemaOf(props.node, ctx.root);
  const id = fieldId(ctx.prefix, path);
  const problems = problemsAt(ctx.problems, path);
  const help = schema.description;
  return {
    id,
    schema,
    problems,
    help,
    fallback: props.fallback !== undefined ? props.fallback : schema.default,
    aria: (local = false) => ({
      'aria-invalid': problems.length > 0 || local ? 'true' : undefined,
      'aria-describedby': describedBy(id, { help: help !== undefined && help !== '', problems: problems.length > 0, local }),
    }),
  };
}

const shown = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

export function TextField(props: FieldProps) {
  const { ctx, path, value, optional } = props;
  const { id, problems, help, fallback, aria } = leaf(props);
  const choices = ctx.choices?.[pathPattern(path)];
  const listId = choices === undefined || choices.length === 0 ? undefined : `${id}__choices`;
  const text = typeof value === 'string' ? value : shown(value);
  const multiline = path[path.length - 1] === 'description' || text.includes('\n');
  const onInput = (next: string): void => (next === '' && optional ? ctx.remove(path) : ctx.set(path, next));
  const chosen = choices?.find((choice) => choice.value === text && choice.label !== choice.value);
  const attributes = {
    id,
    class: 'sf-input',
    value: text,
    placeholder: fallback === undefined ? undefined : shown(fallback),
    spellcheck: false,
    ...aria(),
  };
  const control = multiline ? (
    <textarea {...attributes} rows={2} onInput={(event) => onInput(event.currentTarget.value)} />
  ) : (
    <>
      <input type="text" {...attributes} list={listId} autocomplete="off" onInput={(event) => onInput(event.currentTarget.value)} />
      {listId === undefined ? null : (
        <datalist id={listId}>
          {choices?.map((choice) => (
            <option key={choice.value} value={choice.value} label={choice.label} />
          ))}
        </datalist>
      )}
    </>
  );
  return (
    <Shell
      id={id}
      label={props.label}
      help={help}
      problems={problems}
      tools={props.tools}
      control={control}
      note={chosen === undefined ? null : <p class="sf-note">{chosen.label}</p>}
    />
  );
}

export function NumberField(props: FieldProps) {
  const { ctx, path, value, optional } = props;
  const { id, schema, problems, help, fallback, aria } = leaf(props);
  const integer = schema.type === 'integer';
  const [draft, setDraft] = useState<string | null>(null);
  const [entry, setEntry] = useState<string | undefined>(undefined);
  const { min, max, step } = numberBounds(schema);
  const onInput = (input: HTMLInputElement): void => {
    setDraft(input.value);
    if (input.validity.badInput) return setEntry('Not a number yet.');
    if (input.value === '') {
      setEntry(optional ? undefined : 'A number is needed here.');
      if (optional) ctx.remove(path);
      return;
    }
    const number = Number(input.value);
    if (!Number.isFinite(number)) return setEntry('Not a number.');
    if (integer && !Number.isInteger(number)) return setEntry('A whole number is needed here.');
    setEntry(undefined);
    ctx.set(path, number);
  };
  const control = (
    <input
      type="number"
      id={id}
      class="sf-input sf-number"
      value={draft ?? (typeof value === 'number' ? String(value) : shown(value))}
      placeholder={fallback === undefined ? undefined : shown(fallback)}
      min={min}
      max={max}
      step={step}
      {...aria(entry !== undefined)}
      onInput={(event) => onInput(event.currentTarget)}
      onBlur={() => {
        setDraft(null);
        setEntry(undefined);
      }}
    />
  );
  const note =
    entry === undefined ? null : (
      <p class="sf-problem" id={`${id}__entry`}>
        {entry}
      </p>
    );
  return <Shell id={id} label={props.label} help={help} problems={problems} tools={props.tools} control={control} note={note} />;
}

export function EnumField(props: FieldProps) {
  const { ctx, path, value, optional } = props;
  const { id, schema, problems, help, fallback, aria } = leaf(props);
  const options = schema.enum ?? [];
  const key = (option: unknown): string => JSON.stringify(option) ?? '';
  const index = value === undefined ? -1 : options.findIndex((option) => key(option) === key(value));
  const control = (
    <select
      id={id}
      class="sf-input"
      value={index >= 0 ? String(index) : value === undefined ? '' : 'current'}
      {...aria()}
      onChange={(event) => {
        const chosen = event.currentTarget.value;
        if (chosen === '') ctx.remove(path);
        else if (chosen !== 'current') ctx.set(path, options[Number(chosen)]);
      }}
    >
      {optional || value === undefined ? (
        <option value="">{fallback === undefined ? '(not set)' : `default (${shown(fallback)})`}</option>
      ) : null}
      {index < 0 && value !== undefined ? <option value="current">{`${shown(value)} (not allowed)`}</option> : null}
      {options.map((option, at) => (
        <option key={at} value={String(at)}>
          {shown(option)}
        </option>
      ))}
    </select>
  );
  return <Shell id={id} label={props.label} help={help} problems={problems} tools={props.tools} control={control} />;
}

export function BooleanField(props: FieldProps) {
  const { ctx, path, value } = props;
  const { id, problems, help, fallback, aria } = leaf(props);
  const checked = typeof value === 'boolean' ? value : fallback === true;
  const control = (
    <input
      type="checkbox"
      id={id}
      class="sf-checkbox"
      checked={checked}
      {...aria()}
      onChange={(event) => ctx.set(path, event.currentTarget.checked)}
    />
  );
  const note = value === undefined && typeof fallback === 'boolean' ? <span class="sf-note">(default)</span> : null;
  return <Shell id={id} label={props.label} help={help} problems={problems} tools={props.tools} control={control} inline note={note} />;
}

/** An optional property fixed to `true` (warmaster's flags): ticked when set, removed when not. */
export function FlagField(props: FieldProps) {
  const { ctx, path, value } = props;
  const { id, schema, problems, help, aria } = leaf(props);
  const on = constValue(schema);
  const control = (
    <input
      type="checkbox"
      id={id}
      class="sf-checkbox"
      checked={value !== undefined}
      {...aria()}
      onChange={(event) => (event.currentTarget.checked ? ctx.set(path, on) : ctx.remove(path))}
    />
  );
  return <Shell id={id} label={props.label} help={help} problems={problems} tools={props.tools} control={control} inline />;
}

export function ConstField(props: FieldProps) {
  const { id, schema, problems, help, aria } = leaf(props);
  const fixed = shown(constValue(schema)) || 'none';
  const control = (
    <input
      type="text"
      id={id}
      class="sf-input sf-const"
      readOnly
      value={props.value === undefined ? fixed : shown(props.value) || 'none'}
      {...aria()}
    />
  );
  return <Shell id={id} label={props.label} help={help} problems={problems} tools={props.tools} control={control} />;
}

/** Any value (or a shape too deep for the form), as JSON (or YAML) text, read when the field loses focus. */
export function JsonField(props: FieldProps) {
  const { ctx, path, value, optional } = props;
  const { id, help, fallback, aria } = leaf(props);
  const problems = problemsAt(ctx.problems, path, true);
  const [draft, setDraft] = useState<string | null>(null);
  const [entry, setEntry] = useState<string | undefined>(undefined);
  const text = draft ?? jsonText(value);
  const commit = (): void => {
    if (draft === null) return;
    if (draft.trim() === '' && optional) {
      ctx.remove(path);
      setDraft(null);
      setEntry(undefined);
      return;
    }
    const parsed = parseJsonText(draft);
    if (!parsed.ok) return setEntry(parsed.message);
    setEntry(undefined);
    setDraft(null);
    ctx.set(path, parsed.value);
  };
  const control = (
    <textarea
      id={id}
      class="sf-input sf-json"
      spellcheck={false}
      rows={Math.min(8, Math.max(1, text.split('\n').length))}
      value={text}
      placeholder={fallback === undefined ? 'JSON, e.g. { "key": 1 }' : jsonText(fallback)}
      {...aria(entry !== undefined)}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onBlur={commit}
    />
  );
  const note =
    entry === undefined ? null : (
      <p class="sf-problem" id={`${id}__entry`}>
        {entry}
      </p>
    );
  return <Shell id={id} label={props.label} help={help} problems={problems} tools={props.tools} control={control} note={note} />;
}
