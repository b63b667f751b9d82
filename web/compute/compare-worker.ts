import { compareDocument } from '../../documents/compare-document.js';
import { compareVariants } from '../../analysis/compare.js';
import type { MonteCarloMethod } from '../../sim/methods.js';
import type { ReportPage } from '../../reports/page-model.js';
import { comparePage } from '../../reports/compare-page.js';
import { InputError, type Problem } from '../../input/errors.js';
import { installBrowserPlatform } from '../platform/browser-platform.js';
import { writeText } from '../platform/volume.js';

/**
 * `crucible compare` in a Web Worker: a variant against the scenario as written (or another
 * variant), both on the same dice trial by trial (common random numbers), as the CLI pairs them
 * (analysis/compare.ts). The paired loop runs start to end in one call, so it runs here, off the
 * page's thread, and an edit cancels it by ending this worker.
 */

export interface CompareRequest {
  /** The designer's files (path, text), written to this worker's volume first. */
  readonly files: readonly (readonly [string, string])[];
  readonly file: string;
  readonly baseline?: string;
  readonly variant: string;
  readonly seed?: number;
  readonly trials?: number;
  readonly method: MonteCarloMethod;
}

export type CompareReply =
  | { readonly kind: 'progress'; readonly done: number; readonly planned: number }
  | { readonly kind: 'done'; readonly page: ReportPage }
  | { readonly kind: 'problems'; readonly problems: readonly Problem[] }
  | { readonly kind: 'error'; readonly message: string };

const PROGRESS_EVERY_MILLISECONDS = 200;

installBrowserPlatform();

self.onmessage = async (event: MessageEvent<CompareRequest>) => {
  const request = event.data;
  const post = (reply: CompareReply): void => self.postMessage(reply);
  try {
    for (const [file, text] of request.files) writeText(file, text);
    let last = 0;
    const result = await compareVariants(request.file, request.baseline, request.variant, {
      method: request.method,
      ...(request.seed === undefined ? {} : { seed: request.seed }),
      ...(request.trials === undefined ? {} : { trials: request.trials }),
      onProgress: (done, planned) => {
        const now = performance.now();
        if (now - last < PROGRESS_EVERY_MILLISECONDS) return;
        last = now;
        post({ kind: 'progress', done, planned });
      },
    });
    post({ kind: 'done', page: comparePage(compareDocument(result)) });
  } catch (error) {
    if (error instanceof InputError) post({ kind: 'problems', problems: error.problems });
    else post({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
