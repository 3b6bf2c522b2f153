import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorCode } from '#common/error-codes.ts';
import type { BrandAnswer, BrandChange } from '#common/site-brand.ts';
import { type ConsoleSettable, SAFEGUARDS } from '#common/site-config.ts';
import { BrandField } from './BrandField.tsx';
import { changeBrand } from './brand-api.ts';
import { SectionActions } from './SectionActions.tsx';
import { fieldId, type SectionProps, useBrandSection } from './use-brand-section.ts';

/** The legal facts the console sets, by config path, in the order the page shows them, grouped. */
const GROUPS = {
  company: [
    'company.legalName',
    'company.address',
    'company.country',
    'company.email',
    'company.phone',
    'company.representatives',
    'company.register',
    'company.vatId',
  ],
  authority: ['company.supervisoryAuthority.name', 'company.supervisoryAuthority.url'],
  hosting: ['services.hosting.name', 'services.hosting.country', 'services.hosting.safeguard'],
  retention: ['retention.serverLogDays', 'retention.backupDays'],
} as const;
type Group = keyof typeof GROUPS;
type Path = (typeof GROUPS)[Group][number];
const PATHS = Object.values(GROUPS).flat() as Path[];
/** Entered one per line. */
const LINES = new Set<Path>(['company.address', 'company.representatives']);
const DAYS = new Set<Path>(['retention.serverLogDays', 'retention.backupDays']);
const INPUT: Partial<Record<Path, { type: string; inputMode?: 'numeric' | 'email' | 'tel' | 'url' }>> = {
  'company.email': { type: 'email' },
  'company.phone': { type: 'tel' },
  'company.supervisoryAuthority.url': { type: 'url' },
  'retention.serverLogDays': { type: 'text', inputMode: 'numeric' },
  'retention.backupDays': { type: 'text', inputMode: 'numeric' },
};

const partOf = (path: Path) => path.split('.')[0] as ConsoleSettable;
/** A path as the key of its texts (`company.email` → `company_email`): dots would nest. */
type Snake<S extends string> = S extends `${infer A}.${infer B}` ? `${A}_${Snake<B>}` : S;
const textKey = (path: Path) => path.replace(/\./g, '_') as Snake<Path>;

/** A value of the configuration in force as the field shows it: lines one per line, no value as "". */
function shown(config: BrandAnswer['config'], path: Path): string {
  let value: unknown = config;
  for (const key of path.split('.')) value = (value as Record<string, unknown> | null)?.[key];
  if (Array.isArray(value)) return value.join('\n');
  return value === null || value === undefined ? '' : String(value);
}

const lines = (value: string) =>
  value
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
const days = (value: string) => (value.trim() === '' ? null : Number(value.trim()));

/**
 * The legal facts the pages state (imprint, privacy policy, terms): who runs the site, the
 * supervisory authority, who hosts it and how long logs and backups are kept. Those still missing
 * are marked, as the pages mark their placeholders; parts config.json pins are shown, not changed.
 */
