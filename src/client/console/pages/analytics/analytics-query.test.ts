import { describe, expect, it } from 'vitest';
import { queryOfView, viewOf, withFilter } from './analytics-query.ts';

describe('the analytics page address', () => {
  it('reads the last 30 days without a period, and a range of days or a named period when given', () => {
    expect(viewOf(new URLSearchParams(''))).toEqual({ period: '30d', from: null, to: null, filters: {} });
    expect(viewOf(new URLSearchParams('from=2026-01-01&to=2026-01-31'))).toMatchObject({
      period: null,
      from: '2026-01-01',
      to: '2026-01-31',
    });
    expect(viewOf(new URLSearchParams('period=today')).period).toBe('today');
    expect(viewOf(new URLSearchParams('period=year')).period).toBe('30d');
  });

  it('keeps filters through the address, an empty one ("no referrer") included', () => {
    const view = viewOf(new URLSearchParams('period=7d&referrer=&page=%2Fth%2Fabout&other=x'));
    expect(view.filters).toEqual({ referrer: '', page: '/th/about' });
    expect(queryOfView(view)).toBe('?period=7d&page=%2Fth%2Fabout&referrer=');
    expect(queryOfView(withFilter(view, 'page', null))).toBe('?period=7d&referrer=');
    expect(queryOfView(withFilter(view, 'device', 'mobile'))).toBe(
      '?period=7d&page=%2Fth%2Fabout&referrer=&device=mobile',
    );
  });
});
