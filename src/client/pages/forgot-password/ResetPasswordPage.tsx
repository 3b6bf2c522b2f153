import ForgotPasswordPage from './ForgotPasswordPage.tsx';

/** The forgotten password's second step on a page of its own (see PAGES.resetPassword). */
export default function ResetPasswordPage() {
  return <ForgotPasswordPage firstStep="code" />;
}
