/** The one client the test OpenID provider knows (tests/support/oidc-provider.ts): the site under test. */
export const TEST_OIDC_CLIENT = { id: 'site-test-client', secret: 'site-test-client-secret-of-some-length' };
