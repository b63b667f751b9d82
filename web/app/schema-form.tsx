import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  BooleanField,
  type Choices,
  ConstField,
  describedBy,
  EnumField,
  type FieldProps,
  FlagField,
  FormName,
  FormNamePrefix,
  type FormContext,
  Help,
  JsonField,
  NumberField,
  Problems,
  TextField,
  ToolButton,
  useFormLabel,
} from './schema-form-fields.js';
import {
  alternativesOf,
  constValue,
  defaultValue,
  distinctItem,
  fieldId,
  fieldKind,
  humanize,
  isRecord,
  itemLabel,
  lowerFirst,
  mapKeyProblem,
  mapValueSchema,
  matchAlternative,
  MAX_FORM_DEPTH,
  moveItem,
  problemsAt,
  problemsByPath,
  propertiesOf,
  type JsonSchema,
  type Path,
  type SchemaNode,
  schemaOf,
  setAt,
  removeAt,
  showsUnsetInPlace,
  singular,
} from './schema-form-model.js';
import './schema-form.css';

/**
 * A form generated from a JSON Schema (a rule system's scenario format, from zod): objects as
 * fieldsets, lists with add, remove and move, maps with keys to add, unions with a choice of
 * alternative, and native inputs with their labels, help and problems. Fields not set show their
 * default as a placeholder and stay unset until changed, so the edited file stays minimal.
 */

export interface SchemaFormProps {
  readonly schema: JsonSchema;
  readonly value: unknown;
  readonly onChange: (next: unknown) => void;
  /** Problems by field path as the CLI writes it (`sides[0].groups[1].unit`; '' the root). */
  readonly problems?: readonly { readonly path: string; readonly message: string }[];
  /** Suggestions for text fields, by path pattern (`sides[].groups[].unit`). */
  readonly choices?: Choices;
  /** Top-level properties not shown. */
  readonly hidden?: readonly string[];
  readonly idPrefix?: string;
  /** What a screen reader calls this form before each field's label, where a page has two (FormName). */
  readonly name?: string;
}

/** What a new or moved field's focus goes to: its first input, else its list's "Add" button, else any button. */
const FOCUS_ORDER = ['input:not([readonly]), select, textarea', '.sf-append:not(:disabled)', 'button:not(:disabled)'];

export function SchemaForm({ schema, value, onChange, problems = [], choices, hidden = [], idPrefix = 'sf', name = '' }: SchemaFormProps) {
  const pendingFocus = useRef<{ id: string; tries: number } | undefined>(undefined);
  useEffect(() => {
    const pending = pendingFocus.current;
    if (pending === undefined) return;
    const element = document.getElementById(pending.id);
    const target =
      element?.matches('input, select, textarea, button') === true
        ? element
        : FOCUS_ORDER.reduce<HTMLElement | null | undefined>(
            (found, selector) => found ?? element?.querySelector<HTMLElement>(selector),
            null,
          );
    if (target !== null && target !== undefined) {
      target.focus();
      pendingFocus.current = undefined;
    } else if (++pending.tries > 3) pendingFocus.current = undefined;
  });
  const ctx: FormContext = {
    root: schema,
    prefix: idPrefix,
    problems: problemsByPath(problems),
    choices,
    hidden: new Set(hidden),
    set: (path, next) => onChange(setAt(value, path, next)),
    remove: (path) => onChange(removeAt(value, path)),
    focus: (id) => {
      pendingFocus.current = { id, tries: 0 };
    },
  };
  return (
    <FormName.Provider value={name}>
      <div class="sf-form">
        <Field ctx={ctx} node={schema} path={[]} value={value} label="Scenario" optional={false} bare />
      </div>
    </FormName.Provider>
  );
}

const CONTAINERS = new Set(['object', 'map', 'array', 'union']);

/** One field of any kind, by what its schema node is. */
export function Field(props: FieldProps) {
  const kind = fieldKind(props.node, props.ctx.root);
  if (props.path.length > MAX_FORM_DEPTH && CONTAINERS.has(kind)) return <JsonField {...props} />;
  switch (kind) {
    case 'object':
      return <ObjectField {...props} />;
    case 'map':
      return <MapField {...props} />;
    case 'array':
      return <ArrayField {...props} />;
    case 'union':
      return <UnionField {...props} />;
    case 'enum':
      return <EnumField {...props} />;
    case 'const':
      return <ConstField {...props} />;
    case 'string':
      return <TextField {...props} />;
    case 'integer':
    case 'number':
      return <NumberField {...props} />;
    case 'boolean':
      return <BooleanField {...props} />;
    case 'any':
      return <JsonField {...props} />;
  }
}

