// The test OpenID provider as a process of its own, for the browser tests (started by
// playwright.config.ts): node tests/support/oidc-provider-process.ts <port> <redirect URI>.
import { startTestOidcProvider } from './oidc-provider.ts';

const port = Number(process.argv[2]);
const redirectUri = process.argv[3] ?? '';
await startTestOidcProvider([redirectUri], port);
