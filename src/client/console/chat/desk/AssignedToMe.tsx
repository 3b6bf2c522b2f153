import { useEffect, useRef, useState } from 'react';
import type { ConsoleConversation } from '#common/chat-api.ts';
import { takenByMe } from './AssignControl.tsx';
import type { DeskT } from './use-desk-texts.ts';

/**
 * Says, in a live region, when a colleague hands this staff member a conversation: the console's
 * stream brings the change, and a conversation that was not theirs a moment ago now is. Taking one
 * oneself is not announced.
 */
export function AssignedToMe({
  t,
  conversations,
  me,
  nameOf,
}: {
  t: DeskT;
  conversations: ConsoleConversation[];
  me: string;
  nameOf(conversation: ConsoleConversation): string;
}) {
  const known = useRef(new Map<number, string | null>());
  const [said, setSaid] = useState('');
  useEffect(() => {
    for (const conversation of conversations) {
      const before = known.current.get(conversation.id);
      const now = conversation.assignee?.id ?? null;
      known.current.set(conversation.id, now);
      if (before !== undefined && before !== me && now === me && !takenByMe.has(conversation.id)) {
        setSaid(t('assignedToYou', { visitor: nameOf(conversation) }));
      }
    }
  }, [conversations, me, t, nameOf]);
  return (
    <p className="chat-desk__announce" role="status">
      {said}
    </p>
  );
}
