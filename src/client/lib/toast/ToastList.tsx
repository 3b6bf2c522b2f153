import { useTranslation } from 'react-i18next';
import type { Toast } from './toast-store.ts';
import { useToast } from './use-toast.ts';

/**
 * The toasts themselves; their clock stops while the pointer or the keyboard focus is on one. With
 * more than one shown, a last item closes them all.
 */
export default function ToastList({ toasts }: { toasts: readonly Toast[] }) {
  const { t } = useTranslation();
  const store = useToast();
  return (
    <>
      {toasts.map((toast) => (
        <li
          key={toast.id}
          className={`toast toast--${toast.type}${toast.isVisible ? '' : ' toast--hiding'}`}
          onMouseEnter={() => store.pause(toast.id)}
          onMouseLeave={() => store.resume(toast.id)}
          onFocus={() => store.pause(toast.id)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) store.resume(toast.id);
          }}
        >
          <div className="toast__body">
            <p className="visually-hidden">{t(`toasts.types.${toast.type}`)}</p>
            {toast.title && <p className="toast__title">{toast.title}</p>}
            <p className="toast__message">{toast.message}</p>
            {toast.actions && toast.actions.length > 0 && (
              <p className="toast__actions">
                {toast.actions.map((action) => (
                  <button
                    key={action.label}
                    type="button"
                    className={`button button--small${action.variant === 'secondary' ? ' button--secondary' : ''}`}
                    onClick={() => {
                      action.action();
                      store.hide(toast.id);
                    }}
                  >
                    {action.label}
                  </button>
                ))}
              </p>
            )}
          </div>
          <button type="button" className="toast__close" onClick={() => store.hide(toast.id)}>
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">{t('toasts.close')}</span>
          </button>
        </li>
      ))}
      {toasts.filter((toast) => toast.isVisible).length > 1 && (
        <li className="toasts__all">
          <button type="button" className="toasts__hide-all" onClick={store.hideAll}>
            {t('toasts.hideAll')}
          </button>
        </li>
      )}
    </>
  );
}
