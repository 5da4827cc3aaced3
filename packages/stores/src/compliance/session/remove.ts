/**
 * Compliance checks for remove(sessionKey): removes exactly that session; removing a session
 * that is not there does nothing.
 */
import { expect } from 'chai'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import { fetchSessionText, putSessions, s, session, sessionEntries, sessionEntry, sessionTimes, sorted } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

export function sessionRemoveCompliance(harness: SessionStoreHarness): void {
  const { t } = sessionTimes(harness)
  const write = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['a', t(1), t(2), 'a12'],
      ['a', t(3), t(4), 'a34'],
      ['b', t(1), t(2), 'b12']
    ])
  }
  describeOperation(harness, {
    title: 'remove',
    checks: [
      {
        title: 'removes exactly the given session',
        run(store) {
          write(store)
          store.remove(session('a', t(1), t(2)))
        },
        verify(store) {
          expect(fetchSessionText(store, 'a', t(1), t(2))).to.equal(null)
          expect(fetchSessionText(store, 'a', t(3), t(4))).to.equal('a34')
          expect(fetchSessionText(store, 'b', t(1), t(2))).to.equal('b12')
          expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([sessionEntry('a', t(3), t(4), 'a34')])
        }
      },
      {
        title: 'removing a session that is not there does nothing',
        run(store) {
          write(store)
          store.remove(session('a', t(1), t(3)))
          store.remove(session('a', t(0), t(2)))
          store.remove(session('c', t(1), t(2)))
          store.remove(session('a', t(1), t(2)))
          store.remove(session('a', t(1), t(2)))
        },
        verify(store) {
          // Keys and ends interleave here, so the order is the backend's: compare as sets.
          expect(sorted(sessionEntries(store.fetch(undefined, undefined)))).to.deep.equal(
            sorted([sessionEntry('a', t(3), t(4), 'a34'), sessionEntry('b', t(1), t(2), 'b12')])
          )
        }
      },
      {
        title: 'a removed session can be written again',
        run(store) {
          write(store)
          store.remove(session('a', t(1), t(2)))
          putSessions(store, [['a', t(1), t(2), 'again']])
        },
        verify(store) {
          expect(fetchSessionText(store, 'a', t(1), t(2))).to.equal('again')
        }
      }
    ],
    seed: write,
    closedStoreCalls: {
      remove: store => {
        store.remove(session('a', t(1), t(2)))
      }
    }
  })
}
