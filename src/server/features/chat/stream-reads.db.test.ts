import { expect, it } from 'vitest';
import { CHAT_API } from '#common/chat-api.ts';
import type { Database } from '#server/platform/db/database.ts';
import { describeApi } from '#tests/support/api.ts';
import { chatMessage, visitorWithConversation } from '#tests/support/chat.ts';
import { chatCursor, consoleChangesAfter, visitorChangesAfter } from './chat-queries.ts';

/**
 * The database `db`, in which `write` runs and commits right after the first statement that reads
 * (after that statement's answer, before the next statement starts). Inside a transaction on
 * PGlite, which runs one at a time, the write cannot commit before the transaction ends: it starts
 * there and is waited for by the caller.
 */
function writingBetweenStatements(db: Database, write: () => Promise<unknown>) {
  let written: Promise<unknown> | undefined;
  const after = async (sql: string, inTransaction: boolean) => {
    if (written || sql.startsWith('SET')) return;
    written = write();
    if (!(inTransaction && db.kind === 'pglite')) await written;
  };
  const racing: Database = {
    ...db,
    query: async <T>(sql: string, params?: unknown[]) => {
      const rows = await db.query<T>(sql, params);
      await after(sql, false);
      return rows;
    },
    transaction: (fn) =>
      db.transaction((tx) =>
        fn({
          query: async <T>(sql: string, params?: unknown[]) => {
            const rows = await tx.query<T>(sql, params);
            await after(sql, true);
            return rows;
          },
        }),
      ),
  };
  return { racing, written: () => written };
}

/**
 * A stream's read moves its position to the last it saw. If a message were committed between the
 * read's statements, the second could see the conversation's new position and the first not the
 * message: the stream would move past it and never send it. Each read sees one snapshot.
 */
describeApi('what a chat stream reads at each wake', (api) => {
  it('gives a console stream no conversation position beyond a message it left out', async () => {
    const { visitor } = await visitorWithConversation(api, 'Before');
    const cursor = await chatCursor(api.db());
    const { racing, written } = writingBetweenStatements(api.db(), () =>
      visitor.post(CHAT_API.messages, chatMessage('After')),
    );
    const read = await consoleChangesAfter(racing, cursor, 10);
    expect(((await written()) as { status: number } | undefined)?.status).toBe(201);
    const seen = Math.max(cursor, ...read.messages.map((m) => m.id), ...read.conversations.map((c) => c.seq));
    const now = await consoleChangesAfter(api.db(), cursor, 10);
    expect(now.messages.map((m) => m.body)).toEqual(['After']);
    expect(read.messages.map((m) => m.id)).toEqual(now.messages.filter((m) => m.id <= seen).map((m) => m.id));
  });

  it("gives a visitor's stream no conversation position beyond a message it left out", async () => {
    const { visitor, conversationId } = await visitorWithConversation(api, 'Before');
    const cursor = await chatCursor(api.db());
    const { racing, written } = writingBetweenStatements(api.db(), () =>
      visitor.post(CHAT_API.messages, chatMessage('After')),
    );
    const read = await visitorChangesAfter(racing, conversationId, cursor, 10);
    expect(((await written()) as { status: number } | undefined)?.status).toBe(201);
    const seen = Math.max(cursor, ...read.messages.map((m) => m.id), read.conversation?.seq ?? 0);
    const now = await visitorChangesAfter(api.db(), conversationId, cursor, 10);
    expect(now.messages.map((m) => m.body)).toEqual(['After']);
    expect(read.messages.map((m) => m.id)).toEqual(now.messages.filter((m) => m.id <= seen).map((m) => m.id));
  });
});
