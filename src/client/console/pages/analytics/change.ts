/** The change from `previous` to `current` as a fraction (0.25 for a quarter more); null when there is nothing to compare with. */
export function changeOf(current: number | null, previous: number | null): number | null {
  if (current === null || previous === null || previous === 0) return null;
  return (current - previous) / previous;
}
