/**
 * Packages some commands need and the published package does not install by default (optional
 * peer dependencies in package.json), so that `npm install` of crucible stays lean: drawing report
 * pages needs vega and resvg, the Redis queue needs BullMQ. A command that needs one that is
 * missing says which, and how to install the set, in one line (exit 2), instead of a stack trace.
 */

export interface OptionalPackages {
  /** What they are for, completing "… needs the packages of …". */
  readonly purpose: string;
  readonly names: readonly string[];
}

export const REPORT_PACKAGES: OptionalPackages = {
  purpose: 'report pages (charts drawn to SVG and PNG)',
  names: ['vega', 'vega-lite', 'vega-embed', '@resvg/resvg-js', '@expo-google-fonts/inter'],
};
export const QUEUE_PACKAGES: OptionalPackages = { purpose: 'the Redis queue', names: ['bullmq', 'ioredis'] };

export class MissingPackagesError extends Error {
  override readonly name = 'MissingPackagesError';
}

/** The package a "cannot find" error of Node's loaders names, when it is one of `names`. */
function missingName(error: unknown, names: readonly string[]): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const message = error instanceof Error ? error.message : '';
  return names.find((name) => message.includes(`'${name}'`) || message.includes(`'${name}/`));
}

/** Runs `work`, which loads `packages`; a failure to find one becomes a MissingPackagesError that says how to install them. */
export async function needing<T>(packages: OptionalPackages, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const missing = missingName(error, packages.names);
    if (missing === undefined) throw error;
    throw new MissingPackagesError(
      `crucible: ${packages.purpose} need the packages ${packages.names.join(', ')}; ${missing} is not installed: npm install ${packages.names.join(' ')}`,
    );
  }
}
