import { useEffect, useRef, useState } from 'preact/hooks';
import { readText } from '../platform/volume.js';
import { DEFAULT_SCENARIO } from './scenarios.js';
import { decodeSetup, encodeSetup, type Setup } from './share.js';

/**
 * The setup, kept in the URL: read from the fragment when the page opens (a shared link), written
 * back (replaceState, no history entry per keystroke) a moment after every change.
 */

const URL_DELAY_MILLISECONDS = 250;

export async function bundledSetup(file: string, base?: Partial<Setup>): Promise<Setup> {
  return { view: 'odds', method: 'auto', ...base, file, text: await readText(file) };
}

/** A change to the setup: a key set to undefined is removed. */
export type SetupChange = { readonly [K in keyof Setup]?: Setup[K] | undefined };

export interface SetupState {
  readonly setup: Setup | undefined;
  readonly update: (change: SetupChange) => void;
  readonly replace: (setup: Setup) => void;
  /** What the link opened was refused for, or which of its fields were left out. */
  readonly linkProblems: readonly string[];
  /** The page opened a shared link's setup (its roster views run at once, as the sharer saw them). */
  readonly fromLink: boolean;
  /**
   * The setup is still the shared link's, as opened: no change made since. A roster view of a link
   * runs at once only then; once the designer has changed anything (the view included), a run waits
   * for their click, as on any other page.
   */
  readonly asLinked: boolean;
}

export function useSetup(): SetupState {
  const [setup, setSetup] = useState<Setup | undefined>(undefined);
  const [linkProblems, setLinkProblems] = useState<readonly string[]>([]);
  const [fromLink, setFromLink] = useState(false);
  const [changed, setChanged] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    void (async () => {
      const { setup: shared, problems } = await decodeSetup(location.hash);
      setLinkProblems(problems);
      setFromLink(shared !== undefined);
      setSetup(shared ?? (await bundledSetup(DEFAULT_SCENARIO)));
    })();
  }, []);
  useEffect(() => {
    if (setup === undefined) return undefined;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void encodeSetup(setup).then((hash) => history.replaceState(null, '', hash));
    }, URL_DELAY_MILLISECONDS);
    return () => clearTimeout(timer.current);
  }, [setup]);
  return {
    setup,
    update: (change) => {
      setChanged(true);
      setSetup((current) => {
        if (current === undefined) return current;
        const next: Record<string, unknown> = { ...current, ...change };
        for (const [key, value] of Object.entries(change)) if (value === undefined) delete next[key];
        return next as unknown as Setup;
      });
    },
    replace: (next) => {
      setChanged(true);
      setSetup(next);
    },
    linkProblems,
    fromLink,
    asLinked: fromLink && !changed,
  };
}
