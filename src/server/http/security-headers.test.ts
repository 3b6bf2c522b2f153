import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineCodeOf } from './security-headers.ts';

const hashOf = (code: string) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`;

const CONFIG = 'window.__SITE_CONFIG__={}';
const LOADER = 'import("/assets/app.js")';
const CRITICAL = 'body{margin:0}';
const PALETTE = ':root{--accent:#0f766e}';
const page = `<!doctype html><html><head><style>${CRITICAL}</style><style data-brand>${PALETTE}</style>
<script>${CONFIG}</script><script type="application/json" id="boot-data">{"a":1}</script>
<script type="application/ld+json">{"@type":"WebSite"}</script><script type="module" src="/assets/app.js"></script>
</head><body><script>${LOADER}</script></body></html>`;

describe('inlineCodeOf', () => {
  it('names the inline scripts that run and the inline styles a page carries, in its order', () => {
    const allowed = { scripts: [LOADER, CONFIG, 'other()'].map(hashOf), styles: [PALETTE, CRITICAL].map(hashOf) };
    expect(inlineCodeOf(page, allowed)).toEqual({
      scripts: [hashOf(CONFIG), hashOf(LOADER)],
      styles: [hashOf(CRITICAL), hashOf(PALETTE)],
    });
  });

  it('leaves out inline code the renderer did not make, so that the policy refuses it', () => {
    const slipped = page.replace('</body>', '<script>alert(1)</script><style>*{display:none}</style></body>');
    const allowed = { scripts: [CONFIG].map(hashOf), styles: [CRITICAL].map(hashOf) };
    expect(inlineCodeOf(slipped, allowed)).toEqual({ scripts: [hashOf(CONFIG)], styles: [hashOf(CRITICAL)] });
  });

  it('names a piece of code once however often it appears', () => {
    const twice = `<style>${CRITICAL}</style><style>${CRITICAL}</style>`;
    expect(inlineCodeOf(twice, { scripts: [], styles: [hashOf(CRITICAL)] }).styles).toEqual([hashOf(CRITICAL)]);
  });
});

describe('contentSecurityPolicy', () => {
  it('allows the hashes it is given and, without them, no inline code at all', () => {
    const policy = contentSecurityPolicy({ scripts: ["'sha256-a'"], styles: ["'sha256-b'", "'sha256-c'"] });
    expect(policy).toContain("script-src 'self' 'sha256-a';");
    expect(policy).toContain("style-src 'self' 'sha256-b' 'sha256-c';");
    expect(contentSecurityPolicy()).toContain("script-src 'self'; style-src 'self';");
    expect(contentSecurityPolicy()).not.toContain('unsafe-inline');
  });
});
