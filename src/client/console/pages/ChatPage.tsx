import { useTranslation } from 'react-i18next';
import { AlertSettings } from '#client/console/alerts/AlertSettings.tsx';
import { ChatConsole } from '#client/console/chat/ChatConsole.tsx';
import { useTitle } from '#client/console/use-title.ts';
import type { MeAnswer } from '#common/staff-api.ts';

/** The support chat: conversations live, replies, presence (console/chat). */
export default function ChatPage({ me }: { me: MeAnswer }) {
  const { t } = useTranslation('console');
  useTitle(t('nav.chat'));
  return (
    <>
      <ChatConsole me={me.id} />
      <AlertSettings />
    </>
  );
}
