import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { useFormat } from '#client/console/format.ts';
import { MailKeptNote } from '#client/console/MailKeptNote.tsx';
import { Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { SelectField, SubmitButton, TextField, useForm } from '#client/features/forms/index.ts';
import { ScrollTable } from '#client/lib/ScrollTable.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { withId } from '#common/api-paths.ts';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH } from '#common/field-bounds.ts';
import { EmailSchema, NameSchema } from '#common/fields.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '#common/languages.ts';
import { type Role, STAFF_ROLES, type StaffRole } from '#common/roles.ts';
import { type AddStaffAnswer, type MeAnswer, STAFF_API, type StaffAnswer } from '#common/staff-api.ts';
import { AddStaffSchema } from '#common/staff-schemas.ts';

type Member = StaffAnswer['staff'][number];

/** How often an invitation whose mail is queued or retrying is asked about again. */
const PENDING_POLL_MS = 3_000;

function MemberRow({ member, me, reload }: { member: Member; me: MeAnswer; reload: () => Promise<void> }) {
  const { t } = useTranslation('console');
  const toast = useToast();
  const errorToast = useErrorToast();
  const format = useFormat();
  const [role, setRole] = useState<StaffRole>(member.role);
  const [busy, setBusy] = useState(false);
  const self = member.email === me.email;

  const change = async (next: Role, done: string) => {
    if (busy) return;
    setBusy(true);
    const result = await consoleCall(withId(STAFF_API.role, member.id), { role: next });
    setBusy(false);
    if (!result.ok) return void errorToast(result.code);
    toast.show({ type: 'success', message: done });
    await reload();
  };
  const roleId = `role-${member.id}`;
  return (
    <tr>
      <th scope="row">
        {member.name}
        {self && <span className="staff__you"> {t('staff.you')}</span>}
        {!member.verified && <span className="staff__pending">{t('staff.pending')}</span>}
        {member.invitation && (
          <span className={`staff__invitation delivery--${member.invitation}`}>
            {t(`staff.invitation.${member.invitation}`)}
          </span>
        )}
      </th>
      <td>{member.email}</td>
      <td>
        {self ? (
          t(`roleNames.${member.role}`)
        ) : (
          <>
            <label htmlFor={roleId} className="visually-hidden">
              {t('staff.roleOf', { name: member.name })}
            </label>
            <select id={roleId} value={role} onChange={(event) => setRole(event.target.value as StaffRole)}>
              {STAFF_ROLES.map((option) => (
                <option key={option} value={option}>
                  {t(`roleNames.${option}`)}
                </option>
              ))}
            </select>
          </>
        )}
      </td>
      <td>
        <time dateTime={member.createdAt}>{format.dateTime(member.createdAt)}</time>
      </td>
      <td>
        {self ? (
          <span className="staff__own">{t('staff.ownRole')}</span>
        ) : (
          <div className="toolbar">
            <button
              type="button"
              className="button button--secondary button--small"
              aria-disabled={busy || role === member.role || undefined}
              onClick={() =>
                role !== member.role &&
                void change(role, t('staff.changed', { name: member.name, role: t(`roleNames.${role}`) }))
              }
            >
              {t('staff.save')}
              <span className="visually-hidden"> – {member.name}</span>
            </button>
            <button
              type="button"
              className="button button--danger button--small"
              aria-disabled={busy || undefined}
              onClick={() => void change('member', t('staff.removed', { name: member.name }))}
            >
              {t('staff.remove')}
              <span className="visually-hidden"> – {member.name}</span>
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

function AddForm({ me, onAdded }: { me: MeAnswer; onAdded: () => void }) {
  const { t, i18n } = useTranslation('console');
  const toast = useToast();
  const form = useForm(
    'add-staff',
    { email: '', name: '', role: 'operator', language: i18n.language },
    {
      email: EmailSchema,
      name: { safeParse: (value: unknown) => (value === '' ? { success: true } : NameSchema.safeParse(value)) },
      role: AddStaffSchema.shape.role,
    },
    { codeFields: { OWN_ROLE: 'email' } },
  );
  const submit = form.submit(async (values) => {
    const result = await consoleCall<AddStaffAnswer>(STAFF_API.members, {
      email: values.email,
      role: values.role,
      language: values.language,
      ...(values.name ? { name: values.name } : {}),
    });
    if (!result.ok) return result;
    toast.show({
      type: 'success',
      message: !result.data.invited
        ? t('staff.add.added', { email: values.email })
        : me.mail === 'kept'
          ? t('staff.add.invitationKept', { email: values.email })
          : t('staff.add.invitationQueued', { email: values.email }),
      autoClose: false,
    });
    onAdded();
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        field={form.field('email')}
        label={t('staff.add.email')}
        type="email"
        autoComplete="off"
        maxLength={EMAIL_MAX_LENGTH}
      />
      <TextField
        field={form.field('name')}
        label={t('staff.add.name')}
        hint={t('staff.add.nameHint')}
        required={false}
        autoComplete="off"
        maxLength={NAME_MAX_LENGTH}
      />
      <SelectField
        field={form.field('role')}
        label={t('staff.add.role')}
        placeholder={t('staff.add.chooseRole')}
        options={STAFF_ROLES.map((role) => ({ value: role, label: t(`roleNames.${role}`) }))}
      />
      <SelectField
        field={form.field('language')}
        label={t('staff.add.language')}
        placeholder={t('staff.add.chooseLanguage')}
        options={LANGUAGES.map((language: Language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
      />
      <SubmitButton busy={form.busy}>{t('staff.add.submit')}</SubmitButton>
    </form>
  );
}

/** The admins' page: who is on the staff, with what role; add, change, remove. */
export default function StaffPage({ me }: { me: MeAnswer }) {
  const { t } = useTranslation('console');
  const errorToast = useErrorToast();
  const [staff, setStaff] = useState<Member[] | null>(null);
  const [added, setAdded] = useState(0);
  useTitle(t('staff.title'));

  const load = useCallback(async () => {
    const result = await consoleCall<StaffAnswer>(STAFF_API.members);
    if (result.ok) setStaff(result.data.staff);
    else void errorToast(result.code);
  }, [errorToast]);
  useEffect(() => {
    void load();
  }, []);
  // Invitations whose mail is under way are asked about again until the jobs report them done.
  useEffect(() => {
    if (!staff?.some((member) => member.invitation === 'queued' || member.invitation === 'retrying')) return;
    const timer = setTimeout(() => void load(), PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [staff, load]);

  return (
    <>
      <h1>{t('staff.title')}</h1>
      <p className="console-lead">{t('staff.roleHelp')}</p>
      {!staff ? (
        <Loading />
      ) : (
        <ScrollTable tableClassName="staff" caption={t('staff.caption')}>
          <thead>
            <tr>
              <th scope="col">{t('staff.name')}</th>
              <th scope="col">{t('staff.email')}</th>
              <th scope="col">{t('staff.role')}</th>
              <th scope="col">{t('staff.since')}</th>
              <th scope="col">{t('staff.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {staff.map((member) => (
              <MemberRow key={`${member.id}-${member.role}`} member={member} me={me} reload={load} />
            ))}
          </tbody>
        </ScrollTable>
      )}
      <section aria-labelledby="add-title" className="card staff__add">
        <h2 id="add-title">{t('staff.add.title')}</h2>
        <MailKeptNote me={me} />
        <AddForm
          key={added}
          me={me}
          onAdded={() => {
            setAdded((n) => n + 1);
            void load();
          }}
        />
      </section>
    </>
  );
}
