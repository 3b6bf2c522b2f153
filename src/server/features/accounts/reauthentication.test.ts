import { expect, it } from 'vitest';
import { REAUTHENTICATION_MINUTES } from '#common/reauthentication-api.ts';
import { signedInAnew } from './reauthentication.ts';

const startedAt = new Date('2026-11-26T10:00:00Z');
const seconds = (date: Date, plus = 0) => date.getTime() / 1000 + plus;

it('takes a sign-in made after the request went out, within the minutes a re-authentication lasts', () => {
  const now = new Date(startedAt.getTime() + 60_000);
  expect(signedInAnew(seconds(startedAt, 20), startedAt, now)).toBe(true);
  // A provider's clock a little behind ours.
  expect(signedInAnew(seconds(startedAt, -20), startedAt, now)).toBe(true);
});

it('refuses a sign-in older than the request, one from the future, one too long ago, and none at all', () => {
  const now = new Date(startedAt.getTime() + 60_000);
  expect(signedInAnew(seconds(startedAt, -120), startedAt, now)).toBe(false);
  expect(signedInAnew(seconds(now, 120), startedAt, now)).toBe(false);
  const late = new Date(startedAt.getTime() + (REAUTHENTICATION_MINUTES * 60 + 60) * 1000);
  expect(signedInAnew(seconds(startedAt, 10), startedAt, late)).toBe(false);
  expect(signedInAnew(null, startedAt, now)).toBe(false);
  expect(signedInAnew(Number.NaN, startedAt, now)).toBe(false);
});
