import type { ReactNode } from 'react';
import { FieldMessage } from './FieldMessage.tsx';
import type { FieldState } from './use-form.ts';
import '#client/styles/forms.css';

/**
 * A required checkbox (accepting the terms) with the same error line as the other fields; `after`
 * goes below the label (links to what is being accepted, which a label must not contain).
 */
export function CheckboxField({ field, label, after }: { field: FieldState; label: string; after?: ReactNode }) {
  const errorId = `${field.id}-error`;
  return (
    <div className={`field field--check${field.error ? ' field--invalid' : ''}`}>
      <input
        type="checkbox"
        id={field.id}
        name={field.name}
        checked={field.value === true}
        required
        aria-invalid={field.error ? true : undefined}
        aria-describedby={field.error ? errorId : undefined}
        onChange={(event) => {
          field.onChange(event.target.checked);
          field.onBlur();
        }}
        onFocus={field.onFocus}
        onBlur={field.onBlur}
      />
      <label htmlFor={field.id}>
        {label}
        <span className="field__required" aria-hidden="true">
          {' '}
          *
        </span>
      </label>
      {after && <p className="field__after">{after}</p>}
      <FieldMessage field={field} />
    </div>
  );
}
