import { type ApiResult, callApi } from '#client/lib/api-client.ts';
import { CONTACT_API, CONTACT_MIN_FILL_SECONDS, type FormTokenAnswer } from '#common/contact-api.ts';

/** A token is asked for again once it is this old, well before the server would refuse it. */
const RENEW_AFTER_MS = 12 * 60 * 60 * 1000;
/** A little more than the minimum, so that rounding on the server never counts a person as a robot. */
const WAIT_MS = CONTACT_MIN_FILL_SECONDS * 1000 + 250;

interface Held {
  token: string;
  receivedAt: number;
}

/**
 * The form's time stamp (see docs/decisions/071-contact-spam.md): asked for when the form appears,
 * and sent with the message. A message ready sooner than the minimum fill time waits out the rest
 * before it goes, so a quick typist (or a browser filling the form in) is never taken for a robot.
 */
export function createFormToken(
  now: () => number = Date.now,
  wait = (ms: number) => new Promise((r) => setTimeout(r, ms)),
) {
  let held: Held | null = null;
  let asking: Promise<ApiResult<FormTokenAnswer>> | null = null;

  const fetchToken = async (): Promise<ApiResult<FormTokenAnswer>> => {
    asking ??= callApi<FormTokenAnswer>(CONTACT_API.formToken).finally(() => {
      asking = null;
    });
    const result = await asking;
    if (result.ok) held = { token: result.data.token, receivedAt: now() };
    return result;
  };

  return {
    /** Asks for a token ahead of time; a failure is tried again when the message is sent. */
    prepare() {
      if (!held) void fetchToken();
    },
    /** A token old enough to send now, waiting when it is too fresh; or why there is none. */
    async ready(): Promise<ApiResult<{ token: string }>> {
      if (!held || now() - held.receivedAt > RENEW_AFTER_MS) {
        const result = await fetchToken();
        if (!result.ok) return result;
      }
      const current = held as Held;
      const rest = current.receivedAt + WAIT_MS - now();
      if (rest > 0) await wait(rest);
      return { ok: true, data: { token: current.token } };
    },
  };
}
