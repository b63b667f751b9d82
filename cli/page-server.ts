import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * The built workbench page served as a static host would serve it: files of one folder, GET and
 * HEAD only, with the page's Content-Security-Policy (its built <meta>'s, which has no development
 * WebSocket sources) and nosniff on every response. Node's own http server: the published package
 * ships the built page without Vite, and serving it needs nothing more. Nothing outside the folder
 * is ever read — no `..`, no dotfiles, no symbolic link leading out.
 */

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** How many ports after a taken one are tried (the first free one is used, as Vite's servers do). */
const PORTS_TRIED = 20;

export interface PageServerOptions {
  readonly port: number;
  readonly host: string;
}

export interface PageServer {
  readonly url: string;
  close(): Promise<void>;
}

/** The built page's policy: its own <meta http-equiv="Content-Security-Policy">, so that header and page agree. */
export async function builtPagePolicy(directory: string): Promise<string> {
  const page = path.join(directory, 'index.html');
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(await readFile(page, 'utf8'))?.[1];
  if (policy === undefined)
    throw new Error(`${page}: no <meta http-equiv="Content-Security-Policy" content="…">: the served page would have no policy`);
  return policy;
}

/** The file under `root` a request path names (a folder: its index.html), or undefined when it names none that may be served. */
async function fileFor(root: string, requestPath: string): Promise<string | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return undefined;
  }
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment.startsWith('.') || segment.includes('\\') || segment.includes('\0'))) return undefined;
  let file = path.join(root, ...segments);
  try {
    if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
    const real = await realpath(file);
    if (!real.startsWith(`${root}${path.sep}`) || !(await stat(real)).isFile()) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

function answer(root: string, policy: string): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    response.setHeader('Content-Security-Policy', policy);
    response.setHeader('X-Content-Type-Options', 'nosniff');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const file = await fileFor(root, new URL(request.url ?? '/', 'http://page').pathname);
    if (file === undefined) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    const { size } = await stat(file);
    response.writeHead(200, {
      'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Length': size,
    });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => reject(error);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** The address a browser on this machine opens: a wildcard host is reached through localhost. */
function localUrl(host: string, port: number): string {
  const name =
    host === '' || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}/`;
}

/** Serves `directory` (a built page) on `host`, from `port` on (0: any free port). */
export async function servePage(directory: string, options: PageServerOptions): Promise<PageServer> {
  const root = await realpath(directory);
  const policy = await builtPagePolicy(root);
  const handle = answer(root, policy);
  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  let port = options.port;
  for (let attempt = 1; ; attempt++) {
    try {
      port = await listen(server, port, options.host);
      break;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EADDRINUSE' || options.port === 0 || attempt === PORTS_TRIED) throw error;
      port++;
    }
  }
  return {
    url: localUrl(options.host, port),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        server.closeAllConnections();
      }),
  };
}
