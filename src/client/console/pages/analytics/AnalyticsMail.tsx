import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { useFormat } from '#client/console/format.ts';
import { MailKeptNote } from '#client/console/MailKeptNote.tsx';
import { Loading } from '#client/console/ui.tsx';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import {
  ALERT_MULTIPLES,
  ANALYTICS_MAIL_API,
  type AnalyticsMailSettings,
  MAIL_REPORTS,
  type MailReport,
} from '#common/analytics-mail.ts';
import type { MeAnswer } from '#common/staff-api.ts';
import './analytics-mail.css';

/**
 * The signed-in admin's own analytics mail (decision 210), at the end of the analytics page: a
 * report (weekly, monthly or none) and an alert for an hour with far more visits than usual.
 */
export function AnalyticsMail({ me }: { me: MeAnswer }) {
  const { t } = useTranslation('console');
  const format = useFormat();
  const toast = useToast();
  const errorToast = useErrorToast();
  const id = useId();
  const [settings, setSettings] = useState<AnalyticsMailSettings | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    void consoleCall<AnalyticsMailSettings>(ANALYTICS_MAIL_API.settings).then((result) => {
      if (result.ok) setSettings(result.data);
      else void errorToast(result.code);
    });
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!settings || busy) return;
    setBusy(true);
    const result = await consoleCall<AnalyticsMailSettings>(ANALYTICS_MAIL_API.settings, settings);
    setBusy(false);
    if (!result.ok) return void errorToast(result.code);
    setSettings(result.data);
    toast.show({ type: 'success', message: t('analyticsMail.form.saved') });
  };

  // A multiple set otherwise than the console offers (through the API) stays listed.
  const multiples =
    settings?.alertMultiple && !(ALERT_MULTIPLES as readonly number[]).includes(settings.alertMultiple)
      ? [...ALERT_MULTIPLES, settings.alertMultiple].sort((a, b) => a - b)
      : ALERT_MULTIPLES;

  return (
    <section className="analytics-mail" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('analyticsMail.form.title')}</h2>
      <p className="console-note">{t('analyticsMail.form.intro', { email: me.email })}</p>
      <MailKeptNote me={me} />
      {settings ? (
        <form onSubmit={submit} noValidate>
          <fieldset>
            <legend>{t('analyticsMail.form.report')}</legend>
            {MAIL_REPORTS.map((report: MailReport) => (
              <label className="analytics-mail__choice" key={report}>
                <input
                  type="radio"
                  name={`${id}-report`}
                  value={report}
                  checked={settings.report === report}
                  onChange={() => setSettings({ ...settings, report })}
                />{' '}
                {t(`analyticsMail.form.reports.${report}`)}
              </label>
            ))}
          </fieldset>
          <label className="analytics-mail__field">
            <span>{t('analyticsMail.form.alert')}</span>
            <select
              value={settings.alertMultiple ?? ''}
              aria-describedby={`${id}-hint`}
              onChange={(event) =>
                setSettings({ ...settings, alertMultiple: event.target.value ? Number(event.target.value) : null })
              }
            >
              <option value="">{t('analyticsMail.form.alertOff')}</option>
              {multiples.map((multiple) => (
                <option key={multiple} value={multiple}>
                  {t('analyticsMail.form.alertMultiple', { multiple: format.number(multiple) })}
                </option>
              ))}
            </select>
          </label>
          <p className="console-note" id={`${id}-hint`}>
            {t('analyticsMail.form.alertHint')}
          </p>
          <button type="submit" className="button button--small" aria-disabled={busy || undefined}>
            {t('analyticsMail.form.save')}
          </button>
        </form>
      ) : (
        <Loading />
      )}
    </section>
  );
}
