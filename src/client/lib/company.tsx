import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '#client/lib/address.tsx';
import { countryName } from '#client/lib/formats.ts';
import type { Company } from '#common/site-config.ts';
import './company.css';

/**
 * The company's details as the legal pages, contact and about show them, from the site
 * configuration. A required fact the configuration leaves out shows as a marked placeholder, so a
 * deployment that forgot it cannot miss it; optional ones are left out. Texts are in `legal`.
 */

export type UnsetFact =
  | 'legalName'
  | 'address'
  | 'country'
  | 'email'
  | 'authority'
  | 'provider'
  | 'safeguard'
  | 'period';

/** The placeholder of a missing fact, marked so that it stands out on the page. */
export function Unset({ fact }: { fact: UnsetFact }) {
  const { t } = useTranslation('legal');
  return <span className="unset">{t(`unset.${fact}`)}</span>;
}

/** A configured value, or the placeholder of the fact it stands for. */
export function OrUnset({ value, fact }: { value: string | null | undefined; fact: UnsetFact }) {
  return value ? value : <Unset fact={fact} />;
}

/** For values inside a sentence: the text, or the placeholder's text (its brackets mark it). */
export function useOrUnsetText(): (value: string | null | undefined, fact: UnsetFact) => string {
  const { t } = useTranslation('legal');
  return (value, fact) => value || t(`unset.${fact}`);
}

export function useCountry(): (code: string) => string {
  const lang = useLanguage();
  const orUnset = useOrUnsetText();
  return (code) => (code ? countryName(lang, code) : orUnset('', 'country'));
}

/** Lines separated by line breaks. */
function Lines({ lines }: { lines: ReactNode[] }) {
  return lines.map((line, index) => (
    <span key={index}>
      {index > 0 && <br />}
      {line}
    </span>
  ));
}

/** Name, address lines and country as a postal address. */
export function PostalAddress(props: { name: string; address: string[]; country: string; nameFact?: UnsetFact }) {
  const country = useCountry();
  return (
    <address className="postal-address">
      <Lines
        lines={[
          <strong key="name">
            <OrUnset value={props.name} fact={props.nameFact ?? 'legalName'} />
          </strong>,
          ...(props.address.length > 0 ? props.address : [<Unset key="address" fact="address" />]),
          props.country ? country(props.country) : <Unset key="country" fact="country" />,
        ]}
      />
    </address>
  );
}

export function EmailLink({ email }: { email: string }) {
  return email ? <a href={`mailto:${email}`}>{email}</a> : <Unset fact="email" />;
}

export function PhoneLink({ phone }: { phone: string }) {
  return <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>;
}

/** Label and value pairs; rows without a value are left out. */
export function Details({ rows }: { rows: [label: string, value: ReactNode | null | false][] }) {
  return (
    <dl className="details">
      {rows
        .filter(([, value]) => value !== null && value !== false && value !== '')
        .map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
    </dl>
  );
}

/** Who runs the site and how to reach them: the imprint's and the privacy policy's first block. */
export function CompanyContact({ company }: { company: Company }) {
  const { t } = useTranslation('legal');
  return (
    <>
      <PostalAddress name={company.legalName} address={company.address} country={company.country} />
      <Details
        rows={[
          [t('labels.email'), <EmailLink key="email" email={company.email} />],
          [t('labels.phone'), company.phone && <PhoneLink phone={company.phone} />],
        ]}
      />
    </>
  );
}
