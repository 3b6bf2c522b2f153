import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startTestMailServer } from '#tests/support/mail-server.ts';
import { MAIL_LOGO_SLOT, mailHtml } from './mail-text.ts';
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

  it('attaches the site’s logo where the frame has a place for it, with its text in the mail’s language', async () => {
    const server = await startTestMailServer();
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const logo = async () => ({ png, width: 120, height: 40, alt: { en: 'Rossi', fr: 'Boulangerie Rossi' } });
    try {
      const framed = { ...mail, html: mailHtml('fr', mail.subject, '<p>été</p>') };
      await smtpMailer(server.url, 'Site <no-reply@example.com>', logo).send(framed);
      const received = await server.waitFor('ada@example.com');
      const [image] = received.inline;
      expect(image?.type).toMatch(/^image\/png/);
      expect(image?.content.equals(png)).toBe(true);
      expect(received.html).toContain(`<img src="cid:${image?.cid}" alt="Boulangerie Rossi" width="120" height="40"`);
      expect(received.html).not.toContain(MAIL_LOGO_SLOT);

      // Without a logo, the place is left empty and nothing is attached.
      await smtpMailer(server.url, 'Site <no-reply@example.com>', async () => undefined).send(framed);
      const plain = await server.waitFor('ada@example.com', 1);
      expect(plain.inline).toEqual([]);
      expect(plain.html).not.toContain('<img');
      expect(plain.html).toContain('<p>été</p>');
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
