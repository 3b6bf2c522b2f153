import { useCallback, useRef, useState } from 'react';
import type { ApiResult } from '#client/lib/api-client.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import {
  fieldVerdict,
  importRules,
  placeFailure,
  type Rules,
  ruleError,
  sendAsVisitor,
  type Value,
} from './form-state.ts';

export interface FieldState {
  id: string;
  name: string;
  value: Value;
  /** The code of the message to show; only once the field was touched, or the server said so. */
  error: ErrorCode | undefined;
  /** Touched, not empty and valid: the field shows its success tick. */
  valid: boolean;
  onChange(value: Value): void;
  onFocus(): void;
  onBlur(): void;
}

// Whether a mouse button or finger is down. A field left by pressing a button (submit, show
// password) shows its message only once the press is over: a message appearing under the pointer
// would push the button away before the click lands.
let pressing = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (pressing = true), true);
  document.addEventListener('pointerup', () => setTimeout(() => (pressing = false)), true);
}
const afterPress = (then: () => void) => {
  if (pressing) document.addEventListener('pointerup', () => setTimeout(then), { once: true, capture: true });
  else then();
};

/**
 * A form's rules, or a function that imports them: the shared schemas are zod, which a page does not
 * need to hydrate or to take the first keystroke, only to judge a field that was left.
 */
export type RulesSource<V> = Rules<V> | (() => Promise<Rules<V>>);

/**
 * The form's rules: at once when given, else imported when a field is first entered (the visitor is
 * about to type; setting up zod is work the page's load need not do), left, or the form is sent.
 * `load` resolves with them.
 */
function useRules<V>(source: RulesSource<V>) {
  const [rules, setRules] = useState<Rules<V> | null>(typeof source === 'function' ? null : source);
  const load = useCallback((): Promise<Rules<V>> => {
    if (typeof source !== 'function') return Promise.resolve(source);
    return importRules(source).then((loaded) => {
      setRules(() => loaded);
      return loaded;
    });
  }, [source]);
  return { rules, load };
}

interface FormOptions<V> {
  /** Codes that belong under a field although the server sends them for the whole request. */
  codeFields?: Partial<Record<ErrorCode, keyof V & string>>;
  /**
   * The form's calls take the visitor identifier (the account calls): each waits for it, starting
   * it if need be, and one the server refuses is replaced once before the call is made again.
   */
  visitor?: boolean;
}

/**
 * A form's values and the specification specification §5 behaviour of its fields: rules from the shared schemas, each message
 * shown once its field was touched (or the form submitted), server answers mapped onto the fields
 * they concern, focus moved to the first field in error, and anything else told in an error toast.
 */
export function useForm<V extends Record<string, Value>>(
  formId: string,
  initial: V,
  rulesSource: RulesSource<V>,
  options: FormOptions<V> = {},
) {
  const errorToast = useErrorToast();
  const { rules, load: loadRules } = useRules(rulesSource);
  const [values, setValues] = useState<V>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof V, boolean>>>({});
  const [fromServer, setFromServer] = useState<Partial<Record<keyof V, ErrorCode>>>({});
  const [busy, setBusy] = useState(false);
  // One request at a time, from the click on: `busy` only shows once React has rendered it.
  const sending = useRef(false);
  const names = Object.keys(initial) as (keyof V & string)[];

  const idOf = (name: string) => `${formId}-${name}`;
  const focus = (name: string) => document.getElementById(idOf(name))?.focus();

  const field = (name: keyof V & string): FieldState => ({
    id: idOf(name),
    name,
    value: values[name] as Value,
    ...fieldVerdict(name, values, touched, fromServer, rules),
    onChange: (value) => {
      setValues((current) => ({ ...current, [name]: value }));
      setFromServer((current) => ({ ...current, [name]: undefined }));
    },
    onFocus: () => {
      if (!rules) void loadRules().catch(() => {});
    },
    onBlur: () => {
      void loadRules().catch(() => {});
      afterPress(() => setTouched((current) => ({ ...current, [name]: true })));
    },
  });

  /** Shows what went wrong: under the fields it concerns (focusing the first), or in a toast. */
  const showFailure = (failure: Extract<ApiResult<unknown>, { ok: false }>) => {
    const { fields, first } = placeFailure<V>(failure, names, options.codeFields);
    if (first) {
      setFromServer(fields);
      focus(first);
    } else {
      void errorToast(failure);
    }
  };

  /**
   * Checks the named fields (marking them touched), then runs `send` with the values unless one of
   * them is in error, in which case the first gets the focus. One request at a time.
   */
  const action =
    (checked: readonly (keyof V & string)[], send: (values: V) => Promise<ApiResult<unknown> | undefined>) =>
    async () => {
      if (sending.current) return;
      sending.current = true;
      setTouched((current) => ({ ...current, ...Object.fromEntries(checked.map((name) => [name, true])) }));
      try {
        // Rules not here yet (a form sent at once) are waited for; if they cannot be fetched, the
        // server, which checks the same rules, answers for them.
        const loaded = rules ?? (await loadRules().catch(() => null));
        const invalid = checked.find((name) => fromServer[name] ?? ruleError(loaded, name, values));
        if (invalid) {
          focus(invalid);
          return;
        }
        setBusy(true);
        let result: ApiResult<unknown> | undefined;
        if (options.visitor) {
          // Imported when a form that needs the identifier is sent, not with the form.
          const visitor = await import('#client/features/visitor/index.ts');
          result = await sendAsVisitor(visitor, () => send(values));
        } else {
          result = await send(values);
        }
        if (result && !result.ok) showFailure(result);
      } finally {
        sending.current = false;
        setBusy(false);
      }
    };

  /** The form's own submission: every field is checked. */
  const submit = (send: (values: V) => Promise<ApiResult<unknown> | undefined>) => action(names, send);

  return {
    values,
    field,
    submit,
    action,
    busy,
    focus,
    set: (name: keyof V & string, value: Value) => field(name).onChange(value),
  };
}
