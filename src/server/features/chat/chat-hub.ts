import type { OperatorPresence } from '#common/chat-api.ts';
import type { Database, NotificationHandler, Unlisten } from '#server/platform/db/database.ts';
import { errorFields, log } from '#server/platform/log.ts';
import { ACCESS_CHANNEL, CHAT_CHANNEL, type ChatNotice, operatorsOnline, touchPresence } from './chat-queries.ts';

/** One open event stream, as the hub sees it. */
export interface StreamSink {
  /** Something this stream may show has changed: it reads what from the database. */
  wake(): void;
  /** Who of the team is online changed. */
  presence(operators: OperatorPresence[]): void;
  /** The other side is typing: an event without an id, never stored, lost if the stream is away. */
  typing(data: string): void;
  /** A comment line, so that proxies and NATs keep an idle connection open. */
  ping(): void;
  /** The session it was opened with may have ended, or its role changed: check before showing more. */
  recheck(): void;
  close(): void;
}

/**
 * Streams one conversation may hold open on one instance: a visitor's tabs. Beyond it the oldest
 * is closed, so that one cookie cannot hold an instance's memory.
 */
export const MAX_STREAMS_PER_CONVERSATION = 10;

export interface HubSettings {
  /** Between heartbeats: under the 60 s that proxies (nginx's default) and NATs allow an idle connection. */
  heartbeatMs: number;
}

/**
 * The event streams open on this instance and how they learn of changes. Nothing here is needed by
 * another instance: every change is in the database first, then announced on the chat channel
 * (LISTEN/NOTIFY on PostgreSQL, PGlite's own channel in process), and each instance wakes the
 * streams it holds, which read what changed. A visitor's stream wakes only for its conversation;
 * a console stream for every one. When the listening connection comes back after a loss, every
 * stream reads what it missed.
 *
 * Streams opened with a session are also kept by account: when one of its sessions ends or its
 * role changes (the access channel, announced by the database itself), they check again that
 * they may go on, as they do at every heartbeat for what nobody announces (a session that lapsed).
 */
export class ChatHub {
  private readonly byConversation = new Map<number, Set<StreamSink>>();
  private readonly consoles = new Map<StreamSink, string>();
  private readonly byAccount = new Map<string, Set<StreamSink>>();
  private readonly listening = new Map<string, Promise<Unlisten | null>>();
  private timer: NodeJS.Timeout | null = null;
  private operators: OperatorPresence[] | null = null;
  private readonly db: Database;
  private readonly settings: HubSettings;

  constructor(db: Database, settings: HubSettings) {
    this.db = db;
    this.settings = settings;
  }

  /** Streams open on this instance. */
  get size(): { visitors: number; consoles: number } {
    let visitors = 0;
    for (const set of this.byConversation.values()) visitors += set.size;
    return { visitors, consoles: this.consoles.size };
  }

  /** The team online as this instance last read it, or null before it has read it. */
  get knownOperators(): OperatorPresence[] | null {
    return this.operators;
  }

  /** A visitor's stream; `accountId` is that of the session it was opened with, if any. */
  addVisitorStream(conversationId: number, sink: StreamSink, accountId: string | null): () => void {
    let set = this.byConversation.get(conversationId);
    if (!set) {
      set = new Set();
      this.byConversation.set(conversationId, set);
    }
    set.add(sink);
    if (set.size > MAX_STREAMS_PER_CONVERSATION) set.values().next().value?.close();
    const leaveAccount = accountId ? this.addToAccount(accountId, sink) : () => {};
    this.started();
    return () => {
      set.delete(sink);
      if (set.size === 0 && this.byConversation.get(conversationId) === set) this.byConversation.delete(conversationId);
      leaveAccount();
      this.stopIfIdle();
    };
  }

  /** A console stream; `streamId` is its presence row, kept fresh by the heartbeat. */
  addConsoleStream(streamId: string, sink: StreamSink, accountId: string): () => void {
    this.consoles.set(sink, streamId);
    const leaveAccount = this.addToAccount(accountId, sink);
    this.started();
    return () => {
      this.consoles.delete(sink);
      leaveAccount();
      this.stopIfIdle();
    };
  }

