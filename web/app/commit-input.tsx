import { useEffect, useState } from 'preact/hooks';

/**
 * A text box whose value is committed on Enter or when it loses focus, not per keystroke (a new
 * run per digit would be waste), and which keeps what is being typed while the page redraws
 * around it (results refine several times a second).
 */
export function CommitInput({ id, value, placeholder, onCommit }: { id: string; value: string; placeholder?: string; onCommit: (text: string) => void }) {
  const [draft, setDraft] = useState(value);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (!editing) setDraft(value);
  }, [value, editing]);
  const commit = (): void => {
    setEditing(false);
    if (draft !== value) onCommit(draft);
  };
  return (
    <input
      id={id}
      inputMode="numeric"
      placeholder={placeholder}
      value={draft}
      onFocus={() => setEditing(true)}
      onInput={(event) => setDraft(event.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit();
      }}
    />
  );
}
