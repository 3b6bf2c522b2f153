// A bare page for the browser tests that mounts the operators' chat as the console will: inside
// the console's i18next provider, under its own main landmark. Built by chat-console-page.ts.
import { createInstance } from 'i18next';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { ChatConsole } from '#client/features/chat-console/index.ts';
import '#client/app/styles.css';

const i18n = createInstance();
void i18n.use(initReactI18next).init({
  lng: document.documentElement.lang,
  resources: {},
  interpolation: { escapeValue: false, defaultVariables: { siteName: 'Your Company', domain: 'localhost' } },
  initAsync: false,
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <main className="container">
          <ChatConsole />
        </main>
      </I18nextProvider>
    </StrictMode>,
  );
}
