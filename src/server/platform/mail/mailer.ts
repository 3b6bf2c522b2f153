import type { Transporter } from 'nodemailer';
import type { Queryable } from '#server/platform/db/database.ts';
import { log, maskedEmail } from '#server/platform/log.ts';
import { type MailLogo, withLogo } from './mail-text.ts';
import { addToOutbox } from './outbox.ts';

export interface Mail {
  to: string;
  language: string;
  subject: string;
  text: string;
  html: string;
  /** Where an answer should go when it is not the sender (a validated address, never raw input). */
  replyTo?: string;
}

export interface Mailer {
  /** Resolves once the mail is accepted for delivery; rejects when it could not be. */
  send(mail: Mail): Promise<void>;
  /** True when mail is kept on the server (the outbox) rather than sent. */
  readonly keeps?: boolean;
}

/** Milliseconds before an SMTP server that does not answer counts as down, so a delivery job never hangs on it. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * Delivers through the SMTP server of SMTP_URL (smtp://user:password@host:port, or smtps://).
 * `from` is read for each mail: without MAIL_FROM it carries the site's name, which the console may
 * change; so is `logo`, the logo set in the console, attached to each mail that has a place for it.
 */
export function smtpMailer(
  url: string,
  from: string | (() => string),
  logo?: () => Promise<MailLogo | undefined>,
): Mailer {
  // nodemailer (some 6 MB resident) is loaded for the first mail, not at start: an instance without
  // SMTP never sends, and one with it sends seldom (docs/decisions/174-an-idle-server-in-less-memory.md).
  let transport: Promise<Transporter> | undefined;
  const opened = () => {
    transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url,
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      }),
    );
    return transport;
  };
  return {
    async send(mail) {
      const { html, attachments } = withLogo(mail.html, mail.language, await logo?.());
      await (await opened()).sendMail({
        from: typeof from === 'function' ? from() : from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html,
        attachments,
        replyTo: mail.replyTo,
        headers: { 'Content-Language': mail.language },
      });
    },
  };
}

/**
 * The embedded default, when no SMTP server is configured: mail is kept in the outbox table and
 * its text written to the server log, so that someone trying the site locally can read the code
 * and finish a registration. This is the only place a code or a mail's text ever reaches a log
 * (with SMTP they never do); the recipient is shown only in part.
 */
export function outboxMailer(db: Queryable): Mailer {
  return {
    keeps: true,
    async send(mail) {
      await addToOutbox(db, { recipient: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      log.info(
        { mail: { to: maskedEmail(mail.to), language: mail.language, subject: mail.subject, text: mail.text } },
        'Mail kept in the mail_outbox table, not sent (no SMTP_URL)',
      );
    },
  };
}
