import type { SelectHTMLAttributes } from 'react';
import { FieldMessage } from './FieldMessage.tsx';
import type { FieldState } from './use-form.ts';
import '#client/styles/forms.css';

type SelectProps = Omit<
  SelectHTMLAttributes<HTMLSelectElement>,
  'id' | 'name' | 'value' | 'onChange' | 'onFocus' | 'onBlur'
>;

/**
 * A labelled choice with the specification specification §5 behaviour of TextField. `placeholder` is the first, empty option,
 * which a required select refuses, so that nobody sends the first subject by accident.
 */
export function SelectField({
  field,
  label,
  placeholder,
  options,
  required = true,
  ...select
}: SelectProps & {
  field: FieldState;
  label: string;
  placeholder: string;
  options: readonly { value: string; label: string }[];
}) {
  const errorId = `${field.id}-error`;
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
        <select
          {...select}
          id={field.id}
          name={field.name}
          value={String(field.value)}
          required={required}
          aria-invalid={field.error ? true : undefined}
          aria-describedby={field.error ? errorId : undefined}
          onChange={(event) => field.onChange(event.target.value)}
          onFocus={field.onFocus}
          onBlur={field.onBlur}
        >
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <span className="field__tick" aria-hidden="true" />
      </div>
      <FieldMessage field={field} />
    </div>
  );
}
