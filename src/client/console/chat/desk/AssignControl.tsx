import { useEffect, useState } from 'react';
import { assignSelected } from '#client/console/chat/console-store.ts';
import { callApi } from '#client/lib/api-client.ts';
import type { ConsoleConversation } from '#common/chat-api.ts';
import { CHAT_DESK_API, type TeamAnswer, type TeamMember } from '#common/chat-desk-api.ts';
import type { DeskT } from './use-desk-texts.ts';

let team: Promise<TeamMember[]> | null = null;
/** The team changes rarely: read once per console visit. */
const loadTeam = () => {
  team ??= callApi<TeamAnswer>(CHAT_DESK_API.team).then((result) => (result.ok ? result.data.team : []));
  return team;
};

/** Conversations this staff member handed to themselves, which AssignedToMe does not announce. */
export const takenByMe = new Set<number>();

const assign = (conversation: ConsoleConversation, assignee: string | null, me: string) => {
  if (assignee === me) takenByMe.add(conversation.id);
  return assignSelected(assignee);
};

/** Who looks after the conversation: a choice of the team (or nobody), and "take it" in one click. */
export function AssignControl({ t, conversation, me }: { t: DeskT; conversation: ConsoleConversation; me: string }) {
  const [members, setMembers] = useState<TeamMember[]>([]);
  useEffect(() => {
    void loadTeam().then(setMembers);
  }, []);
  const current = conversation.assignee?.id ?? '';
  // The assignee may have left the team since: still shown, by the name the conversation has.
  const listed = members.some((member) => member.id === current) || !conversation.assignee;
  return (
    <div className="chat-desk__assign">
      <label htmlFor="chat-desk-assignee">{t('assignee')}</label>
      <select
        id="chat-desk-assignee"
        value={current}
        onChange={(event) => void assign(conversation, event.target.value || null, me)}
      >
        <option value="">{t('nobody')}</option>
        {!listed && conversation.assignee && <option value={current}>{conversation.assignee.name}</option>}
        {members.map((member) => (
          <option key={member.id} value={member.id}>
            {member.id === me ? t('you', { name: member.name }) : member.name}
          </option>
        ))}
      </select>
      {current !== me && (
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => void assign(conversation, me, me)}
        >
          {t('takeIt')}
        </button>
      )}
    </div>
  );
}