interface FrameProps {
  readonly props: FieldProps;
  readonly kindClass: string;
  readonly children: ComponentChildren;
}

/** A container's frame: a fieldset with its legend, tools, help and problems (or a plain group when bare). */
function Frame({ props, kindClass, children }: FrameProps) {
  const { ctx, path, label, tools, aside, bare = false } = props;
  const id = fieldId(ctx.prefix, path);
  const schema = schemaOf(props.node, ctx.root);
  const help = path.length === 0 ? undefined : schema.description;
  const problems = problemsAt(ctx.problems, path);
  const described = describedBy(id, { help: help !== undefined, problems: problems.length > 0 });
  const nestedName = useFormLabel(label);
  const body = (
    <>
      {tools === undefined ? null : <div class="sf-tools sf-frame-tools">{tools}</div>}
      <Help id={id} text={help} />
      <Problems id={id} messages={problems} />
      {children}
    </>
  );
  if (bare) {
    return (
      <div class={`sf-bare ${kindClass}`} id={id} aria-describedby={described}>
        {body}
      </div>
    );
  }
  return (
    <fieldset
      class={`sf-frame ${kindClass}${tools === undefined ? '' : ' sf-has-tools'}${problems.length > 0 ? ' sf-invalid' : ''}`}
      id={id}
      aria-describedby={described}
    >
      <legend>
        <FormNamePrefix />
        {label}
        {aside === undefined ? null : <span class="sf-aside"> {aside}</span>}
      </legend>
      {/* Fields inside are named after their frame too ("Side 1: Name"): a legend does not enter its fields' accessible names. A list's items name themselves. */}
      {kindClass.includes('sf-array') ? body : <FormName.Provider value={nestedName}>{body}</FormName.Provider>}
    </fieldset>
  );
}

function RemoveButton({ ctx, path, label }: { ctx: FormContext; path: Path; label: string }) {
  return <ToolButton label={`Remove ${lowerFirst(label)}`} text="Remove" onClick={() => ctx.remove(path)} />;
}

function ObjectField(props: FieldProps) {
  const { ctx, path, value } = props;
  const schema = schemaOf(props.node, ctx.root);
  const record = isRecord(value) ? value : {};
  const hidden = path.length === 0 ? ctx.hidden : new Set<string>();
  const properties = propertiesOf(schema).filter((property) => !hidden.has(property.key));
  const isFlag = (node: SchemaNode): boolean => fieldKind(node, ctx.root) === 'const' && constValue(schemaOf(node, ctx.root)) === true;
  const isSet = (key: string): boolean => Object.hasOwn(record, key) && record[key] !== undefined;
  const inPlace = properties.filter(
    (property) => property.required || isSet(property.key) || showsUnsetInPlace(property.schema, ctx.root) || isFlag(property.schema),
  );
  const addable = properties.filter((property) => !inPlace.includes(property));
  const known = new Set(Object.keys(schema.properties ?? {}));
  const extras = Object.keys(record).filter((key) => !known.has(key) && !hidden.has(key));
  const extraSchema: SchemaNode = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : {};
  return (
    <Frame props={props} kindClass="sf-object">
      {inPlace.map((property) => {
        const childPath = [...path, property.key];
        const label = humanize(property.key);
        const set = isSet(property.key);
        const child: FieldProps = {
          ctx,
          node: property.schema,
          path: childPath,
          value: record[property.key],
          label,
          optional: !property.required,
        };
        if (!property.required && isFlag(property.schema)) return <FlagField key={property.key} {...child} />;
        return (
          <Field
            key={property.key}
            {...child}
            tools={!property.required && set ? <RemoveButton ctx={ctx} path={childPath} label={label} /> : undefined}
          />
        );
      })}
      {extras.map((key) => (
        <Field
          key={`extra:${key}`}
          ctx={ctx}
          node={extraSchema}
          path={[...path, key]}
          value={record[key]}
          label={key}
          optional
          tools={<RemoveButton ctx={ctx} path={[...path, key]} label={key} />}
        />
      ))}
      {addable.length === 0 ? null : (
        <AddProperty props={props} addable={addable.map((property) => ({ key: property.key, node: property.schema }))} />
      )}
    </Frame>
  );
}

