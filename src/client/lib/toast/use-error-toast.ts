import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useInSitePage } from '#client/lib/address.tsx';
import { actionPath, errorActions, errorMessage } from '#client/lib/error-messages.tsx';
import type { ErrorCode } from '#common/error-codes.ts';
import type { ErrorDetails } from '#common/error-texts.ts';
import { bestLanguage } from '#common/languages.ts';
import { useToast } from './use-toast.ts';

/**
 * Tells the visitor what an error code means, in an error toast that stays until closed, with a
 * button to each page that helps (see error-messages), in the page's language. Pages in the layout do not carry the
 * `errors` texts, so they are fetched first when missing. The same function from one render to the
 * next (until the language changes): pages that load their data in an effect depend on it, and a
 * new one each render would load again after every render.
 */
export function useErrorToast() {
  const { i18n } = useTranslation();
  const lang = bestLanguage([i18n.language]);
  // The console is an app apart from the site's pages: there, a helping page is loaded instead.
  const inSite = useInSitePage();
  const toast = useToast();
  return useCallback(
    async (error: ErrorCode | ErrorDetails) => {
      const details = typeof error === 'string' ? { code: error } : error;
      await i18n.loadNamespaces('errors').catch(() => {});
      const go = (to: string) => (inSite ? navigate(to) : window.location.assign(to));
      const actions = errorActions(details.code).map((action, index) => ({
        label: i18n.t(`actions.${action}`, { ns: 'errors' }),
        action: () => go(actionPath(lang, action)),
        variant: index === 0 ? ('primary' as const) : ('secondary' as const),
      }));
      toast.show({
        type: 'error',
        message: errorMessage(i18n, details),
        autoClose: false,
        ...(actions.length > 0 ? { actions } : {}),
      });
    },
    [i18n, lang, inSite, toast],
  );
}
