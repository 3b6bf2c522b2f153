import type { ConsoleConversation } from '#common/chat-api.ts';
import { CHAT_VIEWS, type ChatView } from '#common/chat-desk-api.ts';
import type { DeskT } from './use-desk-texts.ts';

/** Whether a conversation belongs in a view, for the account `me`. */
export const inView = (view: ChatView, me: string) => (conversation: ConsoleConversation) =>
  view === 'all' || (view === 'mine' ? conversation.assignee?.id === me : conversation.assignee === null);

/** All, mine, unassigned: toggle buttons over the list, which filter it as it changes live. */
export function ViewTabs({ t, view, onChange }: { t: DeskT; view: ChatView; onChange(view: ChatView): void }) {
  return (
    <fieldset className="chat-console__tabs chat-desk__views">
      <legend className="visually-hidden">{t('views')}</legend>
      {CHAT_VIEWS.map((value) => (
        <button
          key={value}
          type="button"
          className="button button--small button--secondary"
          aria-pressed={view === value}
          onClick={() => onChange(value)}
        >
          {t(value)}
        </button>
      ))}
    </fieldset>
  );
}
