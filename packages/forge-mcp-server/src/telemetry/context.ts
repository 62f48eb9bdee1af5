/**
 * The OpenTelemetry context lives in an AsyncLocalStorage this room owns, so that the core's
 * diagnostics channels can carry it: `channel.bindStore(store, ...)` puts a request's span in the store for
 * everything the request does. (The SDK's own AsyncLocalStorage context manager keeps its store private.)
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context, type ContextManager } from '@opentelemetry/api';

export class StoreContextManager implements ContextManager {
  readonly store = new AsyncLocalStorage<Context>();

  active(): Context {
    return this.store.getStore() ?? ROOT_CONTEXT;
  }

  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.store.run(context, () => fn.apply(thisArg, args));
  }

  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const fn = target as unknown as (...args: unknown[]) => unknown;
    return ((...args: unknown[]) => this.store.run(context, () => fn(...args))) as T;
  }

  enable(): this {
    return this;
  }

  disable(): this {
    this.store.disable();
    return this;
  }
}
