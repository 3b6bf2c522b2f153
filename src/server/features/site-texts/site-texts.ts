import type { Language, Texts } from '#common/languages.ts';
import type { Database } from '#server/platform/db/database.ts';
import { type KeptCurrent, keptCurrent } from '#server/platform/db/kept-current.ts';
import { log } from '#server/platform/log.ts';
import type { PagePublisher } from '#server/site/live-pages.ts';
import { TextCatalog } from './text-catalog.ts';
import { publishedTexts, SITE_TEXTS_CHANNEL } from './text-queries.ts';

/**
 * The site's texts as published, kept current on this instance: `refresh` reads what the database
 * holds and, for each language and namespace that reads differently, updates the texts mail is
 * written with and has the publisher render and serve the pages again.
 */
export class SiteTexts {
  readonly catalog: TextCatalog;
  /** The texts mail is written with: replaced part by part as texts are published. */
  readonly texts: Texts;
  readonly publisher: PagePublisher | undefined;
  private readonly current: KeptCurrent;

  constructor(options: { db: Database; shipped: Texts; publisher?: PagePublisher }) {
    this.catalog = new TextCatalog(options.shipped);
    this.texts = this.catalog.texts(Object.keys(options.shipped) as Language[]);
    this.publisher = options.publisher;
    this.current = keptCurrent({
      db: options.db,
      channels: [SITE_TEXTS_CHANNEL],
      apply: () => this.apply(options.db),
      failure: 'Published texts could not be applied',
    });
  }

  /** Resolves once this instance serves what the database holds now. */
  refresh(): Promise<void> {
    return this.current.refresh();
  }

  /** Serves what is published, and again whenever any instance publishes (or the connection comes back). */
  start(): Promise<() => Promise<void>> {
    return this.current.start();
  }

  private async apply(db: Database): Promise<void> {
    const changed = this.catalog.setPublished(await publishedTexts(db));
    if (changed.size === 0) return;
    for (const part of changed) {
      const [language = '', namespace = ''] = part.split('/');
      if (this.texts[language]) this.texts[language][namespace] = this.catalog.tree(language as Language, namespace);
    }
    await this.publisher?.update(changed, this.catalog);
    log.info({ parts: [...changed] }, 'Published texts are served');
  }
}
