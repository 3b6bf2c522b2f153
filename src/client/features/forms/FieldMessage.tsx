import { ErrorMessage } from '#client/lib/error-messages.tsx';
import type { FieldState } from './use-form.ts';
import '#client/styles/forms.css';

/**
 * A field's error as an alert-styled line, in a region that announces it when it appears, with
 * links to the pages that help (an email address already in use: sign in or reset the password).
 */
export function FieldMessage({ field }: { field: FieldState }) {
  return (
    <div className="field__message" aria-live="polite">
      {field.error && (
        <p id={`${field.id}-error`} className="field__error">
          <ErrorMessage code={field.error} email={field.name === 'email' ? String(field.value) : undefined} />
        </p>
      )}
    </div>
  );
}
