import { errorFields, log } from '#server/platform/log.ts';
import type { Queryable } from './driver.ts';

/** Hears a channel's notifications; see `Database.listen`. */
export type NotificationHandler = (payload: string) => void;

export interface ListenOptions {
  /**
   * Called after the listening connection came back from a loss. Notifications sent while it was
   * down are gone for good (PostgreSQL keeps none for a listener that is not connected), so the
   * subscriber reads what it may have missed from the database.
   */
  onResync?: () => void;
}

/** Ends one subscription. */
export type Unlisten = () => Promise<void>;

/** Channel names are plain identifiers, the same on both databases (PGlite does not quote them). */
const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkChannel(channel: string): void {
  if (!CHANNEL.test(channel)) throw new Error(`Channel ${JSON.stringify(channel)} must be a lower-case identifier`);
}

interface Subscription {
  handler: NotificationHandler;
  onResync?: () => void;
}

/**
 * The subscribers of each channel of one database, whatever connection delivers their
 * notifications. A throwing subscriber is logged and does not stop the others.
 */
export class Subscribers {
  private readonly byChannel = new Map<string, Set<Subscription>>();

  add(channel: string, handler: NotificationHandler, options: ListenOptions): { first: boolean; remove(): boolean } {
    let set = this.byChannel.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.byChannel.set(channel, set);
    }
    const subscription: Subscription = { handler, onResync: options.onResync };
    set.add(subscription);
    return {
      first,
      /** Removes it; true when it was the channel's last subscriber. */
      remove: () => {
        const current = this.byChannel.get(channel);
        if (!current?.delete(subscription)) return false;
        if (current.size > 0) return false;
        this.byChannel.delete(channel);
        return true;
      },
    };
  }

  channels(): string[] {
    return [...this.byChannel.keys()];
  }

  deliver(channel: string, payload: string): void {
    for (const subscription of this.byChannel.get(channel) ?? []) {
      try {
        subscription.handler(payload);
      } catch (error) {
        log.error({ ...errorFields(error), channel }, `Listener on ${channel} failed`);
      }
    }
  }

  resyncAll(): void {
    for (const [channel, set] of this.byChannel) {
      for (const subscription of set) {
        try {
          subscription.onResync?.();
        } catch (error) {
          log.error({ ...errorFields(error), channel }, `Resync on ${channel} failed`);
        }
      }
    }
  }
}

/** Largest payload PostgreSQL accepts in a notification (bytes, less than 8000); send ids, not rows. */
export const MAX_NOTIFY_PAYLOAD_BYTES = 7_999;

/**
 * Queues a notification in `db`'s transaction: listeners hear it when, and only if, it commits, so
 * they never read a row that is not there yet.
 */
export async function notifyIn(db: Queryable, channel: string, payload: string): Promise<void> {
  await db.query('SELECT pg_notify($1, $2)', [channel, payload]);
}
