import type { TextareaHTMLAttributes } from 'react';
import { FieldMessage } from './FieldMessage.tsx';
import type { FieldState } from './use-form.ts';
import '#client/styles/forms.css';

type AreaProps = Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'id' | 'name' | 'value' | 'onChange' | 'onFocus' | 'onBlur'
>;

/** A labelled text of several lines with the specification specification §5 behaviour of TextField, and an optional hint. */
export function TextAreaField({
  field,
  label,
  hint,
  required = true,
  ...area
}: AreaProps & { field: FieldState; label: string; hint?: string }) {
  const hintId = `${field.id}-hint`;
  const errorId = `${field.id}-error`;
  const describedBy = [hint ? hintId : '', field.error ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${field.error ? ' field--invalid' : ''}${field.valid ? ' field--valid' : ''}`}>
      <label htmlFor={field.id}>
        {label}
        {required && (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        )}
      </label>
      <div className="field__control">
        <textarea
          {...area}
          id={field.id}
          name={field.name}
          value={String(field.value)}
          required={required}
          aria-invalid={field.error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => field.onChange(event.target.value)}
          onFocus={field.onFocus}
          onBlur={field.onBlur}
        />
        <span className="field__tick field__tick--top" aria-hidden="true" />
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      <FieldMessage field={field} />
    </div>
  );
}
