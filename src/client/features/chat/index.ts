/**
 * The chat's launcher, for the shared layout to fetch after the first paint (see
 * app/layout/ChatSlot.tsx); it fetches the panel itself when needed.
 */
export const loadChatLauncher = () => import('./ChatLauncher.tsx');
