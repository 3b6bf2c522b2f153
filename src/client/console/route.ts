import { useAddress } from '#client/lib/address.tsx';
import { matchConsolePage } from '#common/routes.ts';
import { type EditableNamespace, isEditableNamespace } from '#common/site-texts.ts';

/** The console page at the address, with what it reads from it: a message's id, a namespace or the query. */
export type ConsoleRoute =
  | { page: 'inbox'; query: URLSearchParams }
  | { page: 'message'; id: string }
  | { page: 'chat' }
  | { page: 'analytics'; query: URLSearchParams }
  | { page: 'staff' }
  | { page: 'chatSettings' }
  | { page: 'search'; query: URLSearchParams }
  | { page: 'savedReplies' }
  | { page: 'texts'; query: URLSearchParams }
  | { page: 'textsNamespace'; namespace: EditableNamespace; query: URLSearchParams }
  | { page: 'textsPublish' }
  | { page: 'pictures' }
  | { page: 'brand' }
  | { page: 'missing' };

/**
 * The console's page, following the address as the site's pages do (one address module for both,
 * `lib/address.tsx`); the console's paths are in the page table's `CONSOLE_PAGES`.
 */
export function useConsoleRoute(): ConsoleRoute {
  const { pathname, search } = useAddress();
  const match = matchConsolePage(pathname);
  switch (match?.page) {
    case 'inbox':
    case 'analytics':
    case 'search':
    case 'texts':
      return { page: match.page, query: new URLSearchParams(search) };
    case 'message':
      return match.id ? { page: 'message', id: match.id } : { page: 'missing' };
    case 'textsNamespace':
      return isEditableNamespace(match.id)
        ? { page: 'textsNamespace', namespace: match.id, query: new URLSearchParams(search) }
        : { page: 'missing' };
    case 'chat':
    case 'staff':
    case 'textsPublish':
    case 'chatSettings':
    case 'savedReplies':
    case 'pictures':
    case 'brand':
      return { page: match.page };
    default:
      return { page: 'missing' };
  }
}
