import { describe, expect, it } from 'vitest';
import { relyingParty } from './relying-party.ts';

describe('relying party', () => {
  it('is the public host of siteUrl, whatever host the request came to', () => {
    expect(relyingParty('https://www.example.com/', 'Example')).toEqual({
      id: 'www.example.com',
      origins: ['https://www.example.com'],
      name: 'Example',
    });
    expect(relyingParty('https://example.com:8443', 'Example').origins).toEqual(['https://example.com:8443']);
  });

  it('is localhost for a server on a loopback address, which a browser opens by that name', () => {
    expect(relyingParty('http://127.0.0.1:4400', 'Example')).toMatchObject({
      id: 'localhost',
      origins: ['http://127.0.0.1:4400', 'http://localhost:4400'],
    });
    expect(relyingParty('http://[::1]:3000', 'Example').origins).toEqual([
      'http://[::1]:3000',
      'http://localhost:3000',
    ]);
    expect(relyingParty('http://localhost:3000', 'Example').origins).toEqual(['http://localhost:3000']);
  });

  it('keeps a private address that is not loopback as it is', () => {
    expect(relyingParty('http://192.168.1.5:3000', 'Example').id).toBe('192.168.1.5');
  });
});
