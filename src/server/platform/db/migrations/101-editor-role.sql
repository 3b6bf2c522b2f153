-- Editors: staff who edit and publish the site's texts and read nothing visitors write (the roles
-- and what each may open: src/common/roles.ts). The check only widens, so the previous release runs
-- beside it during an upgrade (decision 172): it never writes 'editor', and it reads an editor as
-- someone who is not staff (its own list of staff roles does not have it), so it lets them into
-- nothing. Dropped and added again in this migration's transaction: no moment without the check.
ALTER TABLE accounts DROP CONSTRAINT accounts_role_known;
ALTER TABLE accounts ADD CONSTRAINT accounts_role_known CHECK (role IN ('member', 'editor', 'operator', 'admin'));
