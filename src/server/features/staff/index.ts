import type { Deps } from '#server/deps.ts';
import type { Feature } from '#server/http/feature.ts';
import { STAFF_COMMAND_PATH, staffRoutes } from './staff-routes.ts';

export { staffJobs } from './invitations.ts';
export {
  parseStaffCommand,
  runStaffCommand,
  type StaffCommandResult,
  staffCommandToken,
  USAGE,
} from './staff-command.ts';
export { STAFF_COMMAND_PATH } from './staff-routes.ts';

/**
 * The staff: who is signed in to the console, and the admins' page to manage editors, operators
 * and admins. The staff command's endpoint carries no session and comes from no page: it is taken
 * out of the Origin check and proves itself with a token derived from the server secret, from this
 * machine only.
 */
export function staffFeature(deps: Deps): Feature {
  return {
    routes: staffRoutes(deps),
    guardExemptions: [{ path: STAFF_COMMAND_PATH, origin: false, contentTypes: ['application/json'] }],
  };
}
