import { ApiError } from './api-error.ts';

export type UpstreamResult =
  | { ok: true; status: number; headers: Headers; body: Uint8Array }
  | { ok: false; reason: 'timeout' | 'unreachable' | 'too-large' };

/** Reads a body up to `max` bytes; null when it is longer. */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array | null> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * One request to an optional upstream (PostHog, a collector). The whole exchange, answer body
 * included, must finish within `timeoutMs`, so a slow or hanging upstream costs a bounded wait, and
 * an answer larger than `maxBytes` is dropped rather than held in memory.
 */
export async function callUpstream(
  url: URL,
  init: RequestInit,
  limits: { timeoutMs: number; maxBytes: number },
): Promise<UpstreamResult> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const response = await fetch(url, { ...init, signal, redirect: 'manual' });
    const body = await readCapped(response.body, limits.maxBytes);
    if (!body) return { ok: false, reason: 'too-large' };
    return { ok: true, status: response.status, headers: response.headers, body };
  } catch (error) {
    return {
      ok: false,
      reason: signal.aborted || (error as Error).name === 'TimeoutError' ? 'timeout' : 'unreachable',
    };
  }
}

/** The error when an upstream failed: the browser gets a code and never waits longer than the timeout. */
export function upstreamError(reason: 'timeout' | 'unreachable' | 'too-large'): ApiError {
  return reason === 'timeout' ? new ApiError(504, 'REQUEST_TIMEOUT') : new ApiError(502, 'NETWORK_ERROR');
}