function AddProperty({ props, addable }: { props: FieldProps; addable: readonly { key: string; node: SchemaNode }[] }) {
  const { ctx, path, label } = props;
  const id = `${fieldId(ctx.prefix, path)}__add`;
  const [chosen, setChosen] = useState<string>('');
  const addLabel = useFormLabel(`Add the chosen field to ${lowerFirst(label)}`);
  const key = addable.some((entry) => entry.key === chosen) ? chosen : (addable[0]?.key ?? '');
  const add = (): void => {
    const entry = addable.find((candidate) => candidate.key === key);
    if (entry === undefined) return;
    const childPath = [...path, entry.key];
    ctx.set(childPath, defaultValue(entry.node, ctx.root, { path: childPath, choices: ctx.choices ?? {}, minimal: true }));
    ctx.focus(fieldId(ctx.prefix, childPath));
  };
  return (
    <div class="sf-add">
      <label for={id}>
        <FormNamePrefix />
        Add field
      </label>
      <select id={id} class="sf-input" value={key} onChange={(event) => setChosen(event.currentTarget.value)}>
        {addable.map((entry) => (
          <option key={entry.key} value={entry.key} title={schemaOf(entry.node, ctx.root).description}>
            {humanize(entry.key)}
          </option>
        ))}
      </select>
      <button type="button" aria-label={addLabel} onClick={add}>
        Add
      </button>
    </div>
  );
}

function MapField(props: FieldProps) {
  const { ctx, path, value } = props;
  const addKeyLabel = useFormLabel(`Add the key to ${lowerFirst(props.label)}`);
  const schema = schemaOf(props.node, ctx.root);
  const record = isRecord(value) ? value : {};
  const valueNode = mapValueSchema(schema) ?? {};
  const keys = Object.keys(record);
  const id = fieldId(ctx.prefix, path);
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const add = (): void => {
    const key = draft.trim();
    const refused = mapKeyProblem(schema, key, keys, ctx.root);
    setProblem(refused);
    if (refused !== undefined) return;
    const childPath = [...path, key];
    ctx.set(childPath, defaultValue(valueNode, ctx.root, { path: childPath, choices: ctx.choices ?? {}, minimal: true }));
    ctx.focus(fieldId(ctx.prefix, childPath));
    setDraft('');
  };
  return (
    <Frame props={props} kindClass="sf-map">
      {keys.map((key) => (
        <Field
          key={key}
          ctx={ctx}
          node={valueNode}
          path={[...path, key]}
          value={record[key]}
          label={key}
          optional={false}
          tools={<RemoveButton ctx={ctx} path={[...path, key]} label={key} />}
        />
      ))}
      <div class="sf-add">
        <label for={`${id}__key`}>
          <FormNamePrefix />
          New key
        </label>
        <input
          type="text"
          id={`${id}__key`}
          class="sf-input"
          value={draft}
          spellcheck={false}
          autocomplete="off"
          aria-invalid={problem === undefined ? undefined : 'true'}
          aria-describedby={problem === undefined ? undefined : `${id}__key-problem`}
          onInput={(event) => {
            setDraft(event.currentTarget.value);
            setProblem(undefined);
          }}
        />
        <button type="button" aria-label={addKeyLabel} onClick={add}>
          Add
        </button>
        {problem === undefined ? null : (
          <p class="sf-problem sf-wide" id={`${id}__key-problem`}>
            {problem}
          </p>
        )}
      </div>
    </Frame>
  );
}

const itemName = (item: unknown): string | undefined => {
  if (!isRecord(item)) return undefined;
  const name = item.name ?? item.id;
  return typeof name === 'string' && name !== '' ? name : undefined;
};

