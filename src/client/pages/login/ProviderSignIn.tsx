import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { IDENTITY_API, type ProviderSummary, type ProvidersAnswer } from '#common/identity-api.ts';

/**
 * A button per identity provider the company configured, asked of the server after hydration (the
 * page is prerendered before anyone configures one); nothing at all when there are none. Each is a
 * plain link: the server sends the browser on to the provider.
 */
export function ProviderSignIn() {
  const { t } = useTranslation('login');
  const lang = useLanguage();
  const [providers, setProviders] = useState<ProviderSummary[]>([]);

  useEffect(() => {
    void callApi<ProvidersAnswer>(IDENTITY_API.providers).then((result) => {
      if (result.ok) setProviders(result.data.providers);
    });
  }, []);

  if (providers.length === 0) return null;
  return (
    <section aria-labelledby="login-providers">
      <h2 id="login-providers">{t('providers.title')}</h2>
      <p className="actions">
        {providers.map((provider) => (
          <a
            key={provider.id}
            className="button button--secondary"
            href={`${IDENTITY_API.start(provider.id)}?lang=${lang}`}
          >
            {t('providers.button', { name: provider.name })}
          </a>
        ))}
      </p>
      <p className="form__aside">{t('providers.note')}</p>
    </section>
  );
}
