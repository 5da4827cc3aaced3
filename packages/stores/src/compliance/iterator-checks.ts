/**
 * The iterator closing checks every store kind shares (key-value, window, session): close() is
 * idempotent, and closing the store closes its fresh, started and exhausted iterators. A closed
 * iterator throws STORE_NOT_OPEN from next() and peekNextKey().
 */
import { expect } from 'chai'
import type { KeyValueIterator } from '@kstreams/core'
import { codeOf } from './expect-code.js'

export type AnyIterator = KeyValueIterator<unknown, Buffer>

/** A check as the key-value and windowed runners take it. */
export interface IteratorCheck<S> {
  readonly title: string
  run(store: S): void
}

export function expectIteratorClosed(iterator: AnyIterator, what: string): void {
  expect(
    codeOf(() => iterator.next()),
    `${what}: next()`
  ).to.equal('STORE_NOT_OPEN')
  expect(
    codeOf(() => iterator.peekNextKey()),
    `${what}: peekNextKey()`
  ).to.equal('STORE_NOT_OPEN')
}

/**
 * The two closing checks: `write` puts what makes every iterator of `everyKind` (one of each kind
 * the store hands out) see exactly three entries.
 */
export function iteratorClosingChecks<S extends { close(): void }>(
  write: (store: S) => void,
  everyKind: (store: S) => Array<[string, AnyIterator]>
): [idempotentClose: IteratorCheck<S>, closedWithStore: IteratorCheck<S>] {
  return [
    {
      title: 'close() is idempotent; a closed iterator throws STORE_NOT_OPEN',
      run(store) {
        write(store)
        for (const [kind, iterator] of everyKind(store)) {
          iterator.next()
          iterator.close()
          iterator.close()
          expectIteratorClosed(iterator, kind)
        }
      }
    },
    {
      title: 'iterators are closed when their store closes: fresh, started and exhausted ones',
      run(store) {
        write(store)
        const fresh = everyKind(store)
        const started = everyKind(store)
        for (const [, iterator] of started) iterator.next()
        const exhausted = everyKind(store)
        for (const [kind, iterator] of exhausted) expect([...iterator], kind).to.have.length(3)
        store.close()
        for (const [kind, iterator] of [...fresh, ...started, ...exhausted]) expectIteratorClosed(iterator, kind)
      }
    }
  ]
}
