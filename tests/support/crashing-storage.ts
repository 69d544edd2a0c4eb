import type { Repositories, Storage } from '../../core/ports/storage.ts';

/** A Storage whose `failAt`-th transaction throws after its work ran: the worker killed before a commit. */
export function crashing(inner: Storage, failAt: number): Storage {
  let n = 0;
  const wrapper = Object.create(inner) as Storage;
  wrapper.transaction = <T>(work: (tx: Repositories) => Promise<T>) => inner.transaction(async (tx) => {
    const result = await work(tx);
    n += 1;
    if (n === failAt) throw new Error('worker killed');
    return result;
  });
  return wrapper;
}
