import type { BackendModule, ReadCallback, Services } from 'i18next';

/**
 * i18next's backend slot, filled by i18next-http-backend on the first read. A page arrives with its
 * texts, so the HTTP backend is needed only when a navigation reaches a namespace the page did not
 * bring; loading it then keeps it off the first paint. Reads, retries and errors are the library's.
 */
export class LazyHttpBackend implements BackendModule {
  static type = 'backend' as const;
  type = 'backend' as const;
  private args: [Services, object] | null = null;
  private backend: Promise<BackendModule> | null = null;

  init(services: Services, backendOptions: object) {
    this.args = [services, backendOptions];
  }

  read(language: string, namespace: string, callback: ReadCallback) {
    this.backend ??= import('i18next-http-backend').then(({ default: HttpBackend }) => {
      const backend = new HttpBackend();
      backend.init(...(this.args as [Services, object]));
      return backend as unknown as BackendModule;
    });
    this.backend.then(
      (backend) => backend.read(language, namespace, callback),
      (error: Error) => {
        this.backend = null;
        callback(error, true);
      },
    );
  }
}
