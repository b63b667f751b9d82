import { type Command, InvalidArgumentError, Option } from 'commander';
import type { InlineConfig } from 'vite';
import { InputError } from '../../input/errors.js';
import { servePage } from '../page-server.js';
import { ensureWebBuild, hasWebSources, WEB_BUILD, WEB_CONFIG } from '../web-build.js';
import { EXIT_OK, type Io } from './io.js';

/**
 * `crucible serve`: the workbench (web/) on this machine. By default the built page (dist/web,
 * built first when missing or stale in a clone; shipped in the published package) as a static host
 * would serve it, with a Content-Security-Policy header (cli/page-server.ts); `--dev` is Vite's
 * development server, for contributors in a clone of the repository. Either way the page
 * computes everything itself: the server only hands out files, and listens on the loopback
 * interface unless told otherwise.
 */

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly dev?: boolean;
}

export { WEB_BUILD, WEB_CONFIG };
export const DEFAULT_PORT = 5173;

const LOOPBACK = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/i;

/** What to say before listening on `host` when that reaches beyond this machine; undefined on loopback. */
export function exposureWarning(host: string, dev: boolean): string | undefined {
  if (LOOPBACK.test(host)) return undefined;
  const reach = `warning: --host ${JSON.stringify(host)} is not loopback: the page becomes reachable from other machines on the network, by anyone who can reach this one.\n`;
  return dev
    ? `${reach}warning: --dev is the development server, which serves source files and reloads: never expose it; without --dev the built page is served.\n`
    : reach;
}

export interface Workbench {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Starts the server (the build in dist/web must exist unless `dev`). `overrides` is for tests of
 * the development server: a private dependency cache, for instance, merged over the repository's
 * configuration.
 */
export async function startWorkbench(options: ServeOptions, overrides: InlineConfig = {}): Promise<Workbench> {
  if (options.dev !== true) return servePage(WEB_BUILD, options);
  if (!hasWebSources())
    throw new InputError([
      {
        file: WEB_CONFIG,
        path: '--dev',
        message:
          'the development server builds the page from its sources, which only a clone of the repository has: without --dev, crucible serve serves the built page',
      },
    ]);
  // Vite is loaded here only: every other command's start-up pays nothing for it.
  const vite = await import('vite');
  const listen = { port: options.port, host: options.host, strictPort: false, open: false };
  const server = await (
    await vite.createServer(
      vite.mergeConfig<InlineConfig, InlineConfig>({ configFile: WEB_CONFIG, logLevel: 'warn', server: listen }, overrides),
    )
  ).listen();
  const url = server.resolvedUrls?.local[0] ?? server.resolvedUrls?.network[0] ?? `http://${options.host}:${options.port}/`;
  return { url, close: async () => server.close() };
}

export async function serveCommand(options: ServeOptions, io: Io): Promise<number> {
  const dev = options.dev === true;
  const warning = exposureWarning(options.host, dev);
  if (warning !== undefined) io.stderr(warning);
  if (!dev) await ensureWebBuild(io.stderr);
  const workbench = await startWorkbench(options);
  io.stdout(`crucible workbench: ${workbench.url}\n`);
  io.stderr(
    `${dev ? 'development server: web/ and the modules it imports, built as asked for' : `serving the built page in ${WEB_BUILD}`}; open the address in a browser. Ctrl-C stops it.\n`,
  );
  await new Promise<void>((resolve) => {
    const release = io.onInterrupt?.(() => {
      release?.();
      resolve();
    });
  });
  await workbench.close();
  return EXIT_OK;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError(`--port wants a port number from 0 to 65535 (0: any free port), got ${JSON.stringify(text)}.`);
  return port;
}

export function registerServe(program: Command, io: Io, setStatus: (status: number) => void): void {
  program
    .command('serve')
    .description('open the workbench: a web page that edits scenarios and computes their odds in the browser')
    .addOption(new Option('--port <port>', 'the port to listen on (the next free one if taken)').argParser(parsePort).default(DEFAULT_PORT))
    .addOption(
      new Option(
        '--host <address>',
        'the address to listen on; any but loopback (e.g. 0.0.0.0, every interface) makes the page reachable from other machines',
      ).default('127.0.0.1'),
    )
    .option('--dev', "for contributors: Vite's development server (modules built as asked for, reloaded on edit) instead of the built page")
    // The default since the built page became it; kept so that older scripts still run.
    .addOption(new Option('--built').hideHelp().conflicts('dev'))
    .addHelpText(
      'after',
      `
The page runs crucible's engines on Web Workers: results equal crucible run's for the same
scenario, seed, trials and method. The whole setup lives in the page's address, so a copied link
opens the same view. The page served is the build in dist/web, made first when it is missing or
older than its sources (npm run build:web makes the same static copy for any web host).

Examples:
  $ crucible serve
  $ crucible serve --port 8080
  $ crucible serve --dev`,
    )
    .action(async (options: ServeOptions) => {
      setStatus(await serveCommand(options, io));
    });
}
