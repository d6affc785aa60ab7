// Forcing an interleaving between two users of IndexedDB (the service worker's drain and an
// end of session, two ends): an IDBFactory through which one chosen open reaches IndexedDB
// only when the test says so. Used by session-end.test.ts and web's held-changes.test.tsx.
import type { IDBFactory } from 'fake-indexeddb';

type Factory = InstanceType<typeof IDBFactory>;
type OpenRequest = ReturnType<Factory['open']>;
type Handler = (event: unknown) => unknown;

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * `factory` with the first open for which `holds(name, openedBefore)` is true held back until
 * release(); `requested` resolves when that open is asked for. Every other call goes through.
 * Dexie sets the request's on… handlers at once and reads result/transaction in them, so the
 * held request forwards those to the real one once it exists.
 */
export function gateOpen(
  factory: Factory,
  holds: (name: string, openedBefore: readonly string[]) => boolean,
) {
  const requested = deferred();
  const gate = deferred();
  const opened: string[] = [];
  let armed = true;
  const open = (...args: Parameters<Factory['open']>): OpenRequest => {
    const [name] = args;
    const hold = armed && holds(name, opened);
    opened.push(name);
    if (!hold) return factory.open(...args);
    armed = false;
    requested.resolve();
    const handlers: Record<string, Handler | null> = {};
    let real: OpenRequest | null = null;
    const request = new Proxy(handlers, {
      get: (target, prop: string) =>
        prop.startsWith('on') ? target[prop] : Reflect.get(real ?? {}, prop, real ?? {}),
      set: (target, prop: string, value: Handler | null) => {
        target[prop] = value;
        return true;
      },
    }) as unknown as OpenRequest;
    void gate.promise.then(() => {
      real = factory.open(...args);
      for (const type of ['success', 'error', 'blocked', 'upgradeneeded'])
        real.addEventListener(type, (event: unknown) => handlers[`on${type}`]?.(event));
    });
    return request;
  };
  const gated = new Proxy(factory, {
    get: (target, prop) => {
      if (prop === 'open') return open;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  return { factory: gated, requested: requested.promise, release: () => gate.resolve() };
}
