import { describe, expect, it, vi } from 'vitest';
import type { ErrorCode } from '#common/error-codes.ts';
import { z } from '#common/zod.ts';
import { fieldVerdict, importRules, placeFailure, ruleError, sendAsVisitor } from './form-state.ts';

// Rules as the shared schemas write them: each message is an error code.
const rules = {
  name: z.string().check(z.trim(), z.minLength(1, 'MISSING_REQUIRED_FIELD')),
  email: z.email('INVALID_EMAIL'),
};
type Values = { name: string; email: string; terms: boolean };
const values: Values = { name: '', email: 'ada@', terms: false };

describe('ruleError', () => {
  it('gives the code of the first complaint, none for a valid value, a field without rule or rules not here yet', () => {
    expect(ruleError<Values>(rules, 'name', values)).toBe('MISSING_REQUIRED_FIELD');
    expect(ruleError<Values>(rules, 'email', values)).toBe('INVALID_EMAIL');
    expect(ruleError<Values>(rules, 'email', { ...values, email: 'ada@example.com' })).toBeUndefined();
    expect(ruleError<Values>(rules, 'terms', values)).toBeUndefined();
    expect(ruleError<Values>(null, 'name', values)).toBeUndefined();
  });
});

describe('fieldVerdict', () => {
  type Form = {
    values: Values;
    touched: Partial<Record<keyof Values, boolean>>;
    fromServer: Partial<Record<keyof Values, ErrorCode>>;
  };
  const verdict = (name: keyof Values, change: Partial<Form> = {}) => {
    const form: Form = { values, touched: {}, fromServer: {}, ...change };
    return fieldVerdict<Values>(name, form.values, form.touched, form.fromServer, rules);
  };

  it('shows no rule’s message before the field was touched', () => {
    expect(verdict('name')).toEqual({ error: undefined, valid: false });
  });

  it('shows the rule’s message once touched', () => {
    expect(verdict('name', { touched: { name: true } })).toEqual({
      error: 'MISSING_REQUIRED_FIELD',
      valid: false,
    });
  });

  it('shows the server’s code first, touched or not', () => {
    expect(verdict('email', { fromServer: { email: 'EMAIL_ALREADY_EXISTS' } })).toEqual({
      error: 'EMAIL_ALREADY_EXISTS',
      valid: false,
    });
  });

  it('ticks a touched field that is valid and not empty', () => {
    const filled = { name: 'Ada', email: 'ada@example.com', terms: true };
    const touched = { name: true, email: true, terms: true };
    expect(verdict('email', { values: filled, touched })).toEqual({ error: undefined, valid: true });
    expect(verdict('terms', { values: filled, touched })).toEqual({ error: undefined, valid: true });
    expect(verdict('terms', { values: { ...filled, terms: false }, touched })).toMatchObject({
      valid: false,
    });
    expect(verdict('email', { values: filled })).toMatchObject({ valid: false });
  });
});

describe('placeFailure', () => {
  const names = ['name', 'email', 'terms'] as const;

  it('puts the server’s codes under the form’s own fields, the first in form order to be focused', () => {
    expect(
      placeFailure<Values>(
        {
          ok: false,
          code: 'VALIDATION_ERROR',
          fields: { terms: 'MISSING_REQUIRED_FIELD', email: 'INVALID_EMAIL', other: 'MISSING_REQUIRED_FIELD' },
        },
        names,
      ),
    ).toEqual({ fields: { terms: 'MISSING_REQUIRED_FIELD', email: 'INVALID_EMAIL' }, first: 'email' });
  });

  it('puts a code the server sends for the whole request under the field the form names for it', () => {
    expect(
      placeFailure<Values>({ ok: false, code: 'EMAIL_ALREADY_EXISTS' }, names, { EMAIL_ALREADY_EXISTS: 'email' }),
    ).toEqual({
      fields: { email: 'EMAIL_ALREADY_EXISTS' },
      first: 'email',
    });
  });

  it('leaves anything else to the toast', () => {
    expect(
      placeFailure<Values>({ ok: false, code: 'NETWORK_ERROR' }, names, { EMAIL_ALREADY_EXISTS: 'email' }),
    ).toEqual({
      fields: {},
      first: undefined,
    });
  });
});

describe('importRules', () => {
  it('imports a form’s rules once for every form that asks', async () => {
    const source = vi.fn(async () => rules);
    const [first, second] = await Promise.all([importRules(source), importRules(source)]);
    expect(await importRules(source)).toBe(first);
    expect(second).toBe(first);
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('imports again after a failed import', async () => {
    const source = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(rules);
    await expect(importRules(source)).rejects.toThrow('offline');
    await vi.waitFor(async () => expect(await importRules(source)).toBe(rules));
    expect(source).toHaveBeenCalledTimes(2);
  });
});

describe('sendAsVisitor', () => {
  const visitor = () => {
    const steps: string[] = [];
    return {
      steps,
      beforeVisitorCall: vi.fn(async () => steps.push('before')),
      afterRefusedVisitor: vi.fn(async () => steps.push('renewed')),
    };
  };

  it('waits for the identifier before the call', async () => {
    const fake = visitor();
    const send = vi.fn(async () => {
      fake.steps.push('send');
      return { ok: true as const, data: {} };
    });
    expect(await sendAsVisitor(fake, send)).toEqual({ ok: true, data: {} });
    expect(fake.steps).toEqual(['before', 'send']);
  });

  it('replaces a refused identifier once and calls again', async () => {
    const fake = visitor();
    const answers = [
      { ok: false as const, code: 'INVALID_FINGERPRINT' as const },
      { ok: true as const, data: 1 },
    ];
    const send = vi.fn(async () => {
      fake.steps.push('send');
      return answers.shift() ?? { ok: false as const, code: 'INVALID_FINGERPRINT' as const };
    });
    expect(await sendAsVisitor(fake, send)).toEqual({ ok: true, data: 1 });
    expect(fake.steps).toEqual(['before', 'send', 'renewed', 'send']);
  });

  it('calls only once for any other answer, and gives up after the second refusal', async () => {
    const other = visitor();
    const refused = { ok: false as const, code: 'TOO_MANY_REQUESTS' as const };
    expect(await sendAsVisitor(other, async () => refused)).toBe(refused);
    expect(other.afterRefusedVisitor).not.toHaveBeenCalled();

    const twice = visitor();
    const send = vi.fn(async () => ({ ok: false as const, code: 'INVALID_FINGERPRINT' as const }));
    expect(await sendAsVisitor(twice, send)).toEqual({ ok: false, code: 'INVALID_FINGERPRINT' });
    expect(send).toHaveBeenCalledTimes(2);
  });
});
