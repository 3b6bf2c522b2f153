import type { Context } from 'hono';
import { isUuid } from '#common/fields.ts';
import { STAFF_ROLES } from '#common/roles.ts';
import { type AddStaffAnswer, type MeAnswer, STAFF_API, type StaffAnswer } from '#common/staff-api.ts';
import { AddStaffSchema, RoleSchema } from '#common/staff-schemas.ts';
import type { Deps } from '#server/deps.ts';
import {
  changeRole,
  createPasswords,
  DEFAULT_HASHING,
  grantStaffRole,
  issueSetPasswordLink,
  listStaff,
  requireStaff,
} from '#server/features/accounts/index.ts';
import { ApiError } from '#server/http/api-error.ts';
import { newRoutes } from '#server/http/context.ts';
import { fromThisMachine } from '#server/http/from-this-machine.ts';
import { jsonBody, readJson } from '#server/http/json-body.ts';
import type { Database } from '#server/platform/db/database.ts';
import { invitationDeliveries, queueInvitation } from './invitations.ts';
import { inviteMail } from './invite-mail.ts';
import { isStaffCommandToken, runStaffCommand, STAFF_LINK_HOURS, staffCommandOf } from './staff-command.ts';

/** Where `npm run staff` asks a running server (a PGlite folder is one process's). */
export const STAFF_COMMAND_PATH = '/api/internal/staff';

/**
 * Whether the staff command may be asked here: only with the embedded database (with PostgreSQL
 * the command opens the database itself and never asks a server), only from this machine, and
 * never through a proxy. The generated nginx configuration refuses the path as well.
 */
const commandAllowed = (c: Context, database: Database['kind']) => database === 'pglite' && fromThisMachine(c);

/**
 * Who is signed in to the console (any staff member, editors included), and the staff page: admins
 * list the staff, add someone by address (an address without an account gets one and an invitation
 * to set a password), change a role and take someone off the staff. Nobody changes their own role.
 */
export function staffRoutes(deps: Deps) {
  const { db } = deps;
  const routes = newRoutes();
  const passwords = createPasswords(deps.settings.passwordHashing ?? DEFAULT_HASHING);
  // Who is signed in is every staff member's question, editors' too; the rest is the admins'.
  const anyStaff = requireStaff(deps, STAFF_ROLES);
  const admins = requireStaff(deps, ['admin']);

  routes.get(STAFF_API.me, anyStaff, async (c) => {
    const [me] = await db.query<Omit<MeAnswer, 'mail'>>(
      'SELECT id::text AS id, name, email, role FROM accounts WHERE id = $1',
      [c.var.staff.accountId],
    );
    if (!me) throw new ApiError(401, 'UNAUTHORIZED');
    return c.json({ ...me, mail: deps.settings.mailKept ? 'kept' : 'smtp' } satisfies MeAnswer);
  });

  routes.get(STAFF_API.members, admins, async (c) => {
    const [staff, invitations] = await Promise.all([listStaff(db), invitationDeliveries(db)]);
    return c.json({
      staff: staff.map((member) => ({
        ...member,
        createdAt: member.createdAt.toISOString(),
        invitation: member.verified ? null : (invitations.get(member.id) ?? null),
      })),
    } satisfies StaffAnswer);
  });

  routes.post(STAFF_API.members, admins, jsonBody(AddStaffSchema), async (c) => {
    const input = c.req.valid('json');
    const [actor] = await db.query<{ email: string; name: string }>('SELECT email, name FROM accounts WHERE id = $1', [
      c.var.staff.accountId,
    ]);
    if (actor?.email === input.email) throw new ApiError(409, 'OWN_ROLE', { fields: { email: 'OWN_ROLE' } });
    const name = input.name ?? input.email.split('@')[0] ?? input.email;
    const account = await grantStaffRole(
      db,
      passwords,
      { email: input.email, name, language: input.language },
      input.role,
    );
    const [state] = await db.query<{ verified: boolean }>(
      'SELECT verified_at IS NOT NULL AS verified FROM accounts WHERE id = $1',
      [account.id],
    );
    // Someone who has never set a password gets a link to set one; an existing member simply signs in.
    const invited = account.created || !state?.verified;
    if (invited) {
      await db.transaction(async (tx) => {
        const link = await issueSetPasswordLink(deps, tx, account, input.language, STAFF_LINK_HOURS * 60 * 60);
        await queueInvitation(
          tx,
          account.id,
          inviteMail(
            deps.site,
            deps.texts,
            { ...account, language: input.language },
            {
              inviter: actor?.name ?? '',
              role: input.role,
              link,
              hours: STAFF_LINK_HOURS,
            },
          ),
        );
      });
    }
    return c.json({ id: account.id, invited } satisfies AddStaffAnswer, 201);
  });

  routes.post(STAFF_API.role, admins, jsonBody(RoleSchema), async (c) => {
    const id = c.req.param('id');
    if (!isUuid(id)) throw new ApiError(404, 'NOT_FOUND');
    const result = await changeRole(db, c.var.staff.accountId, id.toLowerCase(), c.req.valid('json').role);
    if (result === 'own-role') throw new ApiError(409, 'OWN_ROLE');
    if (result === 'forbidden') throw new ApiError(403, 'FORBIDDEN');
    if (result === 'not-found') throw new ApiError(404, 'NOT_FOUND');
    return c.json({});
  });

  // `npm run staff` while the server holds the embedded database: only from this machine, with the
  // token derived from the server secret (which the command reads from DATA_DIR or SERVER_SECRET).
  // Anyone else is told the path does not exist.
  routes.post(STAFF_COMMAND_PATH, async (c) => {
    if (!commandAllowed(c, db.kind)) throw new ApiError(404, 'NOT_FOUND');
    if (!isStaffCommandToken(deps.secret, c.req.header('Authorization'))) throw new ApiError(401, 'UNAUTHORIZED');
    const command = staffCommandOf(await readJson(c));
    if (!command) throw new ApiError(400, 'INVALID_REQUEST');
    return c.json(
      await runStaffCommand(
        { db, secret: deps.secret, site: deps.site, passwords, mailKept: deps.settings.mailKept },
        command,
      ),
    );
  });

  return routes;
}
