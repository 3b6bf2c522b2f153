import type { Context } from 'hono';
import { POSTHOG_BROWSER_KEY, POSTHOG_PATH } from '#common/analytics.ts';
import type { Deps } from '#server/deps.ts';
import { ApiError } from '#server/http/api-error.ts';
import { type AppEnv, newRoutes } from '#server/http/context.ts';
import { callUpstream, upstreamError } from '#server/http/upstream.ts';
import type { Queryable } from '#server/platform/db/database.ts';
import { countryOf } from '#server/platform/ip-country.ts';
import { summarizeAgent } from '#server/platform/user-agent.ts';
import { storeEvents } from './events-store.ts';
import { decodePosthogBody, eventsOf, withProjectKey } from './posthog-payload.ts';

/** Batches of events are larger than other API bodies; compressed they rarely pass 100 KB. */
export const POSTHOG_MAX_BODY_BYTES = 1024 * 1024;
/** posthog-js's own scripts (recorder, surveys) are the largest answers it asks for. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** A browser sends a batch every few seconds; this leaves room for many visitors behind one address. */
const RATE_LIMIT = { hits: 600, windowSeconds: 60 };

/** Everything off: the embedded store has no flags, recordings or surveys to offer. */
const EMBEDDED_CONFIG = {
  featureFlags: {},
  featureFlagPayloads: {},
  flags: {},
  errorsWhileComputingFlags: false,
  sessionRecording: false,
  surveys: false,
  heatmaps: false,
  autocapture_opt_out: true,
  capturePerformance: false,
  supportedCompression: ['gzip-js'],
};

/** What posthog-js's remote configuration script does: hand it the configuration above. */
const EMBEDDED_CONFIG_SCRIPT = `(window._POSTHOG_REMOTE_CONFIG=window._POSTHOG_REMOTE_CONFIG||{})[${JSON.stringify(
  POSTHOG_BROWSER_KEY,
)}]={config:${JSON.stringify(EMBEDDED_CONFIG)},siteApps:[]};`;

const CAPTURE_PATH = /^\/(e|i\/v0\/e|batch|capture|track|engage)\/?$/;
const CONFIG_PATH = /^\/(flags|decide)\/?$|^\/array\/[^/]+\/config$/;
const HEADERS_PASSED_BACK = ['content-type', 'cache-control'];

async function embedded(c: Context<AppEnv>, db: Queryable, path: string): Promise<Response> {
  if (path === `/array/${POSTHOG_BROWSER_KEY}/config.js`) {
    return c.body(EMBEDDED_CONFIG_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
  }
  if (CONFIG_PATH.test(path)) return c.json(EMBEDDED_CONFIG, 200, { 'Cache-Control': 'no-store' });
  if (c.req.method !== 'POST' || !CAPTURE_PATH.test(path)) throw new ApiError(404, 'NOT_FOUND');
  const events = eventsOf(decodePosthogBody(new Uint8Array(await c.req.arrayBuffer())));
  if (!events) throw new ApiError(400, 'INVALID_REQUEST');
  // Only the country is kept of the address (decision 215).
  await storeEvents(db, events, summarizeAgent(c.req.header('User-Agent')), await countryOf(c.var.clientAddress));
  return c.json({ status: 1 });
}

async function forward(c: Context<AppEnv>, upstream: { host: string; key: string }, timeoutMs: number, path: string) {
  const incoming = new URL(c.req.url);
  const target = new URL(
    upstream.host.replace(/\/+$/, '') + path.replace(`/array/${POSTHOG_BROWSER_KEY}/`, `/array/${upstream.key}/`),
  );
  target.search = incoming.search;
  const headers: Record<string, string> = {
    'X-Forwarded-For': c.var.clientAddress,
    'User-Agent': c.req.header('User-Agent') ?? '',
    Accept: c.req.header('Accept') ?? '*/*',
  };
  let body: string | undefined;
  if (c.req.method === 'POST') {
    // The key is swapped inside the payload, so it is decoded and sent on as plain JSON.
    const payload = decodePosthogBody(new Uint8Array(await c.req.arrayBuffer()));
    if (payload === null) throw new ApiError(400, 'INVALID_REQUEST');
    body = JSON.stringify(withProjectKey(payload, upstream.key));
    headers['Content-Type'] = 'application/json';
    target.searchParams.delete('compression');
  }
  const result = await callUpstream(
    target,
    { method: c.req.method, headers, body },
    { timeoutMs, maxBytes: MAX_ANSWER_BYTES },
  );
  if (!result.ok) throw upstreamError(result.reason);
  const answerHeaders: Record<string, string> = {};
  for (const name of HEADERS_PASSED_BACK) {
    const value = result.headers.get(name);
    if (value) answerHeaders[name] = value;
  }
  // Remote configuration is keyed by the project key; the browser looks it up under its own.
  const answer = path.startsWith('/array/')
    ? Buffer.from(result.body).toString('utf8').replaceAll(upstream.key, POSTHOG_BROWSER_KEY)
    : (result.body as Uint8Array<ArrayBuffer>);
  return c.body(answer, result.status as 200, answerHeaders);
}

/**
 * The first-party PostHog endpoint: posthog-js talks only to the site's own origin. With an
 * upstream, requests (events, flags, remote config, the scripts it loads) are forwarded with the
 * client's address; without one, events are kept in the database for the console and `npm run analytics`.
 */
export function posthogRoutes(deps: Deps) {
  const routes = newRoutes();
  const { posthog, upstreamTimeoutMs } = deps.settings;
  routes.on(['GET', 'POST'], `${POSTHOG_PATH}/*`, deps.limiter.perClientHere('posthog', RATE_LIMIT), async (c) => {
    const path = new URL(c.req.url).pathname.slice(POSTHOG_PATH.length);
    if (!path.startsWith('/') || path.length > 512) throw new ApiError(404, 'NOT_FOUND');
    return posthog ? forward(c, posthog, upstreamTimeoutMs, path) : embedded(c, deps.db, path);
  });
  routes.all(POSTHOG_PATH, () => {
    throw new ApiError(404, 'NOT_FOUND');
  });
  routes.all(`${POSTHOG_PATH}/*`, () => {
    throw new ApiError(405, 'INVALID_REQUEST', { headers: { Allow: 'GET, POST' } });
  });
  return routes;
}