export function LegalSection({ answer, saved, pinned }: SectionProps & { pinned: ConsoleSettable[] }) {
  const { t } = useTranslation('console');
  const title = t('brand.legal.title');
  const section = useBrandSection(PATHS, { saved }, title);
  const [values, setValues] = useState(
    () => Object.fromEntries(PATHS.map((path) => [path, shown(answer.config, path)])) as Record<Path, string>,
  );
  const headingId = useId();
  const labels = t('brand.legal.fields', { returnObjects: true });
  const hints = t('brand.legal.hints', { returnObjects: true });
  const missing = new Set(answer.missing);
  const elsewhere = answer.missing.filter((path) => !(PATHS as string[]).includes(path));
  const open = (['company', 'services', 'retention'] as const).filter((part) => !pinned.includes(part));
  const set = (path: Path, value: string) => {
    setValues((now) => ({ ...now, [path]: value }));
    section.clear(path);
  };

  const change = (): BrandChange => {
    const v = values;
    const all: BrandChange = {
      company: {
        legalName: v['company.legalName'].trim(),
        address: lines(v['company.address']),
        country: v['company.country'].trim().toUpperCase(),
        email: v['company.email'].trim(),
        phone: v['company.phone'].trim(),
        representatives: lines(v['company.representatives']),
        register: v['company.register'].trim(),
        vatId: v['company.vatId'].trim(),
        supervisoryAuthority: {
          name: v['company.supervisoryAuthority.name'].trim(),
          url: v['company.supervisoryAuthority.url'].trim(),
        },
      },
      services: {
        hosting: {
          name: v['services.hosting.name'].trim(),
          country: v['services.hosting.country'].trim().toUpperCase(),
          safeguard: (v['services.hosting.safeguard'] || null) as (typeof SAFEGUARDS)[number] | null,
        },
      },
      retention: { serverLogDays: days(v['retention.serverLogDays']), backupDays: days(v['retention.backupDays']) },
    };
    return Object.fromEntries(open.map((part) => [part, all[part]]));
  };

  // Days are whole numbers; the server checks everything else as config.json is checked.
  const check = () => {
    const found: Partial<Record<string, ErrorCode>> = {};
    for (const path of DAYS) {
      const value = days(values[path]);
      if (value !== null && !(Number.isInteger(value) && value >= 0 && value <= 36_500))
        found[path] = 'VALIDATION_ERROR';
    }
    return found;
  };

  const field = (path: Path) => {
    const readOnly = pinned.includes(partOf(path));
    const label = labels[textKey(path)];
    const hint = (hints as Partial<Record<Snake<Path>, string>>)[textKey(path)];
    if (path === 'services.hosting.safeguard') {
      const id = fieldId(path);
      const error = section.message(path);
      const described = [`${id}-hint`, missing.has(path) && `${id}-missing`, error && `${id}-error`].filter(Boolean);
      return (
        <div key={path} className={`field brand-field${error ? ' field--invalid' : ''}`}>
          <label htmlFor={id}>
            {label}
            {missing.has(path) && (
              <span className="field__required" aria-hidden="true">
                {' '}
                *
              </span>
            )}
          </label>
          <div className="field__control">
            <select
              id={id}
              value={values[path]}
              disabled={readOnly}
              aria-invalid={error ? true : undefined}
              aria-required={missing.has(path) || undefined}
              aria-describedby={described.join(' ')}
              onChange={(event) => set(path, event.target.value)}
            >
              <option value="">{t('brand.legal.safeguards.none')}</option>
              {SAFEGUARDS.map((safeguard) => (
                <option key={safeguard} value={safeguard}>
                  {t(`brand.legal.safeguards.${safeguard}`)}
                </option>
              ))}
            </select>
          </div>
          <p id={`${id}-hint`} className="field__hint">
            {hint}
          </p>
          {missing.has(path) && (
            <p id={`${id}-missing`} className="brand-field__missing">
              {t('brand.legal.missingField')}
            </p>
          )}
          {error && (
            <p id={`${id}-error`} className="field__error">
              {error}
            </p>
          )}
        </div>
      );
    }
    return (
      <BrandField
        key={path}
        id={fieldId(path)}
        label={label}
        hint={hint}
        value={values[path]}
        lines={LINES.has(path)}
        type={INPUT[path]?.type}
        inputMode={INPUT[path]?.inputMode}
        missing={missing.has(path)}
        readOnly={readOnly}
        error={section.message(path)}
        onChange={(next) => set(path, next)}
      />
    );
  };

  return (
    <section className="brand-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="brand-section__help">{t('brand.legal.help')}</p>
      <p className={answer.missing.length > 0 ? 'brand-legal__missing' : 'brand-legal__complete'}>
        {answer.missing.length > 0
          ? t('brand.legal.missingCount', { count: answer.missing.length })
          : t('brand.legal.complete')}
      </p>
      {elsewhere.length > 0 && (
        <p className="brand-section__help">
          {t('brand.legal.missingElsewhere')} <code>{elsewhere.join(', ')}</code>
        </p>
      )}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void section.save(() => changeBrand(change()), check);
        }}
      >
        {(Object.keys(GROUPS) as Group[]).map((group) => (
          <fieldset key={group} className="brand-section__group">
            <legend>{t(`brand.legal.groups.${group}`)}</legend>
            {pinned.includes(partOf(GROUPS[group][0])) && (
              <p className="brand-section__pinned">{t('brand.pinnedPart')}</p>
            )}
            <div className="brand-grid">{GROUPS[group].map(field)}</div>
          </fieldset>
        ))}
        {open.length > 0 && <SectionActions busy={section.busy} save={t('brand.legal.save')} />}
      </form>
    </section>
  );
}
