import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#common/error-codes.ts';
import { useToast } from './use-toast.ts';

/**
 * Tells the visitor what an error code means, in an error toast that stays until closed. Pages in
 * the layout do not carry the `errors` texts, so they are fetched first when missing.
 */
export function useErrorToast() {
  const { i18n } = useTranslation();
  const toast = useToast();
  return async (code: ErrorCode) => {
    await i18n.loadNamespaces('errors').catch(() => {});
    const message = i18n.exists(code, { ns: 'errors' }) ? i18n.t(code, { ns: 'errors' }) : i18n.t('error.text');
    toast.show({ type: 'error', message, autoClose: false });
  };
}
