import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, useAddress, useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { type ErrorCode, isErrorCode } from '#common/error-codes.ts';
import {
  IDENTITY_API,
  IDENTITY_RESULT_PARAM,
  type IdentitiesAnswer,
  type LinkAnswer,
  type LinkedIdentity,
  type ProviderSummary,
} from '#common/identity-api.ts';
import { useOwnerProof } from './reauthentication.tsx';

/**
 * The identity providers linked to the account, each with when it was linked and the address it
 * gave, unlinked with a button while another way in remains; and a button per configured provider
 * not linked yet, which sends the browser there. Shown only when the company offers a provider or
 * the account has an identity. `failed` handles a call that failed, as the rest of the page does.
 */
export function IdentitiesSection({ failed }: { failed: (code: ErrorCode) => void }) {
  const { t } = useTranslation('login');
  const lang = useLanguage();
  const toast = useToast();
  const [state, setState] = useState<IdentitiesAnswer | null>(null);

  const load = () =>
    callApi<IdentitiesAnswer>(IDENTITY_API.identities).then((result) => {
      if (result.ok) setState(result.data);
      else failed(result.code);
    });
  // Read again when the account gets a password (or is found to have none): unlinking depends on it.
  const { passwordless } = useOwnerProof();
  useEffect(() => {
    void load();
  }, [passwordless]);
  // Back from linking at a provider (`?oidc=linked` or an error code): said once, then taken off the address.
  const { pathname, search } = useAddress();
  useEffect(() => {
    const result = new URLSearchParams(search).get(IDENTITY_RESULT_PARAM);
    if (!result) return;
    navigate(pathname, { replace: true });
    if (result === 'linked') toast.show({ type: 'success', message: t('account.identities.linked') });
    else if (isErrorCode(result)) failed(result);
  }, [search]);

  if (!state || (state.identities.length === 0 && state.linkable.length === 0)) return null;
  const nameOf = (identity: LinkedIdentity) => identity.provider?.name ?? t('account.identities.unknown');
  const onlyWay = !state.hasPassword && state.identities.length === 1;

  const link = async (provider: ProviderSummary) => {
    const result = await callApi<LinkAnswer>(IDENTITY_API.link, { provider: provider.id, language: lang });
    if (result.ok) window.location.assign(result.data.url);
    else failed(result.code);
  };
  const unlink = async (identity: LinkedIdentity) => {
    const result = await callApi(IDENTITY_API.unlink, { id: identity.id });
    if (result.ok)
      toast.show({ type: 'success', message: t('account.identities.unlinked', { name: nameOf(identity) }) });
    else failed(result.code);
    void load();
  };

  return (
    <section aria-labelledby="account-identities">
      <h2 id="account-identities">{t('account.identities.title')}</h2>
      <p>{t('account.identities.text')}</p>
      {state.identities.length === 0 ? (
        <p>{t('account.identities.none')}</p>
      ) : (
        <ul className="account__list">
          {state.identities.map((identity) => (
            <li key={identity.id}>
              <span>
                <strong>{nameOf(identity)}</strong>
                {identity.email && ` (${identity.email})`}
                <br />
                {t('account.identities.linkedAt', {
                  date: new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(identity.linkedAt)),
                })}
              </span>
              {!onlyWay && (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={t('account.identities.unlinkLabel', { name: nameOf(identity) })}
                  onClick={() => void unlink(identity)}
                >
                  {t('account.identities.unlink')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {onlyWay && <p>{t('account.identities.onlyWay')}</p>}
      {state.linkable.length > 0 && (
        <p className="actions">
          {state.linkable.map((provider) => (
            <button
              key={provider.id}
              type="button"
              className="button button--secondary"
              onClick={() => void link(provider)}
            >
              {t('account.identities.link', { name: provider.name })}
            </button>
          ))}
        </p>
      )}
    </section>
  );
}