  private addToAccount(accountId: string, sink: StreamSink): () => void {
    let set = this.byAccount.get(accountId);
    if (!set) {
      set = new Set();
      this.byAccount.set(accountId, set);
    }
    set.add(sink);
    return () => {
      set.delete(sink);
      if (set.size === 0 && this.byAccount.get(accountId) === set) this.byAccount.delete(accountId);
    };
  }

  /** Reads who is online and tells every stream when it changed. */
  async refreshPresence(): Promise<void> {
    const operators = await operatorsOnline(this.db);
    if (this.operators && JSON.stringify(operators) === JSON.stringify(this.operators)) return;
    this.operators = operators;
    for (const sink of this.sinks()) sink.presence(operators);
  }

  private *sinks(): Iterable<StreamSink> {
    for (const set of this.byConversation.values()) yield* set;
    yield* this.consoles.keys();
  }

  private started() {
    this.listen(
      CHAT_CHANNEL,
      (payload) => this.heard(payload),
      () => this.resync(),
    );
    this.listen(
      ACCESS_CHANNEL,
      (accountId) => this.recheck(this.byAccount.get(accountId) ?? []),
      () => this.recheck(this.sessionSinks()),
    );
    if (!this.operators) {
      this.refreshPresence().catch((error: Error) => log.warn(errorFields(error), 'Chat presence failed'));
    }
    if (!this.timer) {
      this.timer = setInterval(() => this.heartbeat(), this.settings.heartbeatMs);
      this.timer.unref();
    }
  }

  /**
   * Listens once per channel; `catchUp` runs when the channel is first heard (a stream opened
   * before may have missed a notice in between) and after the listening connection was lost.
   */
  private listen(channel: string, handler: NotificationHandler, catchUp: () => void) {
    if (this.listening.has(channel)) return;
    const listening = this.db.listen(channel, handler, { onResync: catchUp }).then(
      (unlisten) => {
        catchUp();
        return unlisten;
      },
      (error: Error) => {
        log.error({ ...errorFields(error), channel }, `Chat could not listen on ${channel}`);
        this.listening.delete(channel);
        return null;
      },
    );
    this.listening.set(channel, listening);
  }

  private *sessionSinks(): Iterable<StreamSink> {
    for (const set of this.byAccount.values()) yield* set;
  }

  private recheck(sinks: Iterable<StreamSink>) {
    for (const sink of sinks) sink.recheck();
  }

  private stopIfIdle() {
    if (this.byConversation.size > 0 || this.consoles.size > 0 || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    // Nobody refreshes it while no stream is open: read it afresh for the next one.
    this.operators = null;
    // Keeps listening: the next stream is likely soon, and the connection is one per instance.
  }

  private heard(payload: string) {
    let notice: ChatNotice;
    try {
      notice = JSON.parse(payload) as ChatNotice;
    } catch {
      return;
    }
    if ('c' in notice) {
      for (const sink of this.byConversation.get(notice.c) ?? []) sink.wake();
      for (const sink of this.consoles.keys()) sink.wake();
    } else if ('t' in notice) {
      // The visitor's typing goes to the consoles, an operator's to the visitor's tabs.
      if (notice.w === 'o') for (const sink of this.byConversation.get(notice.t) ?? []) sink.typing('{}');
      else for (const sink of this.consoles.keys()) sink.typing(JSON.stringify({ conversationId: notice.t }));
    } else if ('p' in notice) {
      this.refreshPresence().catch((error: Error) => log.warn(errorFields(error), 'Chat presence failed'));
    }
  }

  private resync() {
    for (const sink of this.sinks()) sink.wake();
    this.refreshPresence().catch((error: Error) => log.warn(errorFields(error), 'Chat presence failed'));
  }

  private heartbeat() {
    for (const sink of this.sinks()) sink.ping();
    // What no notice announces: a session that lapsed (idle, or past its end) is still a row.
    this.recheck(this.sessionSinks());
    const streamIds = [...this.consoles.values()];
    const touched = streamIds.length > 0 ? touchPresence(this.db, streamIds) : Promise.resolve();
    // Also notices operators whose instance died: their rows stop being fresh without a notice.
    touched
      .then(() => this.refreshPresence())
      .catch((error: Error) => log.warn(errorFields(error), 'Chat heartbeat failed'));
  }
}
