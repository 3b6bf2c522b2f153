export { AuthCard } from './AuthCard.tsx';
export { cookiesRefused } from './cookies-needed.ts';
export { default as HeaderAccount } from './HeaderAccount.tsx';
export { useMailLink } from './mail-link.ts';
export { returnPath } from './return-to.ts';
export { setSignedIn, signOut, useSession } from './session-store.ts';
export { keepSignInPass, signInPassFor } from './sign-in-pass.ts';
