import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * How the workbench is served (Node side of web/vite.config.ts, never bundled into the page): the
 * folders the page imports, which bound what the development server may read (`server.fs.allow`)
 * and what makes a build stale (cli/web-build.ts); and the response headers of both servers.
 */

/** The repository folders the page's modules and bundled data come from (found from the build's module graph). */
export const PAGE_SOURCES = ['web', 'engine', 'input', 'statistics', 'sim', 'analysis', 'documents', 'reports', 'data'] as const;

const PAGE = fileURLToPath(new URL('./index.html', import.meta.url));

/** The page's Content-Security-Policy as its <meta> in web/index.html states it: one policy, written once. */
export function pagePolicy(): string {
  const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(readFileSync(PAGE, 'utf8'))?.[1];
  if (policy === undefined)
    throw new Error(`${PAGE}: no <meta http-equiv="Content-Security-Policy" content="…">: the served page would have no policy`);
  return policy;
}

/** The policy without its `ws:` sources: only the development server's live reload opens a WebSocket. */
export const withoutDevSockets = (policy: string): string => policy.replace(/\s+ws:\/\/\S+/g, '');

function sendHeaders(response: ServerResponse, policy: string): void {
  response.setHeader('Content-Security-Policy', policy);
  response.setHeader('X-Content-Type-Options', 'nosniff');
}

/**
 * Both headers on every response (middlewares run before Vite's own, so the page, its scripts,
 * workers and error pages all carry them), and Vite's `/__open-in-editor` answered 404 in
 * development: it would start an editor on any file a request names, and any page the browser
 * has open may send that request.
 */
export function servingRules(): Plugin {
  const policy = pagePolicy();
  const built = withoutDevSockets(policy);
  return {
    name: 'crucible-serving-rules',
    configureServer(server) {
      server.middlewares.use('/__open-in-editor', (_request, response) => {
        response.statusCode = 404;
        response.end();
      });
      server.middlewares.use((_request, response, next) => {
        sendHeaders(response, policy);
        next();
      });
    },
    configurePreviewServer(server) {
      server.middlewares.use((_request, response, next) => {
        sendHeaders(response, built);
        next();
      });
    },
    // The built page's own <meta> drops the WebSocket sources too, for the static hosts that send no header.
    transformIndexHtml(html, context) {
      return context.server === undefined ? html.replace(policy, built) : html;
    },
  };
}
