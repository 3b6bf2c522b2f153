import { timingSafeEqual } from 'node:crypto';
import { EmailSchema, NameSchema } from '#common/fields.ts';
import { isLanguage, type Language } from '#common/languages.ts';
import { isStaffRole, STAFF_ROLES, type StaffRole } from '#common/roles.ts';
import type { SiteConfig } from '#common/site-config.ts';
import {
  grantStaffRole,
  hasSecondFactor,
  issueSetPasswordLink,
  listStaff,
  type Passwords,
} from '#server/features/accounts/index.ts';
import type { Database } from '#server/platform/db/database.ts';
import { keyedHash } from '#server/platform/secrets.ts';

/** How long the set-password link the command prints works (once). */
export const STAFF_LINK_HOURS = 24;

export type StaffCommand =
  | { action: 'add'; email: string; role: StaffRole; name?: string; language?: Language }
  | { action: 'remove'; email: string }
  | { action: 'list' };

export interface StaffCommandContext {
  db: Database;
  secret: Buffer;
  site: SiteConfig;
  passwords: Passwords;
  /** No SMTP_URL where the command runs: the server's mail is kept, not sent, and the command says so. */
  mailKept: boolean;
}

/** What the command adds when the server keeps its mail: the link it prints is the only way in. */
export const MAIL_KEPT_NOTE =
  'No SMTP_URL is set: the site sends no mail. Mail is kept in the mail_outbox table and written to the server log.';

/** What `npm run staff` is told, or why it is refused. */
export type StaffCommandResult = { ok: true; lines: string[] } | { ok: false; error: string };

/** What each staff role opens, as the command's help and its answer to `add` say it. */
const ROLE_SUMMARIES: Record<StaffRole, string> = {
  editor: "edits and publishes the site's texts; sees no messages, chats or analytics",
  operator: 'reads and answers messages and chats, sees the analytics',
  admin: 'everything an operator does, and manages the staff',
};

export const USAGE = `Usage:
  npm run staff -- add EMAIL --role ${STAFF_ROLES.join('|')} [--name "NAME"] [--language en|it|th|fr|de|nl]
  npm run staff -- remove EMAIL
  npm run staff -- list
Roles:
${STAFF_ROLES.map((role) => `  ${role.padEnd(8)} ${ROLE_SUMMARIES[role]}`).join('\n')}`;

/** How the first admin is made, said when there is no staff yet. */
const FIRST_ADMIN = 'npm run staff -- add EMAIL --role admin [--name "NAME"] [--language en|it|th|fr|de|nl]';

/** Reads the command line (after `--`); null when it makes no sense. */
export function parseStaffCommand(args: readonly string[]): StaffCommand | null {
  const [action, ...rest] = args;
  const options = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    if (arg.startsWith('--')) {
      const value = rest[i + 1];
      if (value === undefined) return null;
      options.set(arg.slice(2), value);
      i++;
    } else positional.push(arg);
  }
  if (action === 'list' && positional.length === 0 && options.size === 0) return { action: 'list' };
  const [email] = positional;
  if (!email || positional.length !== 1) return null;
  if (action === 'remove' && options.size === 0) return { action: 'remove', email };
  if (action !== 'add') return null;
  const role = options.get('role');
  const language = options.get('language');
  if (!isStaffRole(role) || (language !== undefined && !isLanguage(language))) return null;
  if ([...options.keys()].some((key) => !['role', 'name', 'language'].includes(key))) return null;
  return { action: 'add', email, role, name: options.get('name'), language };
}

/** A command as the running server receives it from `npm run staff`, checked field by field. */
export function staffCommandOf(raw: unknown): StaffCommand | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { action, email, role, name, language } = raw as Record<string, unknown>;
  if (action === 'list') return { action };
  if (typeof email !== 'string') return null;
  if (action === 'remove') return { action, email };
  if (action !== 'add' || !isStaffRole(role)) return null;
  if (name !== undefined && typeof name !== 'string') return null;
  if (language !== undefined && !isLanguage(language)) return null;
  return { action, email, role, name, language };
}

/**
 * Runs a staff command on the database (see `applyStaffCommand`), and says so when the server
 * keeps its mail instead of sending it, which a new colleague would otherwise wait for.
 */
export async function runStaffCommand(
  context: StaffCommandContext,
  command: StaffCommand,
): Promise<StaffCommandResult> {
  const result = await applyStaffCommand(context, command);
  if (!result.ok || !context.mailKept || command.action === 'remove') return result;
  return { ok: true, lines: [...result.lines, MAIL_KEPT_NOTE] };
}

/**
 * Runs a staff command on the database: `add` makes the account when there is none, gives it the
 * role and prints a one-time link to set its password (a reset code, as a forgotten password
 * would get, valid for a day); `remove` makes a staff member a plain member again; `list` shows
 * the staff. This is how the first admin is made: nobody becomes one by signing up first.
 */
async function applyStaffCommand(context: StaffCommandContext, command: StaffCommand): Promise<StaffCommandResult> {
  const { db } = context;
  if (command.action === 'list') {
    const staff = await listStaff(db);
    if (staff.length === 0) return { ok: true, lines: ['No staff yet. Add the first admin with:', FIRST_ADMIN] };
    return {
      ok: true,
      lines: staff.map(
        (member) =>
          `${member.role.padEnd(8)} ${member.name} <${member.email}>${member.verified ? '' : ' (password not set yet)'}`,
      ),
    };
  }
  const email = EmailSchema.safeParse(command.email);
  if (!email.success) return { ok: false, error: `Not an email address: ${command.email}` };
  if (command.action === 'remove') {
    const rows = await db.query<{ name: string }>(
      `UPDATE accounts SET role = 'member' WHERE email = $1 AND role <> 'member' RETURNING name`,
      [email.data],
    );
    if (rows.length === 0) return { ok: false, error: `${email.data} is not on the staff.` };
    return { ok: true, lines: [`${rows[0]?.name} <${email.data}> is no longer on the staff (the account stays).`] };
  }
  const name = NameSchema.safeParse(command.name ?? email.data.split('@')[0]);
  if (!name.success)
    return { ok: false, error: 'The name must have a letter and at most 100 characters; give one with --name.' };
  const language = command.language ?? 'en';
  const account = await grantStaffRole(
    db,
    context.passwords,
    { email: email.data, name: name.data, language },
    command.role,
  );
  const link = await issueSetPasswordLink(context, db, account, language, STAFF_LINK_HOURS * 60 * 60);
  // The console opens only with a second factor: say so now rather than at the first sign-in.
  const needsFactor = !(await hasSecondFactor(db, account.id));
  return {
    ok: true,
    lines: [
      `${account.name} <${account.email}> is now ${command.role}${account.created ? ' (a new account)' : ''}: ${ROLE_SUMMARIES[command.role]}.`,
      `Set the password with this link; it works once, within ${STAFF_LINK_HOURS} hours:`,
      `  ${link}`,
      `Then sign in and open ${context.site.siteUrl}/console`,
      ...(needsFactor
        ? [
            'Staff need two-step verification: the console opens only once a passkey is added or an',
            'authenticator app is set up on the account page (the console leads there at the first visit).',
          ]
        : []),
    ],
  };
}

/** The bearer token that lets `npm run staff` ask the running server: derived from the server secret. */
export const staffCommandToken = (secret: Buffer) => keyedHash(secret, 'staff-command');

export function isStaffCommandToken(secret: Buffer, header: string | undefined): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(staffCommandToken(secret));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
