import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** The form's button; while the request runs it says so and ignores further presses. */
export function SubmitButton({
  busy,
  children,
  danger = false,
}: {
  busy: boolean;
  children: ReactNode;
  danger?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <button
      type="submit"
      className={`button button--block${danger ? ' button--danger' : ''}`}
      aria-disabled={busy || undefined}
    >
      {busy ? t('form.busy') : children}
    </button>
  );
}
