import type { TFunction } from 'i18next';
import type { Availability } from '#common/chat-hours.ts';
import { replyDuration, timeOf, whenBack } from './when-back.ts';

type T = TFunction<'chat', 'panel'>;

/** Whether the office hours keep the team away now (the widget then asks for an address first). */
export const awayNow = (availability: Availability | null) => availability?.hours === true && !availability.open;

/**
 * What the visitor is told about the team: outside office hours when it is back, in the visitor's
 * language and local time ("back Monday at 08:00"); within them until when, and how soon it usually
 * answers when there are enough recent replies to say.
 */
export function AvailabilityNote({
  t,
  availability,
  language,
}: {
  t: T;
  availability: Availability;
  language: string;
}) {
  if (awayNow(availability)) {
    if (!availability.nextOpen) return <p className="chat-availability">{t('away')}</p>;
    const back = whenBack(availability.nextOpen, new Date(), language);
    return <p className="chat-availability">{t(back.key, { day: back.day, time: back.time })}</p>;
  }
  const duration =
    availability.typicalReplySeconds === null ? undefined : replyDuration(availability.typicalReplySeconds, language);
  return (
    <>
      {availability.hours && availability.closesAt && (
        <p className="chat-availability">{t('hereUntil', { time: timeOf(availability.closesAt, language) })}</p>
      )}
      {duration !== undefined && (
        <p className="chat-availability chat-panel__small">
          {duration === null ? t('typicalReplyFast') : t('typicalReply', { duration })}
        </p>
      )}
    </>
  );
}
