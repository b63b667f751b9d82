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

export function useSetup(): { setup: Setup | undefined; update: (change: SetupChange) => void; replace: (setup: Setup) => void; linkProblem: string | undefined } {
  const [setup, setSetup] = useState<Setup | undefined>(undefined);
  const [linkProblem, setLinkProblem] = useState<string | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    void (async () => {
      const { setup: shared, problem } = await decodeSetup(location.hash);
      setLinkProblem(problem);
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
    update: (change) =>
      setSetup((current) => {
        if (current === undefined) return current;
        const next: Record<string, unknown> = { ...current, ...change };
        for (const [key, value] of Object.entries(change)) if (value === undefined) delete next[key];
        return next as unknown as Setup;
      }),
    replace: setSetup,
    linkProblem,
  };
}
