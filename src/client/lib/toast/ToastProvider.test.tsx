import { createInstance } from 'i18next';
import { renderToString } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { ToastProvider } from './ToastProvider.tsx';

const i18n = createInstance();
await i18n.use(initReactI18next).init({
  lng: 'en',
  defaultNS: 'common',
  resources: { en: { common: { toasts: { label: 'Notifications' } } } },
});

const render = (position?: 'bottom-left') =>
  renderToString(
    <I18nextProvider i18n={i18n}>
      <ToastProvider position={position}>
        <p>page</p>
      </ToastProvider>
    </I18nextProvider>,
  );

describe('ToastProvider', () => {
  it('renders the page and an empty live region, top right by default', () => {
    const html = render();
    expect(html).toContain('<p>page</p>');
    expect(html).toContain('<section class="toasts toasts--top-right" aria-label="Notifications">');
    expect(html).toContain('<ol class="toasts__list" aria-live="polite"></ol>');
  });

  it('takes another of the six positions', () => {
    expect(render('bottom-left')).toContain('toasts--bottom-left');
  });
});
