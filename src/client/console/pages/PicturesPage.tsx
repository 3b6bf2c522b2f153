import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleCall } from '#client/console/api.ts';
import { Loading } from '#client/console/ui.tsx';
import { useTitle } from '#client/console/use-title.ts';
import type { ApiResult } from '#client/lib/api-client.ts';
import { useErrorToast } from '#client/lib/toast/use-error-toast.ts';
import { useToast } from '#client/lib/toast/use-toast.ts';
import type { ErrorCode } from '#common/error-codes.ts';
import { LANGUAGE_NAMES, LANGUAGES, type Language } from '#common/languages.ts';
import {
  MAX_PICTURE_ALT,
  PICTURE_SLOTS,
  PICTURE_TYPES,
  PICTURES_API,
  type Picture,
  type PictureSlot,
  type PicturesAnswer,
} from '#common/site-pictures.ts';
import './pictures.css';

type Sent = ApiResult<PicturesAnswer>;

/**
 * Longer than making the picture's files (AVIF is seconds of a core per size) and a full render of
 * the site take on a busy instance.
 */
const TIMEOUT_MS = 120_000;

/** A change of a picture: the image itself (as its file), its texts, or its removal. */
const send = (method: 'PUT' | 'DELETE', path: string, body: Blob | object): Promise<Sent> =>
  consoleCall<PicturesAnswer>(path, body, { method, timeoutMs: TIMEOUT_MS, tooLarge: 'PICTURE_TOO_LARGE' });

/**
 * The pages' pictures (editors and admins): for home and about, upload one, see it, give it its
 * text in each language, or take it off. The site serves each change at once, without a rebuild.
 */
export default function PicturesPage() {
  const { t } = useTranslation('console');
  useTitle(t('pictures.title'));
  const [pictures, setPictures] = useState<PicturesAnswer['pictures'] | null>(null);
  const errorToast = useErrorToast();
  const load = useCallback(async () => {
    const result = await consoleCall<PicturesAnswer>(PICTURES_API.pictures);
    if (result.ok) setPictures(result.data.pictures);
    else errorToast(result.code);
  }, [errorToast]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <>
      <h1>{t('pictures.title')}</h1>
      <p className="pictures__intro">{t('pictures.intro')}</p>
      {!pictures ? (
        <Loading />
      ) : (
        PICTURE_SLOTS.map((slot) => (
          <PictureSlotSection key={slot} slot={slot} picture={pictures[slot]} onChange={setPictures} />
        ))
      )}
    </>
  );
}

function PictureSlotSection({
  slot,
  picture,
  onChange,
}: {
  slot: PictureSlot;
  picture: Picture | undefined;
  onChange(pictures: PicturesAnswer['pictures']): void;
}) {
  const { t } = useTranslation('console');
  const { t: te } = useTranslation('errors');
  const toast = useToast();
  const errorToast = useErrorToast();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ErrorCode | null>(null);
  const [confirming, setConfirming] = useState(false);
  const page = t(`pictures.slots.${slot}`);

  const done = (result: Sent, message: string) => {
    if (!result.ok) return void errorToast(result.code);
    onChange(result.data.pictures);
    toast.show({ type: 'success', message });
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    setProblem(null);
    const result = await send('PUT', PICTURES_API.picture(slot), file);
    setBusy(false);
    if (!result.ok && result.code.startsWith('PICTURE_')) return setProblem(result.code);
    done(result, t('pictures.uploaded', { page }));
  };
  const remove = async () => {
    setConfirming(false);
    done(await send('DELETE', PICTURES_API.picture(slot), {}), t('pictures.removed', { page }));
  };

  const input = `picture-${slot}-file`;
  return (
    <section className="pictures__slot" aria-labelledby={`picture-${slot}-title`}>
      <h2 id={`picture-${slot}-title`}>{page}</h2>
      {picture ? (
        <img className="pictures__preview" src={picture.src} width={picture.width} height={picture.height} alt="" />
      ) : (
        <p>{t('pictures.none')}</p>
      )}
      <label htmlFor={input}>{picture ? t('pictures.replace') : t('pictures.upload')}</label>
      <p id={`${input}-hint`} className="pictures__hint">
        {t('pictures.hint')}
      </p>
      <input
        id={input}
        type="file"
        accept={PICTURE_TYPES.join(',')}
        disabled={busy}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${input}-hint${problem ? ` ${input}-error` : ''}`}
        onChange={(event) => {
          void upload(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <p role="status" className="pictures__status">
        {busy ? t('pictures.preparing') : ''}
      </p>
      {problem && (
        <p id={`${input}-error`} className="field__error">
          {te(problem)}
        </p>
      )}
      {picture && (
        <>
          <AltForm
            slot={slot}
            picture={picture}
            page={page}
            onSaved={(result) => done(result, t('pictures.altSaved'))}
          />
          <div className="toolbar">
            {confirming ? (
              <>
                <button type="button" className="button button--small button--danger" onClick={() => void remove()}>
                  {t('pictures.removeConfirm', { page })}
                </button>
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => setConfirming(false)}
                >
                  {t('pictures.cancel')}
                </button>
              </>
            ) : (
              <button type="button" className="button button--small button--danger" onClick={() => setConfirming(true)}>
                {t('pictures.remove', { page })}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function AltForm({
  slot,
  picture,
  page,
  onSaved,
}: {
  slot: PictureSlot;
  picture: Picture;
  page: string;
  onSaved(result: Sent): void;
}) {
  const { t } = useTranslation('console');
  const [alt, setAlt] = useState<Record<Language, string>>(
    () =>
      Object.fromEntries(LANGUAGES.map((language) => [language, picture.alt[language] ?? ''])) as Record<
        Language,
        string
      >,
  );
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    onSaved(await send('PUT', PICTURES_API.alt(slot), { alt }));
  };
  return (
    <form className="pictures__alt" onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>{t('pictures.altLegend', { page })}</legend>
        <p className="pictures__hint">{t('pictures.altHint')}</p>
        {LANGUAGES.map((language) => {
          const id = `picture-${slot}-alt-${language}`;
          return (
            <div key={language} className="pictures__alt-field">
              <label htmlFor={id}>{t('pictures.altIn', { language: LANGUAGE_NAMES[language] })}</label>
              <input
                id={id}
                lang={language}
                maxLength={MAX_PICTURE_ALT}
                value={alt[language]}
                onChange={(event) => setAlt({ ...alt, [language]: event.target.value })}
              />
            </div>
          );
        })}
      </fieldset>
      <button type="submit" className="button button--small">
        {t('pictures.altSave')}
      </button>
    </form>
  );
}
