import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestMailServer } from '#tests/support/mail-server.ts';
import { smtpMailer } from './mailer.ts';

const mail = {
  to: 'ada@example.com',
  language: 'fr',
  subject: 'Bonjour Ada ✓',
  text: 'Texte : été',
  html: '<p>été</p>',
};

describe('smtpMailer', () => {
  it('delivers text and HTML to a real SMTP server, in the mail’s language', async () => {
    const server = await startTestMailServer();
    try {
      await smtpMailer(server.url, 'Site <no-reply@example.com>').send(mail);
      const received = await server.waitFor('ada@example.com');
      expect(received).toMatchObject({ from: 'no-reply@example.com', subject: 'Bonjour Ada ✓', html: '<p>été</p>' });
      expect(received.text.trim()).toBe('Texte : été');
      expect(received.headers['content-language']).toBe('fr');
    } finally {
      await server.stop();
    }
  });

  it('fails instead of hanging when the SMTP server is gone', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as { port: number };
    await new Promise((resolve) => closed.close(resolve));
    await expect(smtpMailer(`smtp://127.0.0.1:${port}`, 'no-reply@example.com').send(mail)).rejects.toThrow();
  });
});
