import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FieldMessage } from './FieldMessage.tsx';
import type { FieldState } from './use-form.ts';
import '#client/styles/forms.css';

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'name' | 'value' | 'onChange' | 'onFocus' | 'onBlur'
>;

export interface TextFieldProps extends InputProps {
  field: FieldState;
  ref?: Ref<HTMLInputElement>;
  label: string;
  hint?: string;
  /** Shown beside the input inside its box (the password toggle). */
  addon?: ReactNode;
  /** Shown between the input and the error line (the strength indicator). */
  below?: ReactNode;
}

/**
 * A labelled input with the specification specification §5 behaviour: an asterisk when required, the error as an alert-styled
 * line below once touched (announced politely, linked by aria-describedby), a tick when valid.
 */
export function TextField({ field, label, hint, addon, below, required = true, ...input }: TextFieldProps) {
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
        <input
          {...input}
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
        {addon}
        <span className="field__tick" aria-hidden="true" />
      </div>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {below}
      <FieldMessage field={field} />
    </div>
  );
}
