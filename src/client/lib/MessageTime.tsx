const formats = new Map<string, { time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat }>();

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/**
 * When a chat message was written, in the reader's language and time zone: the time alone today,
 * with the date before that. Shared by the widget and the console.
 */
export function MessageTime({ at, language }: { at: string; language: string }) {
  let format = formats.get(language);
  if (!format) {
    format = {
      time: new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }),
      dateTime: new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }),
    };
    formats.set(language, format);
  }
  const date = new Date(at);
  return (
    <time className="chat-message__time" dateTime={at}>
      {(sameDay(date, new Date()) ? format.time : format.dateTime).format(date)}
    </time>
  );
}
