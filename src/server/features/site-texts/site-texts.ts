import type { Language, Texts } from '#common/languages.ts';
import type { Database } from '#server/platform/db/database.ts';
import { errorFields, log } from '#server/platform/log.ts';
import type { PagePublisher } from '#server/site/live-pages.ts';
import { TextCatalog } from './text-catalog.ts';
import { publishedTexts, SITE_TEXTS_CHANNEL } from './text-queries.ts';

/**
 * The site's texts as published, kept current on this instance: `refresh` reads what the database
 * holds and, for each language and namespace that reads differently, updates the texts mail is
 * written with and has the publisher render and serve the pages again. Refreshes run one at a time.
 */
export class SiteTexts {
  readonly catalog: TextCatalog;
  /** The texts mail is written with: replaced part by part as texts are published. */
  readonly texts: Texts;
  readonly publisher: PagePublisher | undefined;
  private readonly db: Database;
  private chain: Promise<void> = Promise.resolve();

  constructor(options: { db: Database; shipped: Texts; publisher?: PagePublisher }) {
    this.db = options.db;
    this.catalog = new TextCatalog(options.shipped);
    this.texts = this.catalog.texts(Object.keys(options.shipped) as Language[]);
    this.publisher = options.publisher;
  }

  /** Resolves once this instance serves what the database holds now. */
  refresh(): Promise<void> {
    const run = this.chain.then(async () => {
      const changed = this.catalog.setPublished(await publishedTexts(this.db));
      if (changed.size === 0) return;
      for (const part of changed) {
        const [language = '', namespace = ''] = part.split('/');
        if (this.texts[language]) this.texts[language][namespace] = this.catalog.tree(language as Language, namespace);
      }
      await this.publisher?.update(changed, this.catalog);
      log.info({ parts: [...changed] }, 'Published texts are served');
    });
    // A failed refresh is logged; the next notification tries again.
    this.chain = run.catch((error: unknown) => log.error(errorFields(error), 'Published texts could not be applied'));
    return run;
  }

  /** Serves what is published, and again whenever any instance publishes (or the connection comes back). */
  async start(): Promise<() => Promise<void>> {
    const again = () => {
      void this.refresh().catch(() => {});
    };
    const unlisten = await this.db.listen(SITE_TEXTS_CHANNEL, again, { onResync: again });
    await this.refresh();
    return unlisten;
  }
}
