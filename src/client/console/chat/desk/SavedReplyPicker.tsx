import { type KeyboardEvent, type RefObject, useEffect, useId, useState } from 'react';
import { callApi } from '#client/lib/api-client.ts';
import type { ConsoleConversation } from '#common/chat-api.ts';
import { CHAT_DESK_API, type SavedRepliesAnswer, type SavedReply } from '#common/chat-desk-api.ts';
import { LANGUAGE_NAMES } from '#common/languages.ts';
import { matchingReplies, savedReplyText, typedShortcut } from '#common/saved-replies.ts';
import type { DeskT } from './use-desk-texts.ts';

/** Options the list shows at most. */
const SHOWN = 8;

/**
 * Saved replies in the reply box: "/" and a few letters open a list of the replies whose shortcut
 * matches, in the conversation's language with the visitor's name filled in. The text field keeps
 * the focus (a textbox with aria-activedescendant, pointing into a listbox): arrows move, Enter or
 * Tab inserts, Escape closes; a click inserts too. A status line says how many match.
 */
export function useSavedReplyPicker({
  t,
  conversation,
  body,
  setBody,
  field,
}: {
  t: DeskT;
  conversation: ConsoleConversation;
  body: string;
  setBody(body: string): void;
  field: RefObject<HTMLTextAreaElement | null>;
}) {
  const id = useId();
  const [replies, setReplies] = useState<SavedReply[]>([]);
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    void callApi<SavedRepliesAnswer>(CHAT_DESK_API.savedReplies).then((result) => {
      if (result.ok) setReplies(result.data.savedReplies);
    });
  }, []);

  const typed = typedShortcut(body, caret);
  const open = typed !== null && dismissed !== body;
  const options = open ? matchingReplies(replies, typed.query).slice(0, SHOWN) : [];
  const name = conversation.account?.name ?? null;
  const chosen = Math.min(active, Math.max(options.length - 1, 0));
  const optionId = (index: number) => `${id}-option-${index}`;

  const insert = (reply: SavedReply) => {
    const filled = savedReplyText(reply, conversation.language, name);
    if (!filled || !typed) return;
    const next = `${body.slice(0, typed.start)}${filled.text}${body.slice(caret)}`;
    const at = typed.start + filled.text.length;
    setBody(next);
    setCaret(at);
    setActive(0);
    requestAnimationFrame(() => {
      field.current?.focus();
      field.current?.setSelectionRange(at, at);
    });
  };

  /** Handles the key when the list is open; true when the reply field must not act on it too. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || options.length === 0) {
      if (open && event.key === 'Escape') {
        setDismissed(body);
        return true;
      }
      return false;
    }
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
    if (event.key in moves) {
      event.preventDefault();
      setActive((chosen + (moves[event.key] ?? 0) + options.length) % options.length);
      return true;
    }
    if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      const reply = options[chosen];
      if (reply) insert(reply);
      return true;
    }
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setDismissed(body);
      return true;
    }
    return false;
  };

  const track = () => setCaret(field.current?.selectionStart ?? body.length);
  const listId = `${id}-list`;
  const fieldProps = {
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open && options.length > 0 ? optionId(chosen) : undefined,
    onSelect: track,
    onKeyUp: track,
    onClick: track,
  };

  const list = (
    <>
      <p className="chat-desk__status visually-hidden" role="status">
        {open ? (options.length > 0 ? t('savedCount', { count: options.length }) : t('savedNone')) : ''}
      </p>
      {open && (
        <div id={listId} role="listbox" aria-label={t('savedList')} className="chat-desk__saved">
          {options.length === 0 && (
            <div
              role="option"
              tabIndex={-1}
              aria-selected="false"
              aria-disabled="true"
              className="chat-desk__saved-none"
            >
              {t('savedNone')}
            </div>
          )}
          {options.map((reply, index) => {
            const filled = savedReplyText(reply, conversation.language, name);
            const other = filled && filled.language !== conversation.language;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard works through the text field (aria-activedescendant)
              <div
                key={reply.id}
                id={optionId(index)}
                role="option"
                tabIndex={-1}
                aria-selected={index === chosen}
                className="chat-desk__saved-option"
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => insert(reply)}
              >
                <span className="chat-desk__shortcut">/{reply.shortcut}</span>{' '}
                <span className="chat-desk__preview">{filled?.text}</span>
                {other && filled && (
                  <span className="chat-desk__fallback">
                    {' '}
                    ({t('savedFallback', { language: LANGUAGE_NAMES[filled.language] })})
                  </span>
                )}
              </div>
            );
          })}
        </div>
      )}
    </>
  );
  /** The field's text changed: where the caret is now. */
  const changed = (at: number | null) => setCaret(at ?? 0);
  return { onKeyDown, fieldProps, list, changed, hintId: `${id}-hint` };
}
