import type * as Oidc from 'openid-client';
import { errorFields, log } from '#server/platform/log.ts';
import type { OidcProviderSetting } from '#server/platform/oidc-env.ts';

/**
 * openid-client and the OAuth and JOSE code it brings, loaded at the first sign-in with a provider:
 * a site that configures none never holds it (decision 259).
 */
export const openidClient = () => import('openid-client');

/** How long discovery and the token and userinfo calls may take before the provider counts as down. */
const PROVIDER_TIMEOUT_SECONDS = 5;

/**
 * The configured providers, each discovered (its metadata and keys fetched from the issuer) when
 * first used rather than at start, so that a provider that is down stops only its own button. A
 * failed discovery is not kept: the next sign-in tries again.
 */
export function oidcClients(settings: readonly OidcProviderSetting[]) {
  const discovered = new Map<string, Promise<Oidc.Configuration>>();

  const discover = async (provider: OidcProviderSetting) => {
    try {
      const oidc = await openidClient();
      const issuer = new URL(provider.issuer);
      // http:// is accepted for a provider on this machine only (see platform/oidc-env.ts).
      const execute = issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [];
      return await oidc.discovery(
        issuer,
        provider.clientId,
        provider.clientSecret,
        oidc.ClientSecretBasic(provider.clientSecret),
        { execute, timeout: PROVIDER_TIMEOUT_SECONDS },
      );
    } catch (error) {
      discovered.delete(provider.id);
      log.warn({ ...errorFields(error), provider: provider.id }, 'Identity provider could not be discovered');
      throw error;
    }
  };

  return {
    list: settings,
    find: (id: string) => settings.find((provider) => provider.id === id) ?? null,
    byIssuer: (issuer: string) => settings.find((provider) => provider.issuer === issuer) ?? null,
    /** The provider's configuration; rejects when it cannot be reached or answers nonsense. */
    configuration(provider: OidcProviderSetting): Promise<Oidc.Configuration> {
      let configuration = discovered.get(provider.id);
      if (!configuration) {
        configuration = discover(provider);
        discovered.set(provider.id, configuration);
      }
      return configuration;
    },
  };
}

export type OidcClients = ReturnType<typeof oidcClients>;
