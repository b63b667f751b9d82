import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { EXIT_BAD_INPUT, EXIT_OK, type Io } from './io.js';

/**
 * `crucible serve`: the workbench (web/) on this machine. By default Vite's development server
 * builds pages as they are asked for; `--built` serves the static build of `npm run build:web`
 * (dist/web) as any static host would. Either way the page computes everything itself: the server
 * only hands out files, and listens on the loopback interface unless told otherwise.
 */

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly built?: boolean;
}

export const WEB_CONFIG = fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url));
export const WEB_BUILD = fileURLToPath(new URL('../../dist/web', import.meta.url));
export const DEFAULT_PORT = 5173;

export async function serveCommand(options: ServeOptions, io: Io): Promise<number> {
  if (options.built === true && !existsSync(`${WEB_BUILD}/index.html`)) {
    io.stderr(`error: --built: no build at ${WEB_BUILD}: run npm run build:web first\n`);
    return EXIT_BAD_INPUT;
  }
  // Vite is loaded here only: every other command's start-up pays nothing for it.
  const vite = await import('vite');
  const settings = { configFile: WEB_CONFIG, logLevel: 'warn' as const };
  const server =
    options.built === true
      ? await vite.preview({ ...settings, preview: { port: options.port, host: options.host, strictPort: false, open: false } })
      : await vite.createServer({ ...settings, server: { port: options.port, host: options.host, strictPort: false, open: false } }).then(async (dev) => dev.listen());
  const url = server.resolvedUrls?.local[0] ?? server.resolvedUrls?.network[0] ?? `http://${options.host}:${options.port}/`;
  io.stdout(`crucible workbench: ${url}\n`);
  io.stderr(`${options.built === true ? `serving the build in ${WEB_BUILD}` : 'serving web/ (development: pages built as asked for)'}; open the address in a browser. Ctrl-C stops it.\n`);
  await new Promise<void>((resolve) => {
    const release = io.onInterrupt?.(() => {
      release?.();
      resolve();
    });
  });
  await (server as { close(): Promise<void> }).close();
  return EXIT_OK;
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError(`--port wants a port number from 0 to 65535 (0: any free port), got ${JSON.stringify(text)}.`);
  return port;
}

export function registerServe(program: Command, io: Io, setStatus: (status: number) => void): void {
  program
    .command('serve')
    .description('open the workbench: a web page that edits scenarios and computes their odds in the browser')
    .addOption(new Option('--port <port>', 'the port to listen on (the next free one if taken)').argParser(parsePort).default(DEFAULT_PORT))
    .addOption(new Option('--host <address>', 'the address to listen on (0.0.0.0: every interface, to reach it from another machine)').default('127.0.0.1'))
    .option('--built', 'serve the static build of npm run build:web (dist/web) instead of the development server')
    .addHelpText(
      'after',
      `
The page runs crucible's engines on Web Workers: results equal crucible run's for the same
scenario, seed, trials and method. The whole setup lives in the page's address, so a copied link
opens the same view; npm run build:web writes a static copy for any web host.

Examples:
  $ crucible serve
  $ npm run build:web && crucible serve --built --port 8080`,
    )
    .action(async (options: ServeOptions) => {
      setStatus(await serveCommand(options, io));
    });
}
