import type { ApiFailure, ApiResult } from '#client/lib/api-client.ts';
import type { ErrorCode } from '#common/error-codes.ts';

/**
 * The rules of a form apart from React: what a field shows, where the server's answer goes, how the
 * rules are imported and how a call that needs the visitor identifier is made. use-form.ts holds the
 * state and calls these.
 */

export type Value = string | boolean;
/** What the form needs of a shared zod schema: its verdict and the error code it names. */
export interface Rule {
  safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } };
}
export type Rules<V> = Partial<Record<keyof V, Rule>>;
type ByField<V, T> = Partial<Record<keyof V, T>>;

/** The code of the rule's first complaint about a field's value; none without rules. */
export function ruleError<V>(rules: Rules<V> | null, name: keyof V, values: V): ErrorCode | undefined {
  const result = rules?.[name]?.safeParse(values[name]);
  return result && !result.success ? (result.error?.issues[0]?.message as ErrorCode) : undefined;
}

/**
 * What a field shows: the server's code first, else the rule's once the field was touched; valid
 * (the success tick) when touched, without error and not empty.
 */
export function fieldVerdict<V extends Record<string, Value>>(
  name: keyof V,
  values: V,
  touched: ByField<V, boolean>,
  fromServer: ByField<V, ErrorCode>,
  rules: Rules<V> | null,
): { error: ErrorCode | undefined; valid: boolean } {
  const error = fromServer[name] ?? (touched[name] ? ruleError(rules, name, values) : undefined);
  const value = values[name];
  return { error, valid: Boolean(touched[name]) && !error && value !== '' && value !== false };
}

/**
 * Where a refusal goes: the codes the server gave for the form's fields, and a request-wide code
 * that `codeFields` puts under a field; `first` is the field to focus, or undefined when nothing
 * concerns a field (the refusal is then told in a toast).
 */
export function placeFailure<V>(
  failure: ApiFailure,
  names: readonly (keyof V & string)[],
  codeFields: ByField<Record<ErrorCode, unknown>, keyof V & string> = {},
): { fields: ByField<V, ErrorCode>; first: (keyof V & string) | undefined } {
  const fields: ByField<V, ErrorCode> = {};
  for (const [name, code] of Object.entries(failure.fields ?? {})) {
    if (names.includes(name as keyof V & string) && code) fields[name as keyof V] = code;
  }
  const mapped = codeFields[failure.code];
  if (mapped) fields[mapped] = failure.code;
  return { fields, first: names.find((name) => fields[name]) };
}

/** Rules being imported or imported, by the function that imports them, for every form that asks. */
const imported = new Map<() => Promise<unknown>, Promise<unknown>>();

/** Imports a form's rules once for the page; a failed import is forgotten, so that the next try imports again. */
export function importRules<R>(source: () => Promise<R>): Promise<R> {
  let promise = imported.get(source) as Promise<R> | undefined;
  if (!promise) {
    promise = source();
    promise.catch(() => imported.delete(source));
    imported.set(source, promise);
  }
  return promise;
}

/** What a call with the visitor identifier needs (features/visitor/visitor-for-calls.ts). */
export interface VisitorForCalls {
  beforeVisitorCall(): Promise<unknown>;
  afterRefusedVisitor(): Promise<unknown>;
}

/**
 * Makes a call that takes the visitor identifier: waits for it (starting it if need be), and when
 * the server refuses it, replaces it once and makes the call again.
 */
export async function sendAsVisitor<R extends ApiResult<unknown> | undefined>(
  visitor: VisitorForCalls,
  send: () => Promise<R>,
): Promise<R> {
  await visitor.beforeVisitorCall();
  const result = await send();
  if (!result || result.ok || result.code !== 'INVALID_FINGERPRINT') return result;
  await visitor.afterRefusedVisitor();
  return send();
}
