import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startTestMailServer, type TestMailServer } from '#tests/support/mail-server.ts';
import { contactTexts, newVisitor, sendMessage } from './contact.ts';
import { waitForHydration } from './helpers.ts';
import { SERVER_SECRET } from './settings.ts';

/** A port nothing listens on, for now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// A site of its own, whose mail server is down when the visitor writes and comes up afterwards.
test('a message sent while the mail server is down reaches the team once it is back, exactly once', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const [sitePort, smtpPort] = [await freePort(), await freePort()];
  const team = 'team-smtp-down@example.com';
  const dataDir = await mkdtemp(path.join(tmpdir(), 'site-smtp-down-'));
  let output = '';
  let site: ChildProcess | undefined;
  let mail: TestMailServer | undefined;
  try {
    site = spawn(process.execPath, ['src/server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(sitePort),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SERVER_SECRET,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        CONTACT_EMAIL: team,
        FINGERPRINT_RATE_LIMIT: '100000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    site.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    site.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await expect.poll(() => output, { timeout: 60_000 }).toContain('Serving on');

    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${sitePort}` });
    const page = await context.newPage();
    const first = newVisitor('Hedy Lamarr');
    await page.goto('/en/contact');
    await waitForHydration(page);
    await sendMessage(page, 'en', first);
    await expect(page.locator('.toasts__list')).toContainText(contactTexts('en').form.sent);
    // The visitor was answered; the notice to the team failed and waits for its next try.
    await expect.poll(() => output, { timeout: 30_000 }).toMatch(/Job contact\.mail \d+ failed \(try 1\)/);

    mail = await startTestMailServer(smtpPort);
    const notice = await mail.waitFor(team, 0, 60_000);
    expect(notice.subject).toContain(first.name);
    expect(notice.text).toContain(first.message);

    // A second message goes straight through; by the time it arrives, a repeat of the first would have too.
    const second = newVisitor('Grace Hopper');
    await sendMessage(page, 'en', second);
    expect((await mail.waitFor(team, 1, 30_000)).subject).toContain(second.name);
    const subjects = mail.mails.filter((m) => m.to.includes(team)).map((m) => m.subject);
    expect(subjects.filter((subject) => subject.includes(first.name))).toHaveLength(1);
    expect(subjects).toHaveLength(2);
    await context.close();
  } finally {
    site?.kill('SIGTERM');
    if (site && site.exitCode === null) await new Promise((resolve) => site?.once('exit', resolve));
    await mail?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
