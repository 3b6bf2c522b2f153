import { useEffect, useState } from 'react';
import { deleteCookie, readCookie, writeCookie } from '#client/lib/cookies.ts';
import { storageEntry } from '#common/storage.ts';
import { computeFingerprint } from './fingerprint.ts';
import { obtainVisitorId, type VisitorIdState } from './visitor-id.ts';

const FPID = storageEntry('visitorId');

/** Whether the identifier is wanted now; a cookie write still pending when it stops being wanted is dropped. */
let wanted = false;

const browserPorts = {
  readCookie: () => readCookie(FPID.name),
  writeCookie: (fpid: string) => {
    if (wanted) writeCookie(FPID, fpid);
  },
  computeFingerprint,
  fetch: (input: string, init: RequestInit) => window.fetch(input, init),
  setTimeout: (callback: () => void, ms: number) => window.setTimeout(callback, ms),
};

/** One run per page load, shared by every component and form that asks. */
let run: Promise<VisitorIdState> | null = null;

/**
 * The identifier flow of this page load, started now if nothing started it before. Only asked for
 * when the visitor may be identified (by the hook when enabled, or by a form before its call, which
 * may come before the hook has run), so asking is what makes the identifier wanted.
 */
export function visitorIdRun(): Promise<VisitorIdState> {
  wanted = true;
  run ??= obtainVisitorId(browserPorts);
  return run;
}

/**
 * Forgets an identifier the server refused (signed with another secret, or damaged) and runs the
 * flow again, which sends a new fingerprint record; `compute: false` only forgets it.
 */
export function renewVisitorId(compute: boolean): Promise<VisitorIdState> {
  deleteCookie(FPID.name);
  wanted = compute;
  run = compute ? obtainVisitorId(browserPorts) : null;
  return run ?? Promise.resolve({ visitorId: null, loading: false, error: null });
}

/**
 * The visitor identifier, its loading flag and error message. The flow starts when `enabled`
 * turns true (after the first paint; with the privacy option, after consent) and runs once, or
 * joins the run a form has started already. When `enabled` turns false again (consent withdrawn
 * under the privacy option, which also deletes the cookie), the identifier is forgotten, and a
 * later consent starts the flow afresh.
 */
export function useVisitorId(enabled: boolean): VisitorIdState {
  const [state, setState] = useState<VisitorIdState>({ visitorId: null, loading: enabled, error: null });
  useEffect(() => {
    if (!enabled) {
      if (wanted) {
        wanted = false;
        run = null;
        setState({ visitorId: null, loading: false, error: null });
      }
      return;
    }
    wanted = true;
    let current = true;
    setState((previous) => (previous.visitorId || previous.error ? previous : { ...previous, loading: true }));
    void visitorIdRun().then((result) => {
      if (current) setState(result);
    });
    return () => {
      current = false;
    };
  }, [enabled]);
  return state;
}
