/** A length of time as "1 min 18 s" in the console's language (units from Intl). */
export function durationFormat(language: string): (seconds: number) => string {
  const minutes = new Intl.NumberFormat(language, { style: 'unit', unit: 'minute', unitDisplay: 'short' });
  const seconds = new Intl.NumberFormat(language, { style: 'unit', unit: 'second', unitDisplay: 'short' });
  return (value) => {
    const total = Math.round(value);
    const m = Math.floor(total / 60);
    return m > 0 ? `${minutes.format(m)} ${seconds.format(total % 60)}` : seconds.format(total);
  };
}
