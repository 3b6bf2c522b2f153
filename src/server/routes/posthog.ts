import type { Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { POSTHOG_BROWSER_KEY, POSTHOG_PATH } from '../../common/analytics.ts';
import { storeEvents } from '../analytics/events-store.ts';
import { decodePosthogBody, eventsOf, withProjectKey } from '../analytics/posthog-payload.ts';
import { apiError } from '../app.ts';
import { clientAddress } from '../client-address.ts';
import { refuseOverLimit } from '../client-rate-limit.ts';
import type { Database } from '../db/database.ts';
import { callUpstream, upstreamFailure } from '../upstream.ts';

export interface PosthogOptions {
  db: Database;
  trustedProxies: number;
  /** POSTHOG_HOST and POSTHOG_KEY; without them events go to the embedded store. */
  upstream?: { host: string; key: string };
  timeoutMs: number;
}

/** Batches of events are larger than other API bodies; compressed they rarely pass 100 KB. */
const MAX_BODY_BYTES = 1024 * 1024;
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

async function embedded(c: Context, db: Database, path: string): Promise<Response> {
  if (path === `/array/${POSTHOG_BROWSER_KEY}/config.js`) {
    return c.body(EMBEDDED_CONFIG_SCRIPT, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'no-cache',
    });
  }
  if (CONFIG_PATH.test(path)) return c.json(EMBEDDED_CONFIG, 200, { 'Cache-Control': 'no-store' });
  if (c.req.method !== 'POST' || !CAPTURE_PATH.test(path)) return c.json(apiError('INVALID_REQUEST'), 404);
  const events = eventsOf(decodePosthogBody(new Uint8Array(await c.req.arrayBuffer())));
  if (!events) return c.json(apiError('INVALID_REQUEST'), 400);
  await storeEvents(db, events);
  return c.json({ status: 1 });
}

async function forward(
  c: Context,
  options: PosthogOptions & { upstream: { host: string; key: string } },
  path: string,
) {
  const { upstream } = options;
  const incoming = new URL(c.req.url);
  const target = new URL(
    upstream.host.replace(/\/+$/, '') + path.replace(`/array/${POSTHOG_BROWSER_KEY}/`, `/array/${upstream.key}/`),
  );
  target.search = incoming.search;
  const headers: Record<string, string> = {
    'X-Forwarded-For': clientAddress(c, options.trustedProxies),
    'User-Agent': c.req.header('User-Agent') ?? '',
    Accept: c.req.header('Accept') ?? '*/*',
  };
  let body: string | undefined;
  if (c.req.method === 'POST') {
    // The key is swapped inside the payload, so it is decoded and sent on as plain JSON.
    const payload = decodePosthogBody(new Uint8Array(await c.req.arrayBuffer()));
    if (payload === null) return c.json(apiError('INVALID_REQUEST'), 400);
    body = JSON.stringify(withProjectKey(payload, upstream.key));
    headers['Content-Type'] = 'application/json';
    target.searchParams.delete('compression');
  }
  const result = await callUpstream(
    target,
    { method: c.req.method, headers, body },
    { timeoutMs: options.timeoutMs, maxBytes: MAX_ANSWER_BYTES },
  );
  if (!result.ok) return upstreamFailure(c, result.reason);
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
 * client's address; without one, events are kept in the database for `npm run analytics`.
 */
export function posthogRoutes(app: Hono, options: PosthogOptions) {
  app.on(
    ['GET', 'POST'],
    `${POSTHOG_PATH}/*`,
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => c.json(apiError('INVALID_REQUEST'), 413) }),
    async (c) => {
      const refused = await refuseOverLimit(c, options, 'posthog', RATE_LIMIT);
      if (refused) return refused;
      const path = new URL(c.req.url).pathname.slice(POSTHOG_PATH.length);
      if (!path.startsWith('/') || path.length > 512) return c.json(apiError('INVALID_REQUEST'), 404);
      const { upstream } = options;
      return upstream ? forward(c, { ...options, upstream }, path) : embedded(c, options.db, path);
    },
  );
  app.all(POSTHOG_PATH, (c) => c.json(apiError('INVALID_REQUEST'), 404));
  app.all(`${POSTHOG_PATH}/*`, (c) => c.json(apiError('INVALID_REQUEST'), 405, { Allow: 'GET, POST' }));
}
