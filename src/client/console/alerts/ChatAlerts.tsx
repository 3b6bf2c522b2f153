import { useEffect } from 'react';
import { visitorLabel } from '#client/console/chat/visitor-label.ts';
import { startAlerts, stopAlerts } from './alerts-store.ts';
import { useChatConsoleTexts } from './use-chat-console-texts.ts';

/** How much of a message a desktop notification shows. */
const NOTIFICATION_BODY = 120;

/**
 * Mounted once by the console's layout, on every page: the number of conversations waiting in the
 * tab's title and icon, and, while the tab is hidden, a desktop notification and the operator's
 * chime when a visitor writes. Renders nothing.
 */
export function ChatAlerts() {
  const t = useChatConsoleTexts();
  useEffect(() => {
    if (!t) return;
    void startAlerts((conversation, message) => {
      const name = conversation
        ? visitorLabel(conversation, t('visitor', { id: conversation.id }))
        : t('visitor', { id: message.conversationId });
      return { title: t('notifyTitle', { name }), body: message.body.slice(0, NOTIFICATION_BODY) };
    });
  }, [t]);
  useEffect(() => stopAlerts, []);
  return null;
}
