/** Where the browser sends analytics: the site's own address, which the server forwards or keeps. */
export const POSTHOG_PATH = '/api/posthog';

/**
 * The project key posthog-js is started with. The browser never learns the company's PostHog key:
 * the server puts it in place of this one when it forwards (POSTHOG_KEY), and the embedded store
 * ignores it.
 */
export const POSTHOG_BROWSER_KEY = 'first-party';

/** Where the browser exports its traces (OTLP/HTTP, JSON). */
export const TRACES_PATH = '/api/traces';

/**
 * Where the app counts a page view of a visitor who has not allowed analytics: the path only, with
 * no identifier or cookie, added to a daily total per page and language.
 */
export const UNCONSENTED_VIEW_PATH = '/api/analytics/unconsented';
