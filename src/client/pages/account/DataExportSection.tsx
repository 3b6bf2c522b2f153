import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callApi } from '#client/lib/api-client.ts';
import { ACCOUNT_SETTINGS_API, DATA_COPIES_PER_DAY, type DataExportAnswer } from '#common/account-settings-api.ts';
import type { ErrorCode } from '#common/error-codes.ts';

interface Files {
  name: string;
  json: string;
  html: string;
}

/**
 * A copy of everything the site holds about the account, in one call: the JSON file downloads at
 * once, and the same data as a page to read is offered beside it, both made in the browser from
 * the one answer (object URLs), so saving the second costs no second call against the daily limit.
 */
export function DataExportSection({ failed }: { failed: (code: ErrorCode) => void }) {
  const { t } = useTranslation('settings');
  const [busy, setBusy] = useState(false);
  const [files, setFiles] = useState<Files | null>(null);
  const jsonLink = useRef<HTMLAnchorElement>(null);
  const saveOnShow = useRef(false);

  // The object URLs hold the data in memory until they are revoked: when replaced, and when the page goes.
  useEffect(
    () => () => {
      if (!files) return;
      URL.revokeObjectURL(files.json);
      URL.revokeObjectURL(files.html);
    },
    [files],
  );

  const download = async () => {
    if (busy) return;
    setBusy(true);
    const result = await callApi<DataExportAnswer>(ACCOUNT_SETTINGS_API.dataExport, {});
    setBusy(false);
    if (!result.ok) {
      failed(result.code);
      return;
    }
    const { fileName, data, html } = result.data;
    saveOnShow.current = true;
    setFiles({
      name: fileName,
      json: URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' })),
      html: URL.createObjectURL(new Blob([html], { type: 'text/html' })),
    });
  };
  // The click that asked for the data also saves the JSON file, once React has put its link in the page.
  useEffect(() => {
    if (!files || !saveOnShow.current) return;
    saveOnShow.current = false;
    jsonLink.current?.click();
  }, [files]);

  return (
    <section aria-labelledby="account-data">
      <h2 id="account-data">{t('data.title')}</h2>
      <p>{t('data.text')}</p>
      <p>{t('data.limit', { count: DATA_COPIES_PER_DAY })}</p>
      <p className="actions">
        <button type="button" className="button" onClick={download} aria-busy={busy}>
          {busy ? t('data.busy') : t('data.submit')}
        </button>
      </p>
      <div role="status">
        {files && (
          <>
            <p>{t('data.ready')}</p>
            <p className="actions">
              <a className="button button--secondary" href={files.json} download={`${files.name}.json`} ref={jsonLink}>
                {t('data.json')}
              </a>
              <a className="button button--secondary" href={files.html} download={`${files.name}.html`}>
                {t('data.html')}
              </a>
            </p>
          </>
        )}
      </div>
    </section>
  );
}
