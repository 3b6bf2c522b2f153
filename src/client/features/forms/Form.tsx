import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import '#client/styles/forms.css';

/**
 * An account form: sent by script (the browser's own checks are replaced by the shared rules), and
 * with method POST so that without script nothing typed, a password least of all, ends up in the
 * address. With an `action`, the form also works without script: the browser posts it there, with
 * the page's language, and the server answers with a page (decision 125). It opens with the note on
 * required fields.
 */
export function Form({ onSubmit, action, children }: { onSubmit: () => void; action?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const lang = useLanguage();
  return (
    <form
      method="post"
      action={action}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <p className="form__note">{t('form.requiredNote')}</p>
      {action && <input type="hidden" name="language" value={lang} />}
      {children}
    </form>
  );
}
