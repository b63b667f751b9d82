import type { OddsMethod } from '../compute/odds.js';

/**
 * The workbench's whole setup, as one value: what the URL carries (compressed), so a link opens
 * the same scenario text, settings and view in a fresh page.
 */

export const VIEWS = ['odds', 'compare', 'matchups', 'balance', 'replay'] as const;
export type View = (typeof VIEWS)[number];

export interface Setup {
  /** The scenario's path in the workbench's volume (a bundled scenario's own path: its references resolve as on disk). */
  readonly file: string;
  /** The scenario, as YAML text: the one source of truth every editor changes. */
  readonly text: string;
  readonly view: View;
  readonly method: OddsMethod;
  readonly seed?: number;
  readonly trials?: number;
  /** The metric the charts show (default: the first). */
  readonly metric?: string;
  /** Compare: a variant declared in the file, or the edited copy `against` (its YAML). */
  readonly variant?: string;
  readonly against?: string;
  readonly roster?: string;
  /** The roster's YAML where the designer edited it (else the bundled file's), and the roster it was edited in. */
  readonly rosterText?: string;
  readonly rosterFile?: string;
  /** Balance: one entry to price (else the whole price list). */
  readonly unit?: string;
  readonly budget?: number;
  /** Balance: the tolerance as typed, "10%" or points. */
  readonly tolerance?: string;
  readonly precision?: number;
  readonly trial?: number;
}

const SHARE_VERSION = 1;

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

async function through(stream: CompressionStream | DecompressionStream, bytes: Uint8Array): Promise<Uint8Array> {
  const piped = new Blob([bytes as BlobPart]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(piped).arrayBuffer());
}

/** The setup as a URL fragment: `#v1.<deflate-raw of its JSON, base64url>`. */
export async function encodeSetup(setup: Setup): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(setup));
  return `#v${SHARE_VERSION}.${toBase64Url(await through(new CompressionStream('deflate-raw'), json))}`;
}

/** The setup a fragment carries, or why not (a cut or foreign link). */
export async function decodeSetup(hash: string): Promise<{ setup?: Setup; problem?: string }> {
  const match = /^#v(\d+)\.([A-Za-z0-9_-]+)$/.exec(hash);
  if (match === null) return hash === '' || hash === '#' ? {} : { problem: 'this link does not hold a workbench setup' };
  if (Number(match[1]) !== SHARE_VERSION) return { problem: `this link was made by another version of the workbench (format ${match[1]})` };
  try {
    const json = new TextDecoder().decode(await through(new DecompressionStream('deflate-raw'), fromBase64Url(match[2] ?? '')));
    const value = JSON.parse(json) as Partial<Setup>;
    if (typeof value.file !== 'string' || typeof value.text !== 'string') return { problem: 'this link is missing its scenario' };
    const view = VIEWS.includes(value.view as View) ? (value.view as View) : 'odds';
    return { setup: { ...value, file: value.file, text: value.text, view, method: value.method ?? 'auto' } };
  } catch {
    return { problem: 'this link is damaged (cut short when copied?)' };
  }
}
