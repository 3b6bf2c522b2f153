import { describe, expect, it } from 'vitest';
import type { SavedReply } from './chat-desk-api.ts';
import { matchingReplies, savedReplyText, typedShortcut } from './saved-replies.ts';

const reply = (shortcut: string, texts: SavedReply['texts']): SavedReply => ({ id: 1, shortcut, texts });

describe('saved replies', () => {
  const hours = reply('hours', {
    en: 'Hello {{name}}, we are open 9 to 5.',
    th: 'สวัสดีค่ะ คุณ{{name}} เราเปิด 9.00–17.00 น.',
    de: 'Hallo {{ name }}, wir haben von 9 bis 17 Uhr offen.',
  });

  it("takes the conversation's language and fills in the visitor's name", () => {
    expect(savedReplyText(hours, 'th', 'สมชาย')).toEqual({
      text: 'สวัสดีค่ะ คุณสมชาย เราเปิด 9.00–17.00 น.',
      language: 'th',
    });
    expect(savedReplyText(hours, 'de', 'Erika')).toEqual({
      text: 'Hallo Erika, wir haben von 9 bis 17 Uhr offen.',
      language: 'de',
    });
  });

  it('leaves the name out when it is unknown, and falls back to English, then to any text', () => {
    expect(savedReplyText(hours, 'en', null)?.text).toBe('Hello, we are open 9 to 5.');
    expect(savedReplyText(hours, 'fr', null)).toEqual({ text: 'Hello, we are open 9 to 5.', language: 'en' });
    expect(savedReplyText(reply('x', { nl: 'Dag {{name}}!' }), 'it', 'Anna')).toEqual({
      text: 'Dag Anna!',
      language: 'nl',
    });
    expect(savedReplyText(reply('x', {}), 'en', null)).toBeNull();
  });

  it('finds the shortcut being typed before the caret, and the replies it matches', () => {
    expect(typedShortcut('/ho', 3)).toEqual({ query: 'ho', start: 0 });
    expect(typedShortcut('Thanks! /Ret', 12)).toEqual({ query: 'ret', start: 8 });
    expect(typedShortcut('/', 1)).toEqual({ query: '', start: 0 });
    expect(typedShortcut('a/b', 3)).toBeNull();
    expect(typedShortcut('/ho more', 8)).toBeNull();
    const replies = [reply('refund', {}), reply('hours', {}), reply('shop-hours', {})];
    expect(matchingReplies(replies, 'hou').map((r) => r.shortcut)).toEqual(['hours', 'shop-hours']);
    expect(matchingReplies(replies, '').map((r) => r.shortcut)).toEqual(['refund', 'hours', 'shop-hours']);
  });
});
