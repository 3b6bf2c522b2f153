import { useTranslation } from 'react-i18next';
import { useTitle } from '#client/console/use-title.ts';
import { ChatConsole } from '#client/console/chat/ChatConsole.tsx';

/** The support chat: conversations live, replies, presence (console/chat). */
export default function ChatPage() {
  const { t } = useTranslation('console');
  useTitle(t('nav.chat'));
  return <ChatConsole />;
}
