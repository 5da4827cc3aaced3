/**
 * Compliance checks for the iterators session stores hand out: peekNextKey, closing (idempotent,
 * by `for...of` break, by Symbol.dispose), being closed with their store, and staying done once
 * exhausted. A closed iterator throws STORE_NOT_OPEN.
 */
import { expect } from 'chai'
import type { KeyValueIterator, Windowed } from '@kstreams/core'
import { expectIteratorClosed, iteratorClosingChecks } from '../iterator-checks.js'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import { ANY_START, putSessions, s, sessionEntries, sessionTimes } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

type Iterator = KeyValueIterator<Windowed<Buffer>, Buffer>

export function sessionIteratorCompliance(harness: SessionStoreHarness): void {
  const { t } = sessionTimes(harness)
  const write = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['a', t(1), t(2), '1'],
      ['a', t(3), t(4), '2'],
      ['a', t(5), t(6), '3']
    ])
  }
  const everyKind = (store: BytesSessionStore): Array<[string, Iterator]> => [
    ['findSessions(key)', store.findSessions(s('a'), 0, ANY_START)],
    ['findSessions(range)', store.findSessions(s('a'), s('b'), 0, ANY_START)],
    ['findSessions(ends)', store.findSessions(0, ANY_START)],
    ['backwardFindSessions(key)', store.backwardFindSessions(s('a'), 0, ANY_START)],
    ['backwardFindSessions(range)', store.backwardFindSessions(undefined, undefined, 0, ANY_START)],
    ['fetch(key)', store.fetch(s('a'))],
    ['fetch(range)', store.fetch(s('a'), s('a'))],
    ['backwardFetch(key)', store.backwardFetch(s('a'))],
    ['backwardFetch(range)', store.backwardFetch(undefined, undefined)]
  ]
  const [idempotentClose, closedWithStore] = iteratorClosingChecks(write, everyKind)
  describeOperation(harness, {
    title: 'iterators',
    checks: [
      {
        title: 'peekNextKey returns the next session key without consuming it, undefined at the end',
        run(store) {
          write(store)
          const iterator = store.fetch(s('a'))
          for (const [start, end] of [
            [1, 2],
            [3, 4],
            [5, 6]
          ] as const) {
            const peeked = iterator.peekNextKey()
            expect(peeked?.key.toString()).to.equal('a')
            expect([peeked?.window.start, peeked?.window.end]).to.deep.equal([t(start), t(end)])
            expect(iterator.peekNextKey()?.window.start).to.equal(t(start))
            expect(iterator.next().value?.key.window.start).to.equal(t(start))
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
          const iterator = store.fetch(s('a'))
          for (const kv of iterator) {
            expect(kv.value.toString()).to.equal('1')
            break
          }
          expectIteratorClosed(iterator, 'after break')
          const disposed = store.backwardFetch(s('a'))
          disposed[Symbol.dispose]()
          expectIteratorClosed(disposed, 'disposed')
          expect(sessionEntries(store.fetch(s('a')))).to.have.length(3)
        }
      },
      {
        title: 'an exhausted iterator stays done until closed',
        run(store) {
          write(store)
          const iterator = store.findSessions(s('a'), t(6), ANY_START)
          expect(iterator.next().value?.value.toString()).to.equal('3')
          expect(iterator.next().done).to.equal(true)
          expect(iterator.next().done).to.equal(true)
          expect(iterator.peekNextKey()).to.equal(undefined)
          iterator.close()
        }
      }
    ]
  })
}
