import { describe, expect, it } from 'vitest';
import { renderDocument } from '#client/app/entry-prerender.tsx';
import { LANGUAGES, type Language } from '#common/languages.ts';
import { LEGAL_TEXTS_UPDATED } from '#common/legal-facts.ts';
import { REAUTHENTICATION_MINUTES } from '#common/reauthentication-api.ts';
import { RETENTION } from '#common/retention.ts';
import { type PageId, pagePath } from '#common/routes.ts';
import type { SiteConfig } from '#common/site-config.ts';
import { parseSiteConfig } from '#common/site-config-parse.ts';
import { readTexts } from '#server/platform/site-config.ts';

const assets = { styles: [], entry: '/assets/entry.js', preloads: [] };
const unconfigured = parseSiteConfig({});
const configured = parseSiteConfig({
  brand: { siteName: 'Acme', domain: 'acme.example' },
  company: {
    legalName: 'Acme GmbH',
    address: ['Hauptstraße 1', '10115 Berlin'],
    country: 'DE',
    email: 'privacy@acme.example',
    phone: '+49 30 1234567',
    representatives: ['Ada Lovelace', 'Grace Hopper'],
    register: 'Amtsgericht Charlottenburg, HRB 123456',
    vatId: 'DE123456789',
    dataProtectionOfficer: { name: 'Dana Schutz', email: 'dpo@acme.example' },
    supervisoryAuthority: { name: 'Berliner Beauftragte für Datenschutz', url: 'https://www.datenschutz-berlin.de' },
  },
  services: {
    hosting: { name: 'Host AG', country: 'DE' },
    mail: { name: 'Mail Inc.', country: 'US', safeguard: 'scc' },
    posthog: { name: 'PostHog Inc.', country: 'DE', retentionDays: 730 },
  },
  retention: { serverLogDays: 14, backupDays: 30 },
});
const texts = await readTexts(configured.brand);

