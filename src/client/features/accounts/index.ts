export { AuthCard } from './AuthCard.tsx';
export { cookiesRefused } from './cookies-needed.ts';
export { useMailLink } from './mail-link.ts';
export { returnPath } from './return-to.ts';
export { setSignedIn, signOut, useSession } from './session-store.ts';
export { keepSignInPass, signInPassFor } from './sign-in-pass.ts';
/** The header's account corner, a chunk of its own: loaded only where the signed-in cookie is. */
export const loadHeaderAccount = () => import('./HeaderAccount.tsx');
