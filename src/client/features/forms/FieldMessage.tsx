import { useTranslation } from 'react-i18next';
import type { FieldState } from './use-form.ts';

/** A field's error as an alert-styled line, in a region that announces it when it appears. */
export function FieldMessage({ field }: { field: FieldState }) {
  const { t } = useTranslation('errors');
  return (
    <div className="field__message" aria-live="polite">
      {field.error && (
        <p id={`${field.id}-error`} className="field__error">
          {t(field.error)}
        </p>
      )}
    </div>
  );
}
