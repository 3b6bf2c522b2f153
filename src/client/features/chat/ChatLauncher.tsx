import { type CSSProperties, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTextPart } from '#client/lib/use-text-part.ts';
import { withRetries } from '#client/lib/with-retries.ts';
import { storageEntry } from '#common/storage.ts';
import './launcher.css';

import { loaders as launcherTexts } from 'virtual:texts/chat/launcher';

type PanelModule = typeof import('./ChatPanel.tsx');
const ACTIVE_COOKIE = storageEntry('chatActive').name;

let panel: Promise<PanelModule> | null = null;
const loadPanel = () => {
  panel ??= withRetries(() => import('./ChatPanel.tsx')).catch((error: Error) => {
    panel = null;
    throw error;
  });
  return panel;
};

/**
 * How much of the bottom of the window something else covers: the consent prompt says so by
 * setting the page's scroll-padding-bottom. The launcher and the panel sit above it.
 */
function useBottomInset(): number {
  const [inset, setInset] = useState(0);
  useEffect(() => {
    const root = document.documentElement;
    const read = () => setInset(Number.parseFloat(root.style.scrollPaddingBottom) || 0);
    read();
    const observer = new MutationObserver(read);
    observer.observe(root, { attributes: true, attributeFilter: ['style'] });
    return () => observer.disconnect();
  }, []);
  return inset;
}

/**
 * The chat's launcher: a button in the corner of every page of the shared layout, in the page's
 * language. The panel's code is fetched when the visitor opens it (prefetched on hover or focus),
 * or at once when this browser already has a conversation, to show unread replies.
 */
export default function ChatLauncher() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const textsFor = useTextPart(launcherTexts, language, 'chat', 'launcher');
  const [Panel, setPanel] = useState<PanelModule | null>(null);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const inset = useBottomInset();

  const withPanel = useCallback((then?: () => void) => {
    loadPanel().then(
      (module) => {
        setPanel(() => module);
        then?.();
      },
      () => {},
    );
  }, []);

  useEffect(() => {
    // A mail's link to the conversation lands on `#chat`: open it there.
    if (window.location.hash === '#chat') withPanel(() => setOpen(true));
    else if (document.cookie.split('; ').includes(`${ACTIVE_COOKIE}=1`)) withPanel();
  }, [withPanel]);

  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);

  if (!textsFor) return null;
  const t = i18n.getFixedT(textsFor, 'chat', 'launcher');
  return (
    <div className="chat-widget" style={{ '--chat-inset': `${inset}px` } as CSSProperties}>
      {Panel && <Panel.default open={open} onClose={close} language={textsFor} />}
      <button
        ref={button}
        type="button"
        className="chat-launcher"
        aria-expanded={open}
        aria-controls={open ? 'chat-panel' : undefined}
        onClick={() => (open ? close() : withPanel(() => setOpen(true)))}
        onPointerEnter={() => withPanel()}
        onFocus={() => withPanel()}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="28" height="28" focusable="false">
          {open ? (
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" fill="none" />
          ) : (
            <path
              d="M4 5.5A2.5 2.5 0 0 1 6.5 3h11A2.5 2.5 0 0 1 20 5.5v8a2.5 2.5 0 0 1-2.5 2.5H10l-4.5 4v-4h0A2.5 2.5 0 0 1 4 13.5z"
              fill="currentColor"
            />
          )}
        </svg>
        <span className="visually-hidden">{open ? t('close') : t('open')}</span>
        {Panel && !open && <Panel.UnreadBadge label={(count) => t('unread', { count })} />}
      </button>
    </div>
  );
}
