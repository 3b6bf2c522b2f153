import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';
import type { GuardExemption } from './guards.ts';

/** One API area, as app.ts mounts it: its routes, and the routes it takes out of the default checks. */
export interface Feature {
  routes: Hono<AppEnv>;
  guardExemptions?: readonly GuardExemption[];
}
