import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import '#client/styles/forms.css';

/**
 * An account form: sent by script (the browser's own checks are replaced by the shared rules), and
 * with method POST so that without script nothing typed, a password least of all, ends up in the
 * address. It opens with the note on required fields.
 */
export function Form({ onSubmit, children }: { onSubmit: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <form
      method="post"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <p className="form__note">{t('form.requiredNote')}</p>
      {children}
    </form>
  );
}