/** The visible text of a page as the build writes it, one line per block. */
async function pageText(page: PageId, language: Language, site: SiteConfig) {
  const html = await renderDocument({
    path: pagePath(language, page),
    page,
    language,
    resources: await readTexts(site.brand),
    site,
    assets,
  });
  const body = html.slice(html.indexOf('<main'), html.indexOf('</main>'));
  return {
    html: body,
    text: body
      .replace(/<(br|\/p|\/h\d|\/li|\/tr|\/td|\/th|\/dt|\/dd|\/address)[^>]*>/g, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/&amp;/g, '&')
      .replace(/&#x27;|&#39;/g, "'"),
  };
}

const en = texts.en as Record<string, Record<string, unknown>>;
const legalEn = en.legal as { unset: Record<string, string> };

describe('the privacy policy', () => {
  it('names the configured company, recipients, transfers and periods, and nothing unconfigured', async () => {
    const { html, text } = await pageText('privacy', 'en', configured);
    expect(html).not.toContain('class="unset"');
    expect(text).toContain('Acme GmbH\nHauptstraße 1\n10115 Berlin\nGermany');
    expect(text).toContain('Dana Schutz');
    expect(text).toMatch(/Host AG \(Germany\): runs the servers of this site and its database/);
    expect(text).toMatch(/Mail Inc\. \(United States\): delivers our mail/);
    expect(text).toMatch(/PostHog Inc\. \(Germany\): analytics, only with your consent/);
    expect(text).toMatch(/Mail Inc\. \(United States\): the European Commission’s standard contractual clauses/);
    expect(text).toContain('passes everything the script sends on to PostHog Inc. (Germany)');
    expect(text).toContain('keeps the data for 2 years');
    expect(text).toContain(`retried for ${RETENTION.mailDeliveryDays} days`);
    expect(text).not.toContain('outbox');
    expect(text).toContain('No monitoring service is set up');
    expect(text).toContain('Server logs\n14 days');
    expect(text).toContain('Backups of our database\n30 days');
    expect(text).toContain(`after ${RETENTION.sessionIdleDays} days without use`);
    // The contact form: what it keeps, that spam goes sooner, and its row in the retention table.
    expect(text).toContain('you receive no confirmation email');
    expect(text).toContain(`deleted after ${RETENTION.spamMessageDays} days`);
    expect(text).toContain(`Messages taken for spam\n${RETENTION.spamMessageDays} days`);
    expect(text).toContain('write to privacy@acme.example');
    expect(html).toContain('<a href="https://www.datenschutz-berlin.de">Berliner Beauftragte für Datenschutz</a>');
    for (const right of ['Art. 15', 'Art. 16', 'Art. 17', 'Art. 18', 'Art. 20', 'Art. 21', 'Art. 7(3)', 'Art. 22']) {
      expect(text).toContain(right);
    }
  });

  it('says that a session keeps when it was confirmed again at the sign-in service, and for how long, in every language', async () => {
    // Above one, every language takes its `_other` form, the one read from the texts below.
    expect(REAUTHENTICATION_MINUTES).toBeGreaterThan(1);
    for (const language of LANGUAGES) {
      const privacy = texts[language]?.privacy as { sections: { account: Record<string, string> } };
      const said = privacy.sections.account.reauthentication_other?.replace(
        '{{count}}',
        String(REAUTHENTICATION_MINUTES),
      );
      expect(said, language).toContain(String(REAUTHENTICATION_MINUTES));
      expect((await pageText('privacy', language, configured)).text, language).toContain(said);
    }
    expect((await pageText('privacy', 'en', configured)).text).toContain(
      `your session records when you did so. For ${REAUTHENTICATION_MINUTES} minutes that confirmation takes the place of your password`,
    );
  });

  it('marks every missing fact, and names no service that is not configured', async () => {
    const { html, text } = await pageText('privacy', 'en', unconfigured);
    for (const fact of ['legalName', 'address', 'country', 'email', 'authority', 'provider', 'period']) {
      expect(html, fact).toContain(`<span class="unset">${legalEn.unset[fact]}</span>`);
    }
    expect(text).not.toContain('analytics, only with your consent');
    expect(text).not.toContain('delivers our mail');
    expect(text).toContain(`It deletes these events after ${RETENTION.analyticsDays} days.`);
    expect(text).toContain(`written to our server’s log, where we can read it, for ${RETENTION.mailOutboxDays} days`);
  });

  it('says whether the identifier waits for consent, as the privacy option decides', async () => {
    const always = (await pageText('privacy', 'en', configured)).text;
    const option = (await pageText('privacy', 'en', { ...configured, privacy: { fingerprintAfterConsent: true } }))
      .text;
    expect(always).toContain('This happens without asking you first');
    expect(option).toContain('if you withdraw your consent, the _fpid cookie is deleted');
    expect(option).not.toContain('This happens without asking you first');
  });

  it('dates itself in each language’s own way, Thai in the Buddhist era', async () => {
    const year = Number(LEGAL_TEXTS_UPDATED.slice(0, 4));
    const day = Number(LEGAL_TEXTS_UPDATED.slice(8, 10));
    expect((await pageText('privacy', 'th', configured)).text).toContain(`ปรับปรุงล่าสุด: ${day} พฤศจิกายน ${year + 543}`);
    expect((await pageText('privacy', 'de', configured)).text).toContain(`Stand: ${day}. November ${year}`);
    expect((await pageText('terms', 'en', configured)).text).toContain(`Last updated: November ${day}, ${year}`);
  });
});

describe('the imprint', () => {
  it('gives who provides the site in German usage', async () => {
    const { html, text } = await pageText('imprint', 'de', configured);
    expect(text).toContain('Impressum');
    expect(text).toContain('Acme GmbH\nHauptstraße 1\n10115 Berlin\nDeutschland');
    expect(text).toContain('Vertreten durch\nAda Lovelace, Grace Hopper');
    expect(text).toContain('Registereintrag\nAmtsgericht Charlottenburg, HRB 123456');
    expect(text).toContain('Umsatzsteuer-Identifikationsnummer\nDE123456789');
    expect(html).toContain('href="tel:+49301234567"');
    expect(html).not.toContain('class="unset"');
  });

  it('marks what a deployment has not filled in', async () => {
    const { html } = await pageText('imprint', 'fr', unconfigured);
    expect(html).toContain('<span class="unset">[raison sociale non configurée]</span>');
  });
});

describe('the terms', () => {
  it('name the provider, the minimum age, the notice before changes and the law', async () => {
    const { text } = await pageText('terms', 'en', configured);
    expect(text).toContain('a site provided by Acme GmbH');
    expect(text).toContain('at least 16 years old');
    expect(text).toContain('injury to life, body or health');
    expect(text).toContain('at least 30 days before a change takes effect');
    expect(text).toContain('where Acme GmbH is established (Germany)');
  });
});

describe('the cookie policy', () => {
  it('states the session’s lifetimes from the retention constants', async () => {
    const { text } = await pageText('cookies', 'nl', configured);
    expect(text).toContain(
      `na ${RETENTION.sessionIdleDays} dagen zonder gebruik en uiterlijk na ${RETENTION.sessionDays} dagen`,
    );
  });
});
