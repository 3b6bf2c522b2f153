import pg from 'pg';
import { errorFields, log } from '#server/platform/log.ts';
import { checkChannel, type ListenOptions, type NotificationHandler, Subscribers, type Unlisten } from './listener.ts';

export interface ListenerSettings {
  /** First wait before reconnecting after the listening connection was lost; doubles up to `reconnectMaxMs`. */
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /**
   * How often the idle listening connection is asked a trivial question: a connection that a NAT
   * or a firewall dropped silently would otherwise look alive and hear nothing, for ever.
   */
  healthCheckMs: number;
}

export const DEFAULT_LISTENER_SETTINGS: ListenerSettings = {
  reconnectMinMs: 100,
  reconnectMaxMs: 5_000,
  healthCheckMs: 30_000,
};

/** A health check that takes longer than this counts as a lost connection. */
const HEALTH_TIMEOUT_MS = 10_000;

const quote = (channel: string) => `"${channel}"`;

/**
 * LISTEN on PostgreSQL: one dedicated connection per database handle (so per server instance),
 * never a pooled one, since a pool hands connections around and a LISTEN belongs to its session.
 * It is opened on the first `listen`, reconnects with growing waits when lost (the server
 * restarted, a proxy dropped it, an administrator ended it), listens again to every channel, and
 * then calls every subscriber's `onResync` so that open streams catch up from the database.
 */
export class PgListener {
  private readonly subscribers = new Subscribers();
  private client: pg.Client | null = null;
  /** Resolves when a connection is up and listening to every channel subscribed so far. */
  private up: Promise<void> | null = null;
  private markUp: (() => void) | null = null;
  private connecting = false;
  private everConnected = false;
  private closed = false;
  private failures = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private readonly url: string;
  /** The channels the current connection listens to. */
  private readonly heard = new Set<string>();

  private readonly settings: ListenerSettings;
  /**
   * The listening connection is asked one statement at a time: pg queues statements that overlap
   * (several channels stopped at once, a health check during a LISTEN) but warns that its next
   * major version will refuse them.
   */
  private pending: Promise<unknown> = Promise.resolve();

  constructor(connectionString: string, settings: ListenerSettings = DEFAULT_LISTENER_SETTINGS) {
    this.settings = settings;
    // Its own application_name, so that an administrator (and a test) can tell it from pooled connections.
    const url = new URL(connectionString);
    url.searchParams.set('application_name', `${url.searchParams.get('application_name') ?? 'site'} listen`);
    this.url = url.href;
  }

  async listen(channel: string, handler: NotificationHandler, options: ListenOptions = {}): Promise<Unlisten> {
    checkChannel(channel);
    if (this.closed) throw new Error('The database is closed');
    const subscription = this.subscribers.add(channel, handler, options);
    const unlisten: Unlisten = async () => {
      if (!subscription.remove() || !this.client || !this.heard.delete(channel)) return;
      await this.ask(this.client, `UNLISTEN ${quote(channel)}`).catch(() => {});
    };
    if (!this.up) this.start();
    else if (subscription.first && this.client && !this.connecting) {
      // The connection is up: listen on it now. If it fails, the connection is being lost and the
      // next one listens to every channel, this one included.
      const client = this.client;
      await this.ask(client, `LISTEN ${quote(channel)}`).then(
        () => this.heard.add(channel),
        () => this.lost(client),
      );
    }
    await this.up;
    return unlisten;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private start() {
    this.up = new Promise((resolve) => {
      this.markUp = resolve;
    });
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed || this.connecting) return;
    this.connecting = true;
    const client = new pg.Client({ connectionString: this.url, keepAlive: true });
    // Both fire when the connection dies; lost() acts once per client.
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.payload !== undefined) this.subscribers.deliver(message.channel, message.payload);
    });
    this.client = client;
    this.heard.clear();
    try {
      await client.connect();
      // Channels subscribed while this runs are picked up by the next round.
      for (let missing = this.unheard(); missing.length > 0; missing = this.unheard()) {
        for (const channel of missing) {
          await this.ask(client, `LISTEN ${quote(channel)}`);
          this.heard.add(channel);
        }
      }
    } catch (error) {
      this.connecting = false;
      if (!this.closed) log.error(errorFields(error), 'PostgreSQL listening connection failed');
      this.lost(client);
      return;
    }
    this.connecting = false;
    if (this.closed || this.client !== client) return;
    this.failures = 0;
    const reconnected = this.everConnected;
    this.everConnected = true;
    this.markUp?.();
    this.startHealthChecks(client);
    if (reconnected) {
      log.info('PostgreSQL listening connection is back; open streams catch up');
      this.subscribers.resyncAll();
    }
  }

  private lost(client: pg.Client) {
    if (this.client !== client) return;
    this.client = null;
    this.connecting = false;
    if (this.healthTimer) clearInterval(this.healthTimer);
    client.end().catch(() => {});
    if (this.closed) return;
    // New listeners wait for the next connection.
    if (this.everConnected && this.failures === 0) {
      log.warn('PostgreSQL listening connection lost; reconnecting');
      this.up = new Promise((resolve) => {
        this.markUp = resolve;
      });
    }
    const wait = Math.min(this.settings.reconnectMaxMs, this.settings.reconnectMinMs * 2 ** this.failures);
    this.failures++;
    // Up to a quarter more, so that instances that lost the database together do not return in step.
    this.reconnectTimer = setTimeout(() => void this.connect(), wait * (1 + Math.random() / 4));
  }

  /** Runs `sql` on `client` once the statements asked before it have finished. */
  private ask(client: pg.Client, sql: string): Promise<unknown> {
    const run = this.pending.then(() => client.query(sql));
    this.pending = run.catch(() => {});
    return run;
  }

  private unheard(): string[] {
    return this.subscribers.channels().filter((channel) => !this.heard.has(channel));
  }

  private startHealthChecks(client: pg.Client) {
    if (this.healthTimer) clearInterval(this.healthTimer);
    this.healthTimer = setInterval(() => {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('health check timed out')), HEALTH_TIMEOUT_MS).unref(),
      );
      Promise.race([this.ask(client, 'SELECT 1'), timeout]).catch(() => this.lost(client));
    }, this.settings.healthCheckMs);
    this.healthTimer.unref();
  }
}
