import type { Repositories, Storage } from '../../core/ports/storage.ts';

/** A Storage whose `failAt`-th transaction throws after its work ran: the worker killed before a commit. */
export function crashing(inner: Storage, failAt: number): Storage {
  let n = 0;
  const transaction = <T>(work: (tx: Repositories) => Promise<T>) => inner.transaction(async (tx) => {
    const result = await work(tx);
    n += 1;
    if (n === failAt) throw new Error('worker killed');
    return result;
  });
  // A proxy, not a prototype: the repositories outside transactions are getters reading the storage's private fields.
  return new Proxy(inner, { get: (target, property) => (property === 'transaction' ? transaction : Reflect.get(target, property, target)) });
}
