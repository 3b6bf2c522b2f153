import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLinkNavigation } from '#client/features/navigation/index.ts';
import { navigate } from '#client/lib/address.tsx';
import { callApi } from '#client/lib/api-client.ts';
import { useSiteConfig } from '#client/lib/site-config.tsx';
import { ACCOUNT_API } from '#common/account-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '#common/languages.ts';
import { DESK_ROLES, EDITOR_ROLES, type StaffRole } from '#common/roles.ts';
import { consolePath, isConsolePath } from '#common/routes.ts';
import { type MeAnswer, STAFF_API } from '#common/staff-api.ts';
import { ChatAlerts } from './alerts/ChatAlerts.tsx';
import { signInPath } from './api.ts';
import { InboxPage } from './pages/InboxPage.tsx';
import { type ConsoleRoute, useConsoleRoute } from './route.ts';
import { ConsoleLink, Loading } from './ui.tsx';
import { useTitle } from './use-title.ts';

// Pages past the inbox arrive when first opened; the analytics bring the chart library with them.
const MessagePage = lazy(() => import('./pages/MessagePage.tsx'));
const AnalyticsPage = lazy(() => import('./pages/AnalyticsPage.tsx'));
const StaffPage = lazy(() => import('./pages/StaffPage.tsx'));
const PicturesPage = lazy(() => import('./pages/PicturesPage.tsx'));
const ChatPage = lazy(() => import('./pages/ChatPage.tsx'));
const ChatSettingsPage = lazy(() => import('./pages/ChatSettingsPage.tsx'));
const SearchPage = lazy(() => import('./pages/SearchPage.tsx'));
const SavedRepliesPage = lazy(() => import('./pages/SavedRepliesPage.tsx'));
const BrandPage = lazy(() => import('./pages/BrandPage.tsx'));
const TextsPage = lazy(() => import('./texts/TextsPage.tsx'));
const TextsNamespacePage = lazy(() => import('./texts/TextsNamespacePage.tsx'));
const TextsPublishPage = lazy(() => import('./texts/TextsPublishPage.tsx'));

/** Operators and admins read what visitors write: the inbox, chats, analytics and search. */
const readsVisitors = (me: MeAnswer) => (DESK_ROLES as readonly StaffRole[]).includes(me.role);
/** Editors and admins edit and publish the site's content: its texts and pictures. */
const editsContent = (me: MeAnswer) => (EDITOR_ROLES as readonly StaffRole[]).includes(me.role);
/** Where the console opens for someone: the inbox, or the texts for an editor, who has no inbox. */
const homeOf = (me: MeAnswer) => (readsVisitors(me) ? consolePath('inbox') : consolePath('texts'));

type Gate =
  | { kind: 'checking' }
  | { kind: 'staff'; me: MeAnswer }
  | { kind: 'forbidden' }
  | { kind: 'second-factor' }
  | { kind: 'failed'; code: ErrorCode };

