import type { Database } from '#server/platform/db/database.ts';
import { CHAT_CHANNEL, type ChatNotice } from './chat-queries.ts';

/**
 * Who is typing, told to every instance on the chat channel as messages are (a notice names the
 * conversation and the side, nothing else) and never written to a table: its streams pass it on
 * to the other side and forget it.
 */
export const noticeTyping = (db: Database, conversationId: number, who: 'visitor' | 'operator') =>
  db.notify(CHAT_CHANNEL, JSON.stringify({ t: conversationId, w: who === 'visitor' ? 'v' : 'o' } satisfies ChatNotice));

/** A signal per side of a conversation and instance this often at most; the widget sends every 2.5 s. */
const MIN_GAP_MS = 1_000;
/** Entries kept before old ones are swept, so that the map cannot grow without end. */
const SWEEP_AT = 10_000;

/** Drops typing signals that come faster than MIN_GAP_MS, in memory: a dropped one loses nothing. */
export class TypingThrottle {
  private readonly last = new Map<string, number>();

  pass(key: string, now = Date.now()): boolean {
    const before = this.last.get(key);
    if (before !== undefined && now - before < MIN_GAP_MS) return false;
    if (this.last.size >= SWEEP_AT) {
      for (const [other, at] of this.last) if (now - at >= MIN_GAP_MS) this.last.delete(other);
    }
    this.last.set(key, now);
    return true;
  }
}
