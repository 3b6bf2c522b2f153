// What other features use of the form fields; pages may import the files directly.

export { CheckboxField } from './CheckboxField.tsx';
export { Form } from './Form.tsx';
export { PasswordField } from './PasswordField.tsx';
export { SelectField } from './SelectField.tsx';
export { SubmitButton } from './SubmitButton.tsx';
export { TextAreaField } from './TextAreaField.tsx';
export { TextField } from './TextField.tsx';
export { useForm } from './use-form.ts';
