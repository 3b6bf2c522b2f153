import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import { CHAT_HOURS_API, type ChatSettings, type HoursInterval } from '#common/chat-hours.ts';
import { MAX_SPANS_PER_DAY } from '#common/chat-hours-schemas.ts';
import './chat-settings.css';

/** Monday first, as the settings keep the week; 2024-01-01 was a Monday. */
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6].map((i) => new Date(Date.UTC(2024, 0, 1 + i)));

/** Every zone the browser knows, the team's own first if it is an old name the list lacks. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return known.includes(current) ? known : [current, ...known];
}

/**
 * The chat's settings, for admins (console/chat-settings): the team's weekly hours, holidays and
 * their time zone, and after how many minutes a visitor left waiting is mailed to the operators
 * on duty. The server checks every value again.
 */
export default function ChatSettingsPage() {
  const { t } = useTranslation('console');
  useTitle(t('chatSettings.title'));
  const [settings, setSettings] = useState<ChatSettings | null>(null);
  useEffect(() => {
    void consoleCall<ChatSettings>(CHAT_HOURS_API.settings).then((result) => {
      if (result.ok) setSettings(result.data);
    });
  }, []);
  return (
    <>
      <h1>{t('chatSettings.title')}</h1>
      {settings ? <SettingsForm initial={settings} /> : <Loading />}
    </>
  );
}

