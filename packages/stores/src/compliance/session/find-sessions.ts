/**
 * Compliance checks for findSessions: sessions of a key (or of keys in [keyFrom, keyTo], undefined
 * = open) that end at or after `earliestSessionEndTime` and start at or before
 * `latestSessionStartTime`; and findSessions(earliestSessionEndTime, latestSessionEndTime), every
 * session whose end is in that range. Sessions come oldest end first; across keys and ends that
 * interleave the order depends on the backend's key layout, so the data here keeps them aligned.
 */
import { expect } from 'chai'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import { ANY_START, putSessions, s, sessionEntries, sessionEntry, sessionTimes, sorted } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

export function sessionFindSessionsCompliance(harness: SessionStoreHarness): void {
  const { t } = sessionTimes(harness)
  const e = (key: string, start: number, end: number, value: string): string => sessionEntry(key, t(start), t(end), value)
  const oneKey = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['a', t(4), t(5), 'a45'],
      ['b', t(3), t(3), 'b3'],
      ['a', t(1), t(2), 'a12'],
      ['ab', t(4), t(5), 'ab45'],
      ['a', t(7), t(8), 'a78']
    ])
  }
  /** Key order and end order agree, so every backend returns the same order. */
  const aligned = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['c', t(5), t(6), 'c'],
      ['a', t(1), t(2), 'a'],
      ['d', t(7), t(8), 'd'],
      ['b', t(3), t(4), 'b']
    ])
  }
  describeOperation(harness, {
    title: 'findSessions',
    checks: [
      {
        title:
          'findSessions(key, earliestEnd, latestStart) returns the sessions ending at or after earliestEnd and starting at or before latestStart',
        run: oneKey,
        verify(store) {
          expect(sessionEntries(store.findSessions(s('a'), t(2), t(4)))).to.deep.equal([e('a', 1, 2, 'a12'), e('a', 4, 5, 'a45')])
          expect(sessionEntries(store.findSessions(s('a'), t(5), t(5)))).to.deep.equal([e('a', 4, 5, 'a45')])
          expect(sessionEntries(store.findSessions(s('a'), t(2) + 1, t(4) - 1))).to.deep.equal([])
          expect(sessionEntries(store.findSessions(s('a'), 0, ANY_START))).to.deep.equal([
            e('a', 1, 2, 'a12'),
            e('a', 4, 5, 'a45'),
            e('a', 7, 8, 'a78')
          ])
          expect(sessionEntries(store.findSessions(s('a'), t(8) + 1, ANY_START))).to.deep.equal([])
          expect(sessionEntries(store.findSessions(s('b'), t(3), t(3)))).to.deep.equal([e('b', 3, 3, 'b3')])
        }
      },
      {
        title: 'findSessions(key, ...) returns no session of keys that extend the key',
        run: oneKey,
        verify(store) {
          expect(sessionEntries(store.findSessions(s('ab'), 0, ANY_START))).to.deep.equal([e('ab', 4, 5, 'ab45')])
          expect(sessionEntries(store.findSessions(s('c'), 0, ANY_START))).to.deep.equal([])
        }
      },
      {
        title: 'findSessions(keyFrom, keyTo, earliestEnd, latestStart) applies the key range, bounds inclusive',
        run: aligned,
        verify(store) {
          expect(sessionEntries(store.findSessions(s('b'), s('c'), 0, ANY_START))).to.deep.equal([e('b', 3, 4, 'b'), e('c', 5, 6, 'c')])
          expect(sessionEntries(store.findSessions(s('a'), s('d'), t(4), t(5)))).to.deep.equal([e('b', 3, 4, 'b'), e('c', 5, 6, 'c')])
          expect(sessionEntries(store.findSessions(s('aa'), s('bb'), 0, ANY_START))).to.deep.equal([e('b', 3, 4, 'b')])
        }
      },
      {
        title: 'an undefined key bound is open; keyFrom after keyTo is empty',
        run: aligned,
        verify(store) {
          expect(sessionEntries(store.findSessions(undefined, s('b'), 0, ANY_START))).to.deep.equal([e('a', 1, 2, 'a'), e('b', 3, 4, 'b')])
          expect(sessionEntries(store.findSessions(s('c'), undefined, 0, ANY_START))).to.deep.equal([e('c', 5, 6, 'c'), e('d', 7, 8, 'd')])
          expect(sessionEntries(store.findSessions(undefined, undefined, t(4), t(5)))).to.deep.equal([e('b', 3, 4, 'b'), e('c', 5, 6, 'c')])
          expect(sessionEntries(store.findSessions(s('c'), s('a'), 0, ANY_START))).to.deep.equal([])
        }
      },
      {
        title: 'findSessions(earliestEnd, latestEnd) returns every session whose end is in that range, bounds inclusive',
        run: aligned,
        verify(store) {
          expect(sessionEntries(store.findSessions(t(4), t(6)))).to.deep.equal([e('b', 3, 4, 'b'), e('c', 5, 6, 'c')])
          expect(sessionEntries(store.findSessions(t(2), t(5)))).to.deep.equal([e('a', 1, 2, 'a'), e('b', 3, 4, 'b')])
          expect(sessionEntries(store.findSessions(t(4) + 1, t(6) - 1))).to.deep.equal([])
          expect(sessionEntries(store.findSessions(t(6), t(4)))).to.deep.equal([])
        }
      },
      {
        title: 'returns every match when keys and ends interleave',
        run(store) {
          putSessions(store, [
            ['b', t(1), t(2), 'b2'],
            ['a', t(3), t(4), 'a4'],
            ['b', t(5), t(6), 'b6']
          ])
        },
        verify(store) {
          const all = sorted([e('a', 3, 4, 'a4'), e('b', 1, 2, 'b2'), e('b', 5, 6, 'b6')])
          expect(sorted(sessionEntries(store.findSessions(s('a'), s('b'), 0, ANY_START)))).to.deep.equal(all)
          expect(sorted(sessionEntries(store.findSessions(0, ANY_START)))).to.deep.equal(all)
        }
      },
      {
        title: 'an empty store gives an empty iterator',
        run(store) {
          expect(sessionEntries(store.findSessions(s('a'), 0, ANY_START))).to.deep.equal([])
          expect(sessionEntries(store.findSessions(undefined, undefined, 0, ANY_START))).to.deep.equal([])
          expect(sessionEntries(store.findSessions(0, ANY_START))).to.deep.equal([])
        }
      }
    ],
    seed: aligned,
    closedStoreCalls: {
      'findSessions(key, earliestEnd, latestStart)': store => store.findSessions(s('a'), 0, ANY_START),
      'findSessions(keyFrom, keyTo, earliestEnd, latestStart)': store => store.findSessions(s('a'), s('b'), 0, ANY_START),
      'findSessions(earliestEnd, latestEnd)': store => store.findSessions(0, ANY_START)
    }
  })
}
