import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordStrength } from '#common/password-strength.ts';
import { TextField, type TextFieldProps } from './TextField.tsx';
import '#client/styles/forms.css';

// The password field keeps copy, paste and select to itself (specification §5): nothing listening further up the
// page learns of them. Native listeners on the input itself, since React's onSelect is not the
// browser's select event.
const KEPT_EVENTS = ['copy', 'cut', 'paste', 'select'] as const;
const keepToField = (event: Event) => event.stopPropagation();

/** A password input with show/hide and, for a new password, the strength indicator (specification §5). */
export function PasswordField({
  showStrength = false,
  ...props
}: Omit<TextFieldProps, 'type'> & { showStrength?: boolean }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const element = input.current;
    for (const type of KEPT_EVENTS) element?.addEventListener(type, keepToField);
    return () => {
      for (const type of KEPT_EVENTS) element?.removeEventListener(type, keepToField);
    };
  }, []);
  const strength = showStrength ? passwordStrength(String(props.field.value)) : null;
  return (
    <TextField
      {...props}
      type={visible ? 'text' : 'password'}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      ref={input}
      addon={
        <button
          type="button"
          className="field__toggle"
          aria-controls={props.field.id}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? t('form.hidePassword') : t('form.showPassword')}
        </button>
      }
      below={
        showStrength && (
          <p className="field__strength" aria-live="polite">
            {strength && (
              <>
                {t('form.strength')}{' '}
                <strong className={`strength strength--${strength}`}>{t(`form.${strength}`)}</strong>
              </>
            )}
          </p>
        )
      }
    />
  );
}
