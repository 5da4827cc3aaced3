/**
 * Compliance checks for the iterators window stores hand out: peekNextKey, closing (idempotent,
 * by `for...of` break, by Symbol.dispose), being closed with their store, and staying done once
 * exhausted. A closed iterator throws STORE_NOT_OPEN.
 */
import { expect } from 'chai'
import { expectIteratorClosed, iteratorClosingChecks } from '../iterator-checks.js'
import type { AnyIterator } from '../iterator-checks.js'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import { putAll, s, windowedEntries, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowIteratorCompliance(harness: WindowStoreHarness): void {
  const { t, windowSize } = windowTimes(harness)
  const write = (store: BytesWindowStore): void => {
    putAll(store, [
      ['a', t(1), '1'],
      ['b', t(2), '2'],
      ['c', t(3), '3']
    ])
  }
  /** Adds two more windows of 'a', so that every kind of iterator below sees three entries. */
  const writeMore = (store: BytesWindowStore): void => {
    write(store)
    putAll(store, [
      ['a', t(4), '4'],
      ['a', t(5), '5']
    ])
  }
  /** One iterator of each kind, each over three entries (after writeMore). */
  const everyKind = (store: BytesWindowStore): Array<[string, AnyIterator]> => [
    ['fetch(key)', store.fetch(s('a'), t(0), t(9))],
    ['backwardFetch(key)', store.backwardFetch(s('a'), t(0), t(9))],
    ['fetch(range)', store.fetch(s('a'), s('c'), t(1), t(3))],
    ['backwardFetch(range)', store.backwardFetch(s('a'), s('c'), t(1), t(3))],
    ['fetchAll', store.fetchAll(t(1), t(3))],
    ['backwardFetchAll', store.backwardFetchAll(t(1), t(3))]
  ]
  const [idempotentClose, closedWithStore] = iteratorClosingChecks(writeMore, everyKind)
  describeOperation(harness, {
    title: 'iterators',
    checks: [
      {
        title: 'peekNextKey returns the next windowed key without consuming it, undefined at the end',
        run(store) {
          write(store)
          const iterator = store.fetchAll(t(0), t(9))
          for (const [key, i] of [
            ['a', 1],
            ['b', 2],
            ['c', 3]
          ] as const) {
            const peeked = iterator.peekNextKey()
            expect(peeked?.key.toString()).to.equal(key)
            expect(peeked?.window.start).to.equal(t(i))
            expect(peeked?.window.end).to.equal(t(i) + windowSize)
            expect(iterator.peekNextKey()?.key.toString()).to.equal(key)
            expect(iterator.next().value?.key.key.toString()).to.equal(key)
          }
          expect(iterator.peekNextKey()).to.equal(undefined)
          expect(iterator.next().done).to.equal(true)
          iterator.close()
        }
      },
      idempotentClose,
      closedWithStore,
      {
        title: 'breaking out of a for...of loop, or Symbol.dispose, closes the iterator',
        run(store) {
          write(store)
          const iterator = store.all()
          for (const kv of iterator) {
            expect(kv.key.key.toString()).to.equal('a')
            break
          }
          expectIteratorClosed(iterator, 'after break')
          const disposed = store.backwardAll()
          disposed[Symbol.dispose]()
          expectIteratorClosed(disposed, 'disposed')
          expect(windowedEntries(store.all())).to.have.length(3)
        }
      },
      {
        title: 'an exhausted iterator stays done until closed',
        run(store) {
          write(store)
          const iterator = store.fetch(s('b'), t(0), t(9))
          expect(iterator.next().value?.key).to.equal(t(2))
          expect(iterator.next().done).to.equal(true)
          expect(iterator.next().done).to.equal(true)
          expect(iterator.peekNextKey()).to.equal(undefined)
          iterator.close()
        }
      }
    ]
  })
}
