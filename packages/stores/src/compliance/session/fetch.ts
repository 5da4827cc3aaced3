/**
 * Compliance checks for fetch(key) / fetch(keyFrom, keyTo) and their backward variants: every
 * live session of a key (or of the keys in the range, undefined = open), oldest end first
 * (newest first backward).
 */
import { expect } from 'chai'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import { putSessions, s, session, sessionEntries, sessionEntry, sessionTimes, sorted } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

export function sessionFetchCompliance(harness: SessionStoreHarness): void {
  const { t } = sessionTimes(harness)
  const e = (key: string, start: number, end: number, value: string): string => sessionEntry(key, t(start), t(end), value)
  /** Key order and end order agree, so every backend returns the same order. */
  const write = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['b', t(3), t(4), 'b'],
      ['a', t(2), t(3), 'a23'],
      ['c', t(5), t(6), 'c'],
      ['a', t(0), t(1), 'a01'],
      ['ab', t(2), t(3), 'ab']
    ])
  }
  describeOperation(harness, {
    title: 'fetch and backwardFetch',
    checks: [
      {
        title: 'fetch(key) returns every session of the key, oldest first; backwardFetch newest first',
        run: write,
        verify(store) {
          expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([e('a', 0, 1, 'a01'), e('a', 2, 3, 'a23')])
          expect(sessionEntries(store.backwardFetch(s('a')))).to.deep.equal([e('a', 2, 3, 'a23'), e('a', 0, 1, 'a01')])
          expect(sessionEntries(store.fetch(s('ab')))).to.deep.equal([e('ab', 2, 3, 'ab')])
          expect(sessionEntries(store.fetch(s('z')))).to.deep.equal([])
        }
      },
      {
        title: 'fetch(keyFrom, keyTo) returns the sessions of the keys in range, bounds inclusive',
        run(store) {
          putSessions(store, [
            ['c', t(5), t(6), 'c'],
            ['a', t(1), t(2), 'a'],
            ['b', t(3), t(4), 'b']
          ])
        },
        verify(store) {
          expect(sessionEntries(store.fetch(s('a'), s('b')))).to.deep.equal([e('a', 1, 2, 'a'), e('b', 3, 4, 'b')])
          expect(sessionEntries(store.backwardFetch(s('a'), s('b')))).to.deep.equal([e('b', 3, 4, 'b'), e('a', 1, 2, 'a')])
          expect(sessionEntries(store.fetch(s('aa'), s('bb')))).to.deep.equal([e('b', 3, 4, 'b')])
          expect(sessionEntries(store.fetch(s('b'), undefined))).to.deep.equal([e('b', 3, 4, 'b'), e('c', 5, 6, 'c')])
          expect(sessionEntries(store.fetch(undefined, s('a')))).to.deep.equal([e('a', 1, 2, 'a')])
          expect(sessionEntries(store.fetch(undefined, undefined))).to.deep.equal([e('a', 1, 2, 'a'), e('b', 3, 4, 'b'), e('c', 5, 6, 'c')])
          expect(sessionEntries(store.backwardFetch(undefined, undefined))).to.deep.equal([
            e('c', 5, 6, 'c'),
            e('b', 3, 4, 'b'),
            e('a', 1, 2, 'a')
          ])
        }
      },
      {
        title: 'fetch(keyFrom, keyTo) with keyFrom after keyTo is empty, not an error',
        run: write,
        verify(store) {
          expect(sessionEntries(store.fetch(s('c'), s('a')))).to.deep.equal([])
          expect(sessionEntries(store.backwardFetch(s('c'), s('a')))).to.deep.equal([])
        }
      },
      {
        title: 'fetch(keyFrom, keyTo) returns every match when keys and ends interleave',
        run: write,
        verify(store) {
          const all = sorted([e('a', 0, 1, 'a01'), e('a', 2, 3, 'a23'), e('ab', 2, 3, 'ab'), e('b', 3, 4, 'b')])
          expect(sorted(sessionEntries(store.fetch(s('a'), s('b'))))).to.deep.equal(all)
          expect(sorted(sessionEntries(store.backwardFetch(s('a'), s('b'))))).to.deep.equal(all)
        }
      },
      {
        title: 'reflects puts and removes',
        run(store) {
          write(store)
          putSessions(store, [['a', t(0), t(1), 'A01']])
          store.remove(session('a', t(2), t(3)))
        },
        verify(store) {
          expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([e('a', 0, 1, 'A01')])
        }
      }
    ],
    seed: write,
    closedStoreCalls: {
      'fetch(key)': store => store.fetch(s('a')),
      'fetch(keyFrom, keyTo)': store => store.fetch(s('a'), s('b')),
      'backwardFetch(key)': store => store.backwardFetch(s('a')),
      'backwardFetch(keyFrom, keyTo)': store => store.backwardFetch(undefined, undefined)
    }
  })
}
