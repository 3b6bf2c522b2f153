// The form fields and the form hook, for pages and other features alike.
export { CheckboxField } from './CheckboxField.tsx';
export { FieldMessage } from './FieldMessage.tsx';
export { Form } from './Form.tsx';
export { PasswordField } from './PasswordField.tsx';
export { SelectField } from './SelectField.tsx';
export { SubmitButton } from './SubmitButton.tsx';
export { TextAreaField } from './TextAreaField.tsx';
export { TextField } from './TextField.tsx';
export { type FieldState, useForm } from './use-form.ts';
