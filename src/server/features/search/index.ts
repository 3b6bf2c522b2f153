import { CHAT_DESK_API, type SearchAnswer } from '#common/chat-desk-api.ts';
import { SearchQuerySchema } from '#common/chat-desk-schemas.ts';
import type { Deps } from '#server/deps.ts';
import { requireStaff } from '#server/features/accounts/index.ts';
import { newRoutes } from '#server/http/context.ts';
import type { Feature } from '#server/http/feature.ts';
import { queryParams } from '#server/http/json-body.ts';
import { search } from './search-queries.ts';

export { search } from './search-queries.ts';

/** The console's one search box, over chats and contact messages; operators and admins only. */
export function searchFeature(deps: Deps): Feature {
  const routes = newRoutes();
  routes.get(
    CHAT_DESK_API.search,
    requireStaff(deps),
    deps.limiter.perClient('console:search', { hits: 120, windowSeconds: 60 }),
    queryParams(SearchQuerySchema),
    async (c) => c.json((await search(deps.db, c.req.valid('query').q)) satisfies SearchAnswer),
  );
  return { routes };
}
