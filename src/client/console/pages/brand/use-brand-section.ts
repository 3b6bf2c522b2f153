import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '#client/lib/api-client.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import type { BrandAnswer } from '#common/site-brand.ts';

/** What every section of the brand page is given: the answer in force, and what to do once saved. */
export interface SectionProps {
  answer: BrandAnswer;
  /** Takes the new answer and announces, in the page's live region, that the site shows it. */
  saved: (answer: BrandAnswer, section: string) => void;
}

/** A field's input id on the brand page, from its config path (`company.email`). */
export const fieldId = (path: string) => `brand-${path.replace(/\./g, '-')}`;

/** The section's field (of `paths`) that a server path (`company.address.0`) concerns. */
const owner = (paths: readonly string[], path: string) =>
  paths.find((name) => path === name || path.startsWith(`${name}.`));

/**
 * One section's saving: one request at a time, errors under the fields they concern with the focus
 * on the first, and any other refusal told in an error toast. `check` runs first, in the browser.
 */
export function useBrandSection(paths: readonly string[], { saved }: Pick<SectionProps, 'saved'>, section: string) {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const errorToast = useErrorToast();
  const [errors, setErrors] = useState<Partial<Record<string, ErrorCode>>>({});
  const [busy, setBusy] = useState(false);
  const sending = useRef(false);
  const focusFirst = useRef(false);

  // Once the messages are drawn (and linked to their inputs), the first field in error takes the focus.
  useEffect(() => {
    if (!focusFirst.current) return;
    focusFirst.current = false;
    const first = paths.find((path) => errors[path]);
    if (first) document.getElementById(fieldId(first))?.focus();
  }, [errors, paths]);

  const show = (found: Partial<Record<string, ErrorCode>>) => {
    focusFirst.current = true;
    setErrors(found);
  };

  const save = async (
    send: () => Promise<ApiResult<BrandAnswer>>,
    check: () => Partial<Record<string, ErrorCode>> = () => ({}),
  ) => {
    if (sending.current) return;
    const local = check();
    if (Object.keys(local).length > 0) return show(local);
    sending.current = true;
    setBusy(true);
    const result = await send();
    sending.current = false;
    setBusy(false);
    if (result.ok) {
      setErrors({});
      return saved(result.data, section);
    }
    const found: Partial<Record<string, ErrorCode>> = {};
    for (const [path, code] of Object.entries(result.fields ?? {})) {
      const field = owner(paths, path);
      if (field && code) found[field] ??= code;
    }
    if (Object.keys(found).length > 0) show(found);
    else void errorToast(result.code);
  };

  /** The message under a field: the error's own text, or for a value config.json would refuse, a pointer to the hint. */
  const message = (path: string): string | undefined => {
    const code = errors[path];
    if (!code) return undefined;
    return code === 'INVALID_REQUEST' || code === 'VALIDATION_ERROR' ? t('brand.fieldInvalid') : te(code);
  };

  return { save, busy, message, clear: (path: string) => setErrors((now) => ({ ...now, [path]: undefined })) };
}
