-- What an account may do: every account is a member; operators and admins are the staff who use the
-- console. Only the staff command and admins in the console change it.
ALTER TABLE accounts ADD COLUMN role text NOT NULL DEFAULT 'member'
  CONSTRAINT accounts_role_known CHECK (role IN ('member', 'operator', 'admin'));
CREATE INDEX accounts_staff ON accounts (role) WHERE role <> 'member';

-- Staff added by the command or by an admin have no phone number to give; registration still asks for one.
ALTER TABLE accounts ALTER COLUMN phone DROP NOT NULL;
