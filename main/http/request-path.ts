// A path can carry a download token as well as a query can: "/video%3Ftoken=…" (an encoded "?"),
// "/video;token=…" (a matrix parameter), "/video/<token>" (a segment too many). So the path a log
// line or a problem body shows is never the raw URL: it is rebuilt from the route that matched,
// each parameter shown only when it is plain, and for a request no route matched, it is cut at
// the first segment no route expects there.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { REDACTED, isPlainPathValue, redactQuery, shownPathValue } from './redact-url.ts';

/** Each server's routes, as segments, for cutting a path no route matched. */
const routesByServer = new WeakMap<object, string[][]>();

const segmentsOf = (path: string) => path.slice(1).split('/');

/** Records the routes `app` gets from now on (so call it before registering them). */
export function collectRoutes(app: FastifyInstance): void {
  const routes: string[][] = [];
  routesByServer.set(app.server, routes);
  app.addHook('onRoute', (route) => {
    routes.push(segmentsOf(route.url));
  });
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** How many of `given`'s leading segments `route` expects there. */
function expectedSegments(route: string[], given: string[]): number {
  for (let index = 0; index < given.length; index++) {
    const expected = route[index];
    const value = decoded(given[index]!);
    if (expected === undefined || value === undefined) return index;
    if (expected === '*') {
      let end = index;
      while (end < given.length && isPlainPathValue(decoded(given[end]!) ?? '')) end++;
      return end;
    }
    if (expected.includes(':') ? !isPlainPathValue(value) : expected !== value) return index;
  }
  return given.length;
}

/** A path no route matched, up to the first segment no route expects, the rest a marker. */
function cutPath(path: string, routes: readonly string[][]): string {
  const given = segmentsOf(path);
  const kept = Math.max(0, ...routes.map((route) => expectedSegments(route, given)));
  const rest = given.slice(kept).join('/');
  // A trailing slash hides nothing.
  const tail = rest === '' ? (kept < given.length ? [''] : []) : [REDACTED];
  return `/${[...given.slice(0, kept), ...tail].join('/')}`;
}

/** A matched route's path with its parameters filled in, each one shown only when it is plain. */
function routePath(route: string, params: Record<string, unknown>): string {
  return segmentsOf(route)
    .map((segment) => {
      if (segment === '*') {
        const parts = String(params['*'] ?? '').split('/');
        const plain = parts.findIndex((part) => part !== '' && !isPlainPathValue(part));
        return plain < 0 ? parts.join('/') : [...parts.slice(0, plain), REDACTED].join('/');
      }
      return segment.replace(/:(\w+)(\([^)]*\))?/g, (_match, name: string) => {
        const value = String(params[name] ?? '');
        return value === '' ? '' : shownPathValue(value);
      });
    })
    .reduce((path, segment) => `${path}/${segment}`, '');
}

/** The request's path as a log line or a problem body may show it (no query). */
export function shownPath(request: FastifyRequest): string {
  const route = request.routeOptions?.url;
  if (route !== undefined) return routePath(route, (request.params ?? {}) as Record<string, unknown>);
  const path = request.url.split('?', 1)[0]!;
  const server = request.server as FastifyInstance | undefined;
  return cutPath(path, (server && routesByServer.get(server.server)) ?? []);
}

/** The request's URL as a log line shows it: the shown path and the redacted query. */
export function loggedUrl(request: FastifyRequest): string {
  return `${shownPath(request)}${redactQuery(request.url)}`;
}