function LanguageChoice() {
  const { t, i18n } = useTranslation('console');
  return (
    <label className="console-language">
      <span>{t('user.language')}</span>
      <select value={i18n.language} onChange={(event) => void i18n.changeLanguage(event.target.value)}>
        {LANGUAGES.map((language: Language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}

function signOut() {
  const language = document.documentElement.lang;
  void callApi(ACCOUNT_API.logout, {}).finally(() => window.location.assign(`/${language}`));
}

function NoAccess() {
  const { t } = useTranslation('console');
  useTitle(t('noAccess.title'));
  return (
    <main id="main" className="console-main console-main--narrow">
      <h1>{t('noAccess.title')}</h1>
      <p>{t('noAccess.text')}</p>
      <p className="actions">
        <a className="button" href={`/${document.documentElement.lang}`}>
          {t('noAccess.home')}
        </a>
        <button type="button" className="button button--secondary" onClick={signOut}>
          {t('noAccess.other')}
        </button>
      </p>
    </main>
  );
}

/** Staff without a second factor: the console sends them to set one up, and gets them back after. */
function SecondFactorFirst() {
  const { t } = useTranslation('console');
  useTitle(t('secondFactor.title'));
  const language = document.documentElement.lang;
  const setUp = `/${language}/account?${new URLSearchParams({ next: window.location.pathname })}#two-factor`;
  return (
    <main id="main" className="console-main console-main--narrow">
      <h1>{t('secondFactor.title')}</h1>
      <p>{t('secondFactor.text')}</p>
      <p className="actions">
        <a className="button" href={setUp}>
          {t('secondFactor.action')}
        </a>
        <button type="button" className="button button--secondary" onClick={signOut}>
          {t('noAccess.other')}
        </button>
      </p>
    </main>
  );
}

function Failed({ code }: { code: ErrorCode }) {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  useTitle(t('failed.title'));
  return (
    <main id="main" className="console-main console-main--narrow">
      <h1>{t('failed.title')}</h1>
      <p>{te(code)}</p>
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          {t('failed.retry')}
        </button>
      </p>
    </main>
  );
}

function Missing({ me }: { me: MeAnswer }) {
  const { t } = useTranslation('console');
  useTitle(t('missing.title'));
  return (
    <>
      <h1 tabIndex={-1}>{t('missing.title')}</h1>
      <p>
        <ConsoleLink to={homeOf(me)}>{readsVisitors(me) ? t('missing.back') : t('texts.back')}</ConsoleLink>
      </p>
    </>
  );
}

/** Replaces the address with another console page (the history keeps no step that only led on). */
function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return <Loading />;
}

function DeskPage({ route, me }: { route: ConsoleRoute; me: MeAnswer }) {
  switch (route.page) {
    case 'inbox':
      return <InboxPage query={route.query} />;
    case 'message':
      return <MessagePage id={route.id} me={me} />;
    case 'chat':
      return <ChatPage me={me} />;
    case 'analytics':
      return <AnalyticsPage query={route.query} me={me} />;
    case 'staff':
      return me.role === 'admin' ? <StaffPage me={me} /> : <Missing me={me} />;
    case 'chatSettings':
      return me.role === 'admin' ? <ChatSettingsPage /> : <Missing me={me} />;
    case 'search':
      return <SearchPage query={route.query} />;
    case 'savedReplies':
      return me.role === 'admin' ? <SavedRepliesPage /> : <Missing me={me} />;
    default:
      return <Missing me={me} />;
  }
}

function Page({ route, me }: { route: ConsoleRoute; me: MeAnswer }) {
  switch (route.page) {
    case 'texts':
      return editsContent(me) ? <TextsPage query={route.query} /> : <Missing me={me} />;
    case 'textsNamespace':
      return editsContent(me) ? (
        <TextsNamespacePage namespace={route.namespace} query={route.query} />
      ) : (
        <Missing me={me} />
      );
    case 'textsPublish':
      return editsContent(me) ? <TextsPublishPage /> : <Missing me={me} />;
    case 'pictures':
      return editsContent(me) ? <PicturesPage /> : <Missing me={me} />;
    case 'brand':
      return me.role === 'admin' ? <BrandPage /> : <Missing me={me} />;
    case 'missing':
      return <Missing me={me} />;
    default:
      // The console's own address leads an editor to the texts; the desk's other pages are not theirs.
      if (readsVisitors(me)) return <DeskPage route={route} me={me} />;
      return route.page === 'inbox' ? <Redirect to={consolePath('texts')} /> : <Missing me={me} />;
  }
}

function Layout({ me }: { me: MeAnswer }) {
  const { t } = useTranslation('console');
  const { t: tc } = useTranslation();
  const { siteName } = useSiteConfig().brand;
  const route = useConsoleRoute();
  useLinkNavigation(isConsolePath);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  const where = route.page === 'message' ? `message:${route.id}` : route.page;

  // A new page starts at the top, with focus on its main region, as after a page load.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [where]);

  const nav: [string, string, boolean][] = [];
  if (readsVisitors(me)) {
    nav.push(
      [consolePath('inbox'), t('nav.inbox'), route.page === 'inbox' || route.page === 'message'],
      [consolePath('chat'), t('nav.chat'), route.page === 'chat'],
      [consolePath('analytics'), t('nav.analytics'), route.page === 'analytics'],
      [consolePath('search'), t('search.nav'), route.page === 'search'],
    );
  }
  if (editsContent(me)) nav.push([consolePath('texts'), t('texts.nav'), route.page.startsWith('texts')]);
  if (me.role === 'admin') nav.push([consolePath('staff'), t('nav.staff'), route.page === 'staff']);
  if (me.role === 'admin') {
    nav.push([consolePath('chatSettings'), t('nav.chatSettings'), route.page === 'chatSettings']);
  }
  if (me.role === 'admin')
    nav.push([consolePath('savedReplies'), t('savedReplies.nav'), route.page === 'savedReplies']);
  if (editsContent(me)) nav.push([consolePath('pictures'), t('pictures.nav'), route.page === 'pictures']);
  if (me.role === 'admin') nav.push([consolePath('brand'), t('brand.nav'), route.page === 'brand']);
  return (
    <>
      <a className="skip-link" href="#main">
        {tc('skipToContent')}
      </a>
      <header className="console-header">
        <div className="console-header__inner">
          <p className="console-brand">
            {siteName} <span className="console-brand__label">{t('title')}</span>
          </p>
          <nav className="console-nav" aria-label={t('nav.label')}>
            <ul>
              {nav.map(([to, label, current]) => (
                <li key={to}>
                  <ConsoleLink to={to} current={current}>
                    {label}
                  </ConsoleLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="console-user">
            <span className="console-user__name">
              {t('user.signedInAs', { name: me.name, role: t(`roleNames.${me.role}`) })}
            </span>
            <LanguageChoice />
            <button type="button" className="button button--secondary button--small" onClick={signOut}>
              {t('user.signOut')}
            </button>
          </div>
        </div>
      </header>
      {readsVisitors(me) && <ChatAlerts />}
      <main id="main" ref={main} tabIndex={-1} className="console-main">
        <Suspense fallback={<Loading />}>
          <Page route={route} me={me} />
        </Suspense>
      </main>
    </>
  );
}

/**
 * The console: only for signed-in staff (an editor sees the texts alone). Someone signed out is sent to
 * sign in (and comes back here after), a member sees that the console is not for them; every
 * call the pages make is checked again by the server.
 */
export function ConsoleApp() {
  const [gate, setGate] = useState<Gate>({ kind: 'checking' });
  useEffect(() => {
    void callApi<MeAnswer>(STAFF_API.me).then((result) => {
      if (result.ok) setGate({ kind: 'staff', me: result.data });
      else if (result.code === 'UNAUTHORIZED' || result.code === 'SESSION_EXPIRED')
        window.location.replace(signInPath());
      else if (result.code === 'FORBIDDEN') setGate({ kind: 'forbidden' });
      else if (result.code === 'SECOND_FACTOR_REQUIRED') setGate({ kind: 'second-factor' });
      else setGate({ kind: 'failed', code: result.code });
    });
  }, []);
  if (gate.kind === 'staff') return <Layout me={gate.me} />;
  if (gate.kind === 'forbidden') return <NoAccess />;
  if (gate.kind === 'second-factor') return <SecondFactorFirst />;
  if (gate.kind === 'failed') return <Failed code={gate.code} />;
  return (
    <main id="main" className="console-main console-main--narrow">
      <Loading />
    </main>
  );
}
