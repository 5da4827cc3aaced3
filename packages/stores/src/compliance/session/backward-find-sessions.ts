/**
 * Compliance checks for backwardFindSessions: the sessions findSessions returns, newest end first
 * (keys of one end in descending byte order).
 */
import { expect } from 'chai'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import { ANY_START, putSessions, s, sessionEntries, sessionEntry, sessionTimes, sorted } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

export function sessionBackwardFindSessionsCompliance(harness: SessionStoreHarness): void {
  const { t } = sessionTimes(harness)
  const e = (key: string, start: number, end: number, value: string): string => sessionEntry(key, t(start), t(end), value)
  const aligned = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['c', t(5), t(6), 'c'],
      ['a', t(1), t(2), 'a'],
      ['d', t(7), t(8), 'd'],
      ['b', t(3), t(4), 'b'],
      ['a', t(3), t(3), 'a3']
    ])
  }
  describeOperation(harness, {
    title: 'backwardFindSessions',
    checks: [
      {
        title: 'backwardFindSessions(key, earliestEnd, latestStart) returns the sessions newest first',
        run: aligned,
        verify(store) {
          expect(sessionEntries(store.backwardFindSessions(s('a'), 0, ANY_START))).to.deep.equal([e('a', 3, 3, 'a3'), e('a', 1, 2, 'a')])
          expect(sessionEntries(store.backwardFindSessions(s('a'), t(3), ANY_START))).to.deep.equal([e('a', 3, 3, 'a3')])
          expect(sessionEntries(store.backwardFindSessions(s('a'), 0, t(1)))).to.deep.equal([e('a', 1, 2, 'a')])
          expect(sessionEntries(store.backwardFindSessions(s('z'), 0, ANY_START))).to.deep.equal([])
        }
      },
      {
        title: 'backwardFindSessions(keyFrom, keyTo, earliestEnd, latestStart) returns the sessions of findSessions, reversed',
        run: aligned,
        verify(store) {
          expect(sessionEntries(store.backwardFindSessions(s('b'), s('d'), 0, ANY_START))).to.deep.equal([
            e('d', 7, 8, 'd'),
            e('c', 5, 6, 'c'),
            e('b', 3, 4, 'b')
          ])
          expect(sessionEntries(store.backwardFindSessions(s('b'), undefined, t(4), t(5)))).to.deep.equal([
            e('c', 5, 6, 'c'),
            e('b', 3, 4, 'b')
          ])
          expect(sessionEntries(store.backwardFindSessions(s('d'), s('a'), 0, ANY_START))).to.deep.equal([])
          expect(sorted(sessionEntries(store.backwardFindSessions(undefined, undefined, 0, ANY_START)))).to.deep.equal(
            sorted(sessionEntries(store.findSessions(undefined, undefined, 0, ANY_START)))
          )
        }
      },
      {
        title: 'keys of one end come in descending byte order',
        run(store) {
          putSessions(store, [
            ['b', t(1), t(2), 'b'],
            ['c', t(1), t(2), 'c'],
            ['a', t(1), t(2), 'a']
          ])
        },
        verify(store) {
          expect(sessionEntries(store.backwardFindSessions(undefined, undefined, 0, ANY_START))).to.deep.equal([
            e('c', 1, 2, 'c'),
            e('b', 1, 2, 'b'),
            e('a', 1, 2, 'a')
          ])
          expect(sessionEntries(store.findSessions(undefined, undefined, 0, ANY_START))).to.deep.equal([
            e('a', 1, 2, 'a'),
            e('b', 1, 2, 'b'),
            e('c', 1, 2, 'c')
          ])
        }
      }
    ],
    seed: aligned,
    closedStoreCalls: {
      'backwardFindSessions(key, ...)': store => store.backwardFindSessions(s('a'), 0, ANY_START),
      'backwardFindSessions(keyFrom, keyTo, ...)': store => store.backwardFindSessions(s('a'), s('b'), 0, ANY_START)
    }
  })
}
