import { askNotifications, setSound, useAlerts } from './alerts-store.ts';
import { useChatConsoleTexts } from './use-chat-console-texts.ts';
import './alerts.css';

/**
 * The operator's own alerts, on the chat page: the chime (kept on the server for them) and desktop
 * notifications, whose permission the browser is asked for only when they click.
 */
export function AlertSettings() {
  const t = useChatConsoleTexts();
  const alerts = useAlerts();
  if (!t) return null;
  return (
    <section className="chat-alerts" aria-labelledby="chat-alerts-title">
      <h2 id="chat-alerts-title" className="chat-alerts__title">
        {t('alertsTitle')}
      </h2>
      <label className="chat-alerts__sound">
        <input type="checkbox" checked={alerts.sound} onChange={(event) => void setSound(event.target.checked)} />{' '}
        {t('alertsSound')}
      </label>
      {alerts.notifications === 'default' && (
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => void askNotifications()}
        >
          {t('alertsNotify')}
        </button>
      )}
      <p className="chat-alerts__state" role="status">
        {alerts.notifications === 'granted' && t('alertsNotifyOn')}
        {alerts.notifications === 'denied' && t('alertsNotifyBlocked')}
        {alerts.notifications === 'unsupported' && t('alertsNotifyUnsupported')}
      </p>
    </section>
  );
}
