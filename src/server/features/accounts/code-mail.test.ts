import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '#common/site-config.ts';
import { readTexts } from '#server/platform/site-config.ts';
import { codeMail } from './code-mail.ts';

const texts = await readTexts();
const to = (language: 'en' | 'it' | 'th') => ({ email: 'ada@example.com', name: 'Ada', language });

describe('code mail', () => {
  it('says how long the code lasts in the plural form its language needs', () => {
    expect(codeMail(DEFAULT_SITE_CONFIG, texts, 'verify', to('en'), '123456', 1).text).toContain(
      'valid for 1 minute and',
    );
    expect(codeMail(DEFAULT_SITE_CONFIG, texts, 'verify', to('en'), '123456', 10).text).toContain(
      'valid for 10 minutes and',
    );
    expect(codeMail(DEFAULT_SITE_CONFIG, texts, 'reset', to('it'), '123456', 1).text).toContain('valido per 1 minuto');
    expect(codeMail(DEFAULT_SITE_CONFIG, texts, 'reset', to('th'), '123456', 10).text).toContain('ใช้ได้ 10 นาที');
  });
});
