import { useTranslation } from 'react-i18next';
import { useTitle } from '#client/console/use-title.ts';
import { ChatConsole } from '#client/features/chat-console/index.ts';

/** The support chat: conversations live, replies, presence (features/chat-console). */
export default function ChatPage() {
  const { t } = useTranslation('console');
  useTitle(t('nav.chat'));
  return <ChatConsole />;
}
