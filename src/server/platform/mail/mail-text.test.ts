import { describe, expect, it } from 'vitest';
import { escapeHtml } from '#common/html.ts';
import { fill, headerSafe, quoted } from './mail-text.ts';

describe('mail text', () => {
  it('never lets a line break or control character into a header', () => {
    expect(headerSafe('Hello\r\nBcc: victim@example.com')).toBe('Hello Bcc: victim@example.com');
    expect(headerSafe('a\nb\rc\u0000d\u2028e\u0085f\tg')).toBe('a b c d e f g');
    expect(headerSafe('  lots   of\n\n space ')).toBe('lots of space');
    expect([...headerSafe('🙂'.repeat(300))]).toHaveLength(200);
  });

  it('escapes markup and fills only the placeholders of the template', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;',
    );
    expect(fill('Hello {{name}}, {{missing}}', { name: '{{siteName}}' })).toBe('Hello {{siteName}}, {{missing}}');
  });

  it('quotes every line', () => {
    expect(quoted('one\n\ntwo')).toBe('> one\n>\n> two');
  });
});