function SettingsForm({ initial }: { initial: ChatSettings }) {
  const { t, i18n } = useTranslation('console');
  const toast = useToast();
  const errorToast = useErrorToast();
  const [settings, setSettings] = useState(initial);
  const [holiday, setHoliday] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' });
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const dayName = (index: number) => weekday.format(WEEKDAYS[index]);
  const dateName = (day: string) => date.format(new Date(`${day}T00:00:00Z`));

  const change = (next: Partial<ChatSettings>) => setSettings({ ...settings, ...next });
  const setSpans = (day: number, spans: HoursInterval[]) =>
    change({ weekly: settings.weekly.map((old, i) => (i === day ? spans : old)) });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    const result = await consoleCall<ChatSettings>(CHAT_HOURS_API.settings, settings);
    setBusy(false);
    if (!result.ok) {
      if (result.fields?.weekly || Object.keys(result.fields ?? {}).some((field) => field.startsWith('weekly'))) {
        setInvalid(true);
      }
      return void errorToast(result.code);
    }
    setInvalid(false);
    setSettings(result.data);
    toast.show({ type: 'success', message: t('chatSettings.saved') });
  };

  return (
    <form className="chat-settings" onSubmit={submit} noValidate>
      <fieldset>
        <legend>{t('chatSettings.hoursTitle')}</legend>
        <p className="chat-settings__help" id={`${id}-help`}>
          {t('chatSettings.hoursHelp')}
        </p>
        <label className="chat-settings__check">
          <input
            type="checkbox"
            checked={settings.hoursEnabled}
            aria-describedby={`${id}-help`}
            onChange={(event) => change({ hoursEnabled: event.target.checked })}
          />{' '}
          {t('chatSettings.hoursEnabled')}
        </label>
        <label className="chat-settings__field">
          <span>{t('chatSettings.timeZone')}</span>
          <select value={settings.timeZone} onChange={(event) => change({ timeZone: event.target.value })}>
            {timeZones(settings.timeZone).map((zone) => (
              <option key={zone} value={zone}>
                {zone}
              </option>
            ))}
          </select>
        </label>
        {invalid && (
          <p className="chat-settings__invalid" role="alert">
            {t('chatSettings.invalid')}
          </p>
        )}
        <table className="chat-settings__week">
          <tbody>
            {settings.weekly.map((spans, day) => (
              <tr key={WEEKDAYS[day]?.toISOString()}>
                <th scope="row">{dayName(day)}</th>
                <td>
                  {spans.length === 0 && <span className="chat-settings__closed">{t('chatSettings.closed')}</span>}
                  {spans.map((span, index) => (
                    <span className="chat-settings__span" key={`${day}-${index.toString()}`}>
                      <label>
                        <span className="visually-hidden">
                          {dayName(day)} {index + 1}: {t('chatSettings.from')}
                        </span>
                        <span aria-hidden="true">{t('chatSettings.from')} </span>
                        <input
                          type="time"
                          value={span.from}
                          aria-invalid={invalid || undefined}
                          onChange={(event) =>
                            setSpans(
                              day,
                              spans.map((s, i) => (i === index ? { ...s, from: event.target.value } : s)),
                            )
                          }
                        />
                      </label>
                      <label>
                        <span className="visually-hidden">
                          {dayName(day)} {index + 1}: {t('chatSettings.to')}
                        </span>
                        <span aria-hidden="true"> {t('chatSettings.to')} </span>
                        <input
                          type="time"
                          value={span.to === '24:00' ? '23:59' : span.to}
                          aria-invalid={invalid || undefined}
                          onChange={(event) =>
                            setSpans(
                              day,
                              spans.map((s, i) => (i === index ? { ...s, to: event.target.value } : s)),
                            )
                          }
                        />
                      </label>
                      <button
                        type="button"
                        className="button button--small button--secondary"
                        onClick={() =>
                          setSpans(
                            day,
                            spans.filter((_, i) => i !== index),
                          )
                        }
                      >
                        <span aria-hidden="true">×</span>
                        <span className="visually-hidden">
                          {t('chatSettings.removeSpan', { day: dayName(day), from: span.from, to: span.to })}
                        </span>
                      </button>
                    </span>
                  ))}
                  {spans.length < MAX_SPANS_PER_DAY && (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setSpans(day, [...spans, nextSpan(spans)])}
                    >
                      {t('chatSettings.addSpan', { day: dayName(day) })}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </fieldset>

      <fieldset>
        <legend>{t('chatSettings.holidaysTitle')}</legend>
        {settings.holidays.length === 0 ? (
          <p>{t('chatSettings.noHolidays')}</p>
        ) : (
          <ul className="chat-settings__holidays">
            {settings.holidays.map((day) => (
              <li key={day}>
                <time dateTime={day}>{dateName(day)}</time>{' '}
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => change({ holidays: settings.holidays.filter((d) => d !== day) })}
                >
                  <span aria-hidden="true">×</span>
                  <span className="visually-hidden">{t('chatSettings.removeHoliday', { date: dateName(day) })}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="chat-settings__add">
          <label className="chat-settings__field">
            <span>{t('chatSettings.holidayDate')}</span>
            <input type="date" value={holiday} onChange={(event) => setHoliday(event.target.value)} />
          </label>
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => {
              if (!holiday) return;
              change({ holidays: [...new Set([...settings.holidays, holiday])].sort() });
              setHoliday('');
            }}
          >
            {t('chatSettings.addHoliday')}
          </button>
        </div>
      </fieldset>

      <fieldset>
        <legend>{t('chatSettings.alertTitle')}</legend>
        <label className="chat-settings__field">
          <span>{t('chatSettings.alertAfter')}</span>
          <input
            type="number"
            min={1}
            max={1440}
            value={settings.alertAfterMinutes}
            aria-describedby={`${id}-alert`}
            onChange={(event) => change({ alertAfterMinutes: Number(event.target.value) })}
          />
        </label>
        <p className="chat-settings__help" id={`${id}-alert`}>
          {t('chatSettings.alertHelp')}
        </p>
      </fieldset>

      <p>
        <button type="submit" className="button" aria-disabled={busy || undefined}>
          {t('chatSettings.save')}
        </button>
      </p>
    </form>
  );
}

/** A new span after the day's last one: the afternoon after a morning, or a working day. */
function nextSpan(spans: HoursInterval[]): HoursInterval {
  const last = spans.at(-1);
  if (!last) return { from: '09:00', to: '17:00' };
  const hour = Math.min(22, Number(last.to.slice(0, 2)) + 1);
  return { from: `${String(hour).padStart(2, '0')}:00`, to: `${String(hour + 1).padStart(2, '0')}:00` };
}
