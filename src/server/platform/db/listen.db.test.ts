import { randomBytes } from 'node:crypto';
import { expect, it, vi } from 'vitest';
import { describeOnDatabases } from '#tests/support/databases.ts';
import { captureLog } from '#tests/support/log.ts';
import { openDatabase } from './database.ts';
import { notifyIn } from './listener.ts';

/** Channels belong to the whole PostgreSQL database, not a schema: each test takes one nobody else uses. */
const freshChannel = () => `test_${randomBytes(6).toString('hex')}`;
/** Lets every pending callback and microtask run, which is when PGlite delivers what it heard. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describeOnDatabases('listen and notify', (db, suite) => {
  it('delivers each notification to every listener of its channel, and to no other', async () => {
    const [channel, other] = [freshChannel(), freshChannel()];
    const first: string[] = [];
    const second: string[] = [];
    const elsewhere: string[] = [];
    await db().listen(channel, (payload) => first.push(payload));
    await db().listen(channel, (payload) => second.push(payload));
    await db().listen(other, (payload) => elsewhere.push(payload));

    await db().notify(channel, 'one');
    await db().notify(channel, 'two');
    await db().notify(other, 'three');

    await vi.waitFor(() => expect([first, second, elsewhere]).toEqual([['one', 'two'], ['one', 'two'], ['three']]));
  });

  it('delivers what a transaction sends when it commits, and nothing of one rolled back', async () => {
    const channel = freshChannel();
    const heard: string[] = [];
    await db().listen(channel, (payload) => heard.push(payload));

    await expect(
      db().transaction(async (tx) => {
        await notifyIn(tx, channel, 'rolled back');
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    let heardBeforeCommit: string[] = [];
    await db().transaction(async (tx) => {
      await notifyIn(tx, channel, 'committed');
      await tx.query('SELECT 1');
      await settle();
      heardBeforeCommit = [...heard];
    });

    await vi.waitFor(() => expect(heard).toEqual(['committed']));
    expect(heardBeforeCommit).toEqual([]);
  });

  it('stops delivering to a listener that stopped listening, and keeps delivering to the others', async () => {
    const channel = freshChannel();
    const stopped: string[] = [];
    const kept: string[] = [];
    const unlisten = await db().listen(channel, (payload) => stopped.push(payload));
    await db().listen(channel, (payload) => kept.push(payload));
    await db().notify(channel, 'before');
    await vi.waitFor(() => expect(stopped).toEqual(['before']));

    await unlisten();
    await db().notify(channel, 'after');
    await vi.waitFor(() => expect(kept).toEqual(['before', 'after']));
    expect(stopped).toEqual(['before']);
  });

  it('keeps delivering when a listener throws', async () => {
    const channel = freshChannel();
    const heard: string[] = [];
    const log = captureLog();
    try {
      await db().listen(channel, () => {
        throw new Error('listener bug');
      });
      await db().listen(channel, (payload) => heard.push(payload));
      await db().notify(channel, 'still heard');
      await vi.waitFor(() => expect(heard).toEqual(['still heard']));
      expect(log.messages()).toContain(`Listener on ${channel} failed`);
    } finally {
      log.restore();
    }
  });

  it('accepts only plain lower-case identifiers as channels', async () => {
    await expect(db().listen('Chat; DROP TABLE jobs', () => {})).rejects.toThrow(/identifier/);
    await expect(db().listen('', () => {})).rejects.toThrow(/identifier/);
  });

  // A PGlite folder belongs to one process; only PostgreSQL has other instances and a connection to lose.
  const postgresOnly = it.skipIf(suite.target.kind === 'pglite');

  postgresOnly('asks its listening connection one statement at a time, as pg requires', async () => {
    // pg queues a statement sent while another runs on the same connection, warns once per
    // process, and refuses it from its next major version: stopping several channels at once (a
    // server stopping) and listening to several at once must not do that.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const channels = Array.from({ length: 4 }, freshChannel);
      await db().listen(channels[0] as string, () => {});
      const stops = await Promise.all(channels.map((channel) => db().listen(channel, () => {})));
      await Promise.all(stops.map((stop) => stop()));
      await settle();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
  });

  /** Another server instance's handle on the same database, its listening connection named so a test can end it. */
  const anotherInstance = async () => {
    const name = `listen_test_${randomBytes(6).toString('hex')}`;
    const url = new URL(suite.store().options.databaseUrl as string);
    url.searchParams.set('application_name', name);
    const instance = await openDatabase({
      ...suite.store().options,
      databaseUrl: url.href,
      listener: { reconnectMinMs: 20, reconnectMaxMs: 200 },
    });
    const endListeningConnection = async () => {
      const [row] = await db().query<{ ended: number }>(
        'SELECT count(pg_terminate_backend(pid))::integer AS ended FROM pg_stat_activity WHERE application_name = $1',
        [`${name} listen`],
      );
      return row?.ended;
    };
    return { instance, endListeningConnection };
  };

  postgresOnly('delivers notifications sent by another instance', { timeout: 30_000 }, async () => {
    const { instance } = await anotherInstance();
    try {
      const channel = freshChannel();
      const heard: string[] = [];
      await instance.listen(channel, (payload) => heard.push(payload));
      await db().transaction((tx) => notifyIn(tx, channel, 'from the first instance'));
      await vi.waitFor(() => expect(heard).toEqual(['from the first instance']));
    } finally {
      await instance.close();
    }
  });

  postgresOnly(
    'reconnects when its connection is ended, listens again, and tells listeners to catch up',
    { timeout: 30_000 },
    async () => {
      const { instance, endListeningConnection } = await anotherInstance();
      const log = captureLog();
      try {
        const [channel, later] = [freshChannel(), freshChannel()];
        const heard: string[] = [];
        let resyncs = 0;
        await instance.listen(channel, (payload) => heard.push(payload), { onResync: () => resyncs++ });
        await db().notify(channel, 'before');
        await vi.waitFor(() => expect(heard).toEqual(['before']));

        expect(await endListeningConnection()).toBe(1);
        // A listener added while the connection is being replaced waits for the new one.
        const heardLater: string[] = [];
        await instance.listen(later, (payload) => heardLater.push(payload));
        await vi.waitFor(() => expect(resyncs).toBe(1), { timeout: 10_000 });

        await db().notify(channel, 'after');
        await db().notify(later, 'on the new channel');
        await vi.waitFor(() => expect([heard, heardLater]).toEqual([['before', 'after'], ['on the new channel']]));
        // Ending it again works the same: it is not a one-off.
        expect(await endListeningConnection()).toBe(1);
        await vi.waitFor(() => expect(resyncs).toBe(2), { timeout: 10_000 });
        await db().notify(channel, 'again');
        await vi.waitFor(() => expect(heard).toEqual(['before', 'after', 'again']));
      } finally {
        log.restore();
        await instance.close();
      }
    },
  );
});