function ArrayField(props: FieldProps) {
  const { ctx, path, value, label } = props;
  const formName = useFormLabel('');
  const schema = schemaOf(props.node, ctx.root);
  const items: readonly unknown[] = Array.isArray(value) ? value : [];
  const min = schema.minItems ?? 0;
  const max = schema.maxItems ?? Infinity;
  const noun = lowerFirst(singular(label));
  const move = (from: number, to: number): void => {
    ctx.set(path, moveItem(items, [], from, to));
    const target = fieldId(ctx.prefix, [...path, to]);
    ctx.focus(`${target}__${to < from ? (to === 0 ? 'down' : 'up') : to === items.length - 1 ? 'up' : 'down'}`);
  };
  const remove = (index: number): void => {
    ctx.remove([...path, index]);
    ctx.focus(
      items.length > 1 ? fieldId(ctx.prefix, [...path, Math.min(index, items.length - 2)]) : `${fieldId(ctx.prefix, path)}__append`,
    );
  };
  const append = (): void => {
    const childPath = [...path, items.length];
    const item = distinctItem(
      defaultValue(schema.items, ctx.root, { path: childPath, choices: ctx.choices ?? {}, minimal: true }),
      items,
      schema.items,
      ctx.root,
    );
    ctx.set(childPath, item);
    ctx.focus(fieldId(ctx.prefix, childPath));
  };
  return (
    <Frame props={props} kindClass="sf-array">
      {items.length === 0 ? <p class="sf-note">None yet.</p> : null}
      <ol class="sf-items">
        {items.map((item, index) => {
          const childPath = [...path, index];
          const childLabel = itemLabel(label, index);
          const words = lowerFirst(childLabel);
          const itemId = fieldId(ctx.prefix, childPath);
          const tools = (
            <span class="sf-item-tools">
              <button
                type="button"
                class="sf-tool"
                id={`${itemId}__up`}
                aria-label={`${formName}Move ${words} up`}
                title="Move up"
                disabled={index === 0}
                onClick={() => move(index, index - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                class="sf-tool"
                id={`${itemId}__down`}
                aria-label={`${formName}Move ${words} down`}
                title="Move down"
                disabled={index === items.length - 1}
                onClick={() => move(index, index + 1)}
              >
                ↓
              </button>
              <ToolButton label={`Remove ${words}`} text="Remove" disabled={items.length <= min} onClick={() => remove(index)} />
            </span>
          );
          return (
            <li key={index} class="sf-item">
              <Field
                ctx={ctx}
                node={schema.items}
                path={childPath}
                value={item}
                label={childLabel}
                optional={false}
                tools={tools}
                aside={itemName(item)}
              />
            </li>
          );
        })}
      </ol>
      <button
        type="button"
        class="sf-append"
        id={`${fieldId(ctx.prefix, path)}__append`}
        aria-label={`${formName}Add ${noun}`}
        disabled={items.length >= max}
        onClick={append}
      >
        Add {noun}
      </button>
    </Frame>
  );
}

function UnionField(props: FieldProps) {
  const { ctx, path, value, label, tools } = props;
  const union = schemaOf(props.node, ctx.root);
  const alternatives = alternativesOf(union, ctx.root);
  const id = fieldId(ctx.prefix, path);
  const fallback = value === undefined ? union.default : undefined;
  const matched = matchAlternative(union, value === undefined ? fallback : value, ctx.root);
  const unknownValue = matched < 0 && value !== undefined;
  const index = Math.max(matched, 0);
  const alternative = alternatives[index];
  const help = union.description;
  const choose = (chosen: string): void => {
    const next = alternatives[Number(chosen)];
    if (next === undefined || Number(chosen) === matched) return;
    // Focus stays on the select: arrow keys on a closed select choose as they go.
    ctx.set(path, defaultValue(next.schema, ctx.root, { path, choices: ctx.choices ?? {}, minimal: true }));
  };
  const nestedName = useFormLabel(label);
  let body: preact.JSX.Element;
  if (unknownValue || alternative === undefined)
    body = <JsonField ctx={ctx} node={{}} path={path} value={value} label={`${label} as JSON`} optional={props.optional} />;
  else {
    const kind = fieldKind(alternative.schema, ctx.root);
    const container = kind === 'object' || kind === 'map' || kind === 'array';
    // A list inside a union names its elements "Entry 1"… (the group around it carries the field's name).
    const subLabel =
      kind === 'array' ? 'Entries' : container ? label : alternative.label.charAt(0).toUpperCase() + alternative.label.slice(1);
    body = (
      <Field
        ctx={ctx}
        node={alternative.schema}
        path={path}
        value={value}
        label={subLabel}
        optional={props.optional}
        fallback={fallback}
        bare={container}
      />
    );
  }
  return (
    <div class="sf-union" role="group" aria-labelledby={`${id}__kind-label`}>
      <div class="sf-label-row">
        <label id={`${id}__kind-label`} for={`${id}__kind`}>
          <FormNamePrefix />
          {label}
        </label>
        <select
          id={`${id}__kind`}
          class="sf-kind"
          aria-describedby={describedBy(`${id}__kind`, { help: help !== undefined })}
          value={unknownValue ? 'other' : String(index)}
          onChange={(event) => choose(event.currentTarget.value)}
        >
          {alternatives.map((entry, at) => (
            <option key={at} value={String(at)}>
              {entry.label}
            </option>
          ))}
          {unknownValue ? <option value="other">other (JSON)</option> : null}
        </select>
        {tools === undefined ? null : <span class="sf-tools">{tools}</span>}
      </div>
      <Help id={`${id}__kind`} text={help} />
      {/* A container chosen here is bare (this group carries its name): its fields are named after it, as a frame's are. */}
      <FormName.Provider value={nestedName}>{body}</FormName.Provider>
    </div>
  );
}
