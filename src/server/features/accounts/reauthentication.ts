import { REAUTHENTICATION_MINUTES } from '#common/reauthentication-api.ts';

/** How far a provider's clock may be from ours, as openid-client allows for the times in its tokens. */
const CLOCK_TOLERANCE_MS = 30_000;

/**
 * Whether the provider's `auth_time` (seconds) shows that the person signed in anew for this
 * request (docs/decisions/220): not before the request went out at `startedAt`, and not longer ago
 * than a re-authentication lasts. A provider that does not say when counts as not having asked.
 */
export function signedInAnew(authTime: number | null, startedAt: Date, now: Date): boolean {
  if (authTime === null || !Number.isFinite(authTime)) return false;
  const at = authTime * 1000;
  return (
    at >= startedAt.getTime() - CLOCK_TOLERANCE_MS &&
    at <= now.getTime() + CLOCK_TOLERANCE_MS &&
    now.getTime() - at <= REAUTHENTICATION_MINUTES * 60_000
  );
}
