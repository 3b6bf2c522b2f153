import { createContext } from 'react';
import type { Toast } from './toast-store.ts';

/**
 * What the provider hands down: a way to replace its list of toasts. This small module is all that
 * the code every page loads first shares with the pages that show toasts; the rules live with them.
 */
export const ToastContext = createContext<((toasts: readonly Toast[]) => void) | null>(null);
