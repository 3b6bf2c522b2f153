import { type Context, type ContextManager, ROOT_CONTEXT } from '@opentelemetry/api';

/**
 * A context manager whose outermost context is the visit's `application-session` span, so every
 * span of the page (each traced fetch) belongs to one trace: the visit. Without zone.js the
 * browser cannot follow async work, and this is all the nesting the site needs.
 */
export class SessionContextManager implements ContextManager {
  private base: Context = ROOT_CONTEXT;
  private current: Context = ROOT_CONTEXT;

  setBase(context: Context) {
    this.base = context;
    this.current = context;
  }

  active(): Context {
    return this.current;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const previous = this.current;
    this.current = context;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }

  bind<T>(_context: Context, target: T): T {
    return target;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.current = this.base;
    return this;
  }
}
