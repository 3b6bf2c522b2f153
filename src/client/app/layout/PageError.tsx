import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddress } from '#client/lib/address.tsx';

/** Shown when a page's code or texts could not be fetched: a plain link loads it afresh from the server. */
function PageError() {
  const { t } = useTranslation();
  const { pathname, search } = useAddress();
  return (
    <div className="container page-error" role="alert">
      <h1>{t('error.title')}</h1>
      <p>{t('error.text')}</p>
      <p>
        <a className="button" href={pathname + search}>
          {t('error.retry')}
        </a>
      </p>
    </div>
  );
}

interface BoundaryProps {
  resetKey: string;
  children: ReactNode;
}

class ErrorBoundary extends Component<BoundaryProps, { failed: boolean; resetKey: string }> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  // A new address is a new attempt; the tree below stays mounted.
  static getDerivedStateFromProps(props: BoundaryProps, state: { resetKey: string }) {
    return props.resetKey === state.resetKey ? null : { failed: false, resetKey: props.resetKey };
  }

  override render() {
    return this.state.failed ? <PageError /> : this.props.children;
  }
}

/** Catches a failed page load; a new address starts afresh. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useAddress();
  return <ErrorBoundary resetKey={pathname}>{children}</ErrorBoundary>;
}
