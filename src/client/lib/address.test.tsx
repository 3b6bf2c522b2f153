import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type Address,
  BrowserAddress,
  followAddress,
  isPlainClick,
  navigate,
  readAddress,
  StateLink,
  StaticAddress,
  useAddress,
  useLanguage,
  useOptionalAddress,
} from './address.tsx';

/**
 * The browser's window as far as the address module uses it: an event target with a location and a
 * history whose entries keep their state, as pushState and replaceState do.
 */
function browserAt(url: string, state: unknown = null) {
  const window = new EventTarget() as EventTarget & { location: URL; history: Pick<History, 'state'> & object };
  const entries = [{ url: new URL(url, 'https://example.com'), state }];
  let at = 0;
  const go = (index: number) => {
    at = index;
    window.location = entries[at]?.url as URL;
  };
  const history = {
    get state() {
      return entries[at]?.state ?? null;
    },
    pushState: vi.fn((entry: unknown, _unused: string, to: string) => {
      entries.splice(at + 1, entries.length, { url: new URL(to, window.location), state: entry });
      go(at + 1);
    }),
    replaceState: vi.fn((entry: unknown, _unused: string, to: string) => {
      entries[at] = { url: new URL(to, window.location), state: entry };
      go(at);
    }),
    /** Back, as the browser does it: the address changes, then popstate. */
    back() {
      go(at - 1);
      window.dispatchEvent(new Event('popstate'));
    },
  };
  window.history = history;
  go(0);
  vi.stubGlobal('window', window);
  return history;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** What a component inside the address sees. */
function Shows() {
  const address = useAddress();
  return (
    <output>
      {useLanguage()} {address.pathname}
      {address.search}
      {address.hash} {address.type} {address.key} {JSON.stringify(address.state)}
    </output>
  );
}
const text = (html: string) => html.replace(/<[^>]+>|<!-- -->/g, '').replaceAll('&quot;', '"');

describe('readAddress', () => {
  it('reads the address as loaded: no key of a navigation, no state', () => {
    browserAt('/en/contact?topic=chat#form');
    expect(readAddress('pop')).toEqual({
      pathname: '/en/contact',
      search: '?topic=chat',
      hash: '#form',
      state: null,
      type: 'pop',
      key: 'default',
    });
  });

  it('reads the key and state a navigation left in the history entry', () => {
    browserAt('/it/login', { key: 'k1', state: { email: 'ada@example.com' } });
    expect(readAddress('push')).toMatchObject({ key: 'k1', state: { email: 'ada@example.com' }, type: 'push' });
  });
});

describe('navigate and followAddress', () => {
  it('adds a history entry with a fresh key and the state, and tells the followers', () => {
    const history = browserAt('/en/');
    const seen: Address[] = [];
    const stop = followAddress((address) => seen.push(address));
    navigate('/en/login', { state: { email: 'ada@example.com' } });
    navigate('/en/login');
    expect(history.pushState).toHaveBeenCalledTimes(2);
    expect(seen.map(({ pathname, type, state }) => ({ pathname, type, state }))).toEqual([
      { pathname: '/en/login', type: 'push', state: { email: 'ada@example.com' } },
      { pathname: '/en/login', type: 'push', state: null },
    ]);
    expect(seen[0]?.key).toMatch(/^[a-z0-9]+$/);
    expect(seen[0]?.key).not.toBe('default');
    expect(seen[1]?.key).not.toBe(seen[0]?.key);
    stop();
  });

  it('replaces the entry when asked, which is no new step in the history', () => {
    const history = browserAt('/en/register');
    const seen: Address[] = [];
    const stop = followAddress((address) => seen.push(address));
    navigate('/en/validation', { replace: true });
    expect(history.replaceState).toHaveBeenCalledTimes(1);
    expect(history.pushState).not.toHaveBeenCalled();
    expect(seen.map(({ pathname, type }) => ({ pathname, type }))).toEqual([
      { pathname: '/en/validation', type: 'replace' },
    ]);
    stop();
  });

  it('gives back the key and state of an entry on back', () => {
    const history = browserAt('/en/');
    navigate('/en/login', { state: { email: 'ada@example.com' } });
    const arrived = readAddress('push');
    navigate('/en/register');
    const seen: Address[] = [];
    const stop = followAddress((address) => seen.push(address));
    history.back();
    expect(seen).toEqual([{ ...arrived, type: 'pop' }]);
    stop();
  });

  it('tells nobody once stopped', () => {
    const history = browserAt('/en/');
    const onChange = vi.fn();
    followAddress(onChange)();
    navigate('/en/about');
    history.back();
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('the address in React', () => {
  it('gives a prerendered page its fixed address and the language of its path', () => {
    expect(text(renderToString(<StaticAddress path="/th/about">{<Shows />}</StaticAddress>))).toBe(
      'th /th/about pop default null',
    );
  });

  it('gives the browser’s address as loaded', () => {
    browserAt('/de/contact?x=1#y', { key: 'k2', state: 'kept' });
    expect(text(renderToString(<BrowserAddress>{<Shows />}</BrowserAddress>))).toBe(
      'de /de/contact?x=1#y pop k2 "kept"',
    );
  });

  it('falls back to the default language at an address the page table does not know', () => {
    expect(text(renderToString(<StaticAddress path="/xx/nowhere">{<Shows />}</StaticAddress>))).toMatch(/^en /);
  });

  it('is absent outside the site, and refuses to be used there by what needs it', () => {
    function Optional() {
      return <output>{String(useOptionalAddress())}</output>;
    }
    expect(text(renderToString(<Optional />))).toBe('null');
    expect(() => renderToString(<Shows />)).toThrow('useAddress needs BrowserAddress or StaticAddress above it');
  });
});

describe('links', () => {
  const click = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false, defaultPrevented: false };

  it('follows only a plain click of the main button', () => {
    expect(isPlainClick(click)).toBe(true);
    for (const change of [
      { button: 1 },
      { metaKey: true },
      { ctrlKey: true },
      { shiftKey: true },
      { altKey: true },
      { defaultPrevented: true },
    ]) {
      expect(isPlainClick({ ...click, ...change })).toBe(false);
    }
  });

  it('renders a state link as a plain link, and a plain click on it navigates with the state', () => {
    expect(
      renderToString(
        <StateLink to="/en/login" state={{ email: 'a@b.c' }} className="link">
          Sign in
        </StateLink>,
      ),
    ).toBe('<a class="link" href="/en/login">Sign in</a>');
    const history = browserAt('/en/register');
    const link = StateLink({ to: '/en/login', state: { email: 'a@b.c' }, children: 'Sign in' });
    const onClick = link.props.onClick as (event: typeof click & { preventDefault(): void }) => void;

    const newTab = { ...click, metaKey: true, preventDefault: vi.fn() };
    onClick(newTab);
    expect(newTab.preventDefault).not.toHaveBeenCalled();
    expect(history.pushState).not.toHaveBeenCalled();

    const plain = { ...click, preventDefault: vi.fn() };
    onClick(plain);
    expect(plain.preventDefault).toHaveBeenCalled();
    expect(readAddress('push')).toMatchObject({ pathname: '/en/login', state: { email: 'a@b.c' } });
  });
});
