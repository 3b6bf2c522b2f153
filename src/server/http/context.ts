import { Hono } from 'hono';

/** What the request layer puts on every API request's context before a feature sees it. */
export interface AppEnv {
  Variables: {
    /** The requester's address, worked out once (see client-address.ts); only rate limits use it, hashed. */
    clientAddress: string;
  };
}

/** A feature's routes: a Hono app with the request layer's context, mounted by app.ts. */
export const newRoutes = () => new Hono<AppEnv>();
