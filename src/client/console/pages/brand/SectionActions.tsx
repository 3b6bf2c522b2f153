import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A section's save button (saying so while it saves), with any other action of the section beside it. */
export function SectionActions({ busy, save, children }: { busy: boolean; save: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <p className="actions brand-section__actions">
      <button type="submit" className="button" aria-disabled={busy || undefined}>
        {busy ? t('form.busy') : save}
      </button>
      {children}
    </p>
  );
}
