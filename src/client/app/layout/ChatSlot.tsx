import { useComponentAfterPaint } from '#client/app/AfterFirstPaint.tsx';
import { loadChatLauncher } from '#client/features/chat/index.ts';

/**
 * Where the chat goes in the shared layout. It renders nothing in the prerendered page and at
 * hydration, and fetches the launcher once the browser has reported the first paint, as the
 * visitor services are; the panel's code comes only when the visitor opens it or already has a
 * conversation. A failed fetch leaves the page as it is.
 */
export function ChatSlot() {
  const Launcher = useComponentAfterPaint(loadChatLauncher);
  return Launcher ? <Launcher /> : null;
}
