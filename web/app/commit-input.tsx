import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * Text boxes whose value is committed when they lose focus (or on Enter, for one line), not per
 * keystroke (a new run or a roster reloaded per character would be waste), and which keep what is
 * being typed while the page redraws around them: a controlled box handed its committed value on
 * every redraw (results refine several times a second, a roster finishes loading) would lose it.
 */
function useDraft(value: string, onCommit: (text: string) => void, invalid = false) {
  const [draft, setDraft] = useState(value);
  // A ref, not state: whether the box is being edited must be known at once. As state, the effect
  // that follows a blur could run after the next focus and typing, and put the old value back over
  // what was just typed (a test typing fast under load lost its "1e12" so).
  const editing = useRef(false);
  // Only a change of the committed value from outside (another edit, a link) replaces the draft; a
  // refused value stays in its box beside its problem.
  useEffect(() => {
    if (!editing.current) setDraft(value);
  }, [value]);
  const commit = (): void => {
    editing.current = false;
    // A refused value is committed again even when unchanged from the last accepted one (typing that value back clears the problem).
    if (draft !== value || invalid) onCommit(draft);
  };
  return {
    commit,
    props: {
      value: draft,
      onFocus: () => {
        editing.current = true;
      },
      onInput: (event: { currentTarget: { value: string } }) => setDraft(event.currentTarget.value),
      onBlur: commit,
    },
  };
}

export function CommitInput({
  id,
  value,
  placeholder,
  onCommit,
  inputMode = 'numeric',
  size,
  invalid,
  describedBy,
}: {
  id: string;
  value: string;
  placeholder?: string;
  onCommit: (text: string) => void;
  inputMode?: 'numeric' | 'text';
  size?: number;
  invalid?: boolean;
  describedBy?: string | undefined;
}) {
  const { commit, props } = useDraft(value, onCommit, invalid);
  return (
    <input
      id={id}
      inputMode={inputMode}
      placeholder={placeholder}
      size={size}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      {...props}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}

export function CommitTextArea({
  id,
  value,
  rows,
  onCommit,
}: {
  id: string;
  value: string;
  rows: number;
  onCommit: (text: string) => void;
}) {
  const { props } = useDraft(value, onCommit);
  return <textarea id={id} class="yaml" rows={rows} spellcheck={false} {...props} />;
}
