import { useMemo, useState } from 'preact/hooks';
import { z } from 'zod';
import type { FieldChoices, RuleSystem } from '../../engine/rule-system.js';
import type { Problem } from '../../input/errors.js';
import { problemText } from '../compute/scenario.js';
import type { JsonSchema } from './schema-form-model.js';
import { SchemaForm } from './schema-form.js';
import { dataOf, withData } from './yaml-text.js';

/**
 * The scenario editor: a form generated from the rule system's JSON Schema (the one `crucible
 * schema` writes for editors) or the YAML itself; both edit the same text. Problems are the CLI's
 * own messages, listed under the editor and shown beside their fields.
 */

const schemas = new WeakMap<RuleSystem, JsonSchema>();

function formSchema(system: RuleSystem): JsonSchema {
  let schema = schemas.get(system);
  if (schema === undefined) {
    schema = z.toJSONSchema(system.scenarioSchema, { io: 'input' }) as JsonSchema;
    schemas.set(system, schema);
  }
  return schema;
}

export interface EditorProps {
  readonly label: string;
  readonly idPrefix: string;
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly system: RuleSystem | undefined;
  readonly problems: readonly Problem[];
  readonly choices: FieldChoices;
  /** Where the page shows a second editor (Compare's edited copy): said before each of its controls' names, which would repeat the first's. */
  readonly distinctName?: boolean;
}

export function ScenarioEditor({ label, idPrefix, text, onText, system, problems, choices, distinctName = false }: EditorProps) {
  const [mode, setMode] = useState<'form' | 'yaml'>('form');
  const parsed = useMemo(() => dataOf(text), [text]);
  const schema = system === undefined ? undefined : formSchema(system);
  const formProblems = problems.map((problem) => ({ path: problem.path === '(root)' ? '' : problem.path, message: problem.message }));
  return (
    <section class="editor" aria-label={label}>
      <div class="tabs" role="group" aria-label={`${label}: edit as`}>
        <button
          type="button"
          aria-pressed={mode === 'form'}
          aria-label={distinctName ? `${label}: form` : undefined}
          onClick={() => setMode('form')}
        >
          Form
        </button>
        <button
          type="button"
          aria-pressed={mode === 'yaml'}
          aria-label={distinctName ? `${label}: YAML` : undefined}
          onClick={() => setMode('yaml')}
        >
          YAML
        </button>
      </div>
      {mode === 'yaml' || schema === undefined || parsed.data === undefined ? (
        <>
          {mode === 'form' ? (
            <p class="muted">
              {parsed.problem === undefined ? 'Choose a known ruleset to edit with the form.' : 'The form needs the YAML to parse first.'}
            </p>
          ) : null}
          <label class="yaml-label" for={`${idPrefix}-yaml`}>
            {label} as YAML
          </label>
          <textarea
            id={`${idPrefix}-yaml`}
            class="yaml"
            spellcheck={false}
            value={text}
            onInput={(event) => onText(event.currentTarget.value)}
            rows={24}
          />
        </>
      ) : (
        <SchemaForm
          schema={schema}
          value={parsed.data}
          onChange={(next) => onText(withData(text, next))}
          problems={formProblems}
          choices={choices}
          hidden={['ruleset', 'variants', 'seed', 'trials']}
          idPrefix={idPrefix}
          name={distinctName ? label : ''}
        />
      )}
      {problems.length === 0 ? null : (
        <div class="problems" aria-live="polite">
          <h3>{problems.length === 1 ? 'One thing to fix' : `${problems.length} things to fix`}</h3>
          <ul>
            {problems.map((problem, index) => (
              <li key={index}>
                <code>{problemText(problem)}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
