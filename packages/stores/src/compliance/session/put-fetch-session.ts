/**
 * Compliance checks for put and fetchSession(key, sessionStart, sessionEnd): a session is found
 * only by its exact key, start and end; a put replaces the aggregate of the same session and a
 * null put removes it.
 */
import { expect } from 'chai'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import { ANY_START, fetchSessionText, putSessions, s, session, sessionEntries, sessionEntry, sessionTimes } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

export function sessionPutFetchCompliance(harness: SessionStoreHarness): void {
  const { t } = sessionTimes(harness)
  const write = (store: BytesSessionStore): void => {
    putSessions(store, [
      ['a', t(1), t(2), 'a12'],
      ['b', t(1), t(2), 'b12'],
      ['a', t(3), t(5), 'a35']
    ])
  }
  describeOperation(harness, {
    title: 'put and fetchSession',
    checks: [
      {
        title: 'fetchSession returns the aggregate of exactly that key, start and end, or null',
        run(store) {
          expect(fetchSessionText(store, 'a', t(1), t(2))).to.equal(null)
          write(store)
        },
        verify(store) {
          expect(fetchSessionText(store, 'a', t(1), t(2))).to.equal('a12')
          expect(fetchSessionText(store, 'b', t(1), t(2))).to.equal('b12')
          expect(fetchSessionText(store, 'a', t(3), t(5))).to.equal('a35')
          expect(fetchSessionText(store, 'a', t(1), t(5))).to.equal(null)
          expect(fetchSessionText(store, 'a', t(3), t(2))).to.equal(null)
          expect(fetchSessionText(store, 'c', t(1), t(2))).to.equal(null)
          expect(fetchSessionText(store, 'ab', t(1), t(2))).to.equal(null)
        }
      },
      {
        title: 'a put replaces the aggregate of the same session',
        run(store) {
          putSessions(store, [
            ['a', t(1), t(2), 'x'],
            ['a', t(1), t(2), 'y']
          ])
        },
        verify(store) {
          expect(fetchSessionText(store, 'a', t(1), t(2))).to.equal('y')
          expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([sessionEntry('a', t(1), t(2), 'y')])
        }
      },
      {
        title: 'a null put removes that session only',
        run(store) {
          write(store)
          store.put(session('a', t(1), t(2)), null)
          store.put(session('z', t(1), t(2)), null)
        },
        verify(store) {
          expect(fetchSessionText(store, 'a', t(1), t(2))).to.equal(null)
          expect(fetchSessionText(store, 'b', t(1), t(2))).to.equal('b12')
          expect(sessionEntries(store.findSessions(s('a'), 0, ANY_START))).to.deep.equal([sessionEntry('a', t(3), t(5), 'a35')])
        }
      },
      {
        title: 'a session may start and end at the same time, also at 0',
        run(store) {
          putSessions(store, [
            ['a', 0, 0, 'zero'],
            ['a', t(1), t(1), 'point']
          ])
        },
        verify(store) {
          expect(fetchSessionText(store, 'a', 0, 0)).to.equal('zero')
          expect(fetchSessionText(store, 'a', t(1), t(1))).to.equal('point')
          expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([
            sessionEntry('a', 0, 0, 'zero'),
            sessionEntry('a', t(1), t(1), 'point')
          ])
        }
      },
      {
        title: 'keys are compared by bytes; an empty aggregate is a value',
        run(store) {
          store.put(session('k', t(1), t(2)), Buffer.alloc(0))
        },
        verify(store) {
          expect(store.fetchSession(Buffer.from('k'), t(1), t(2))?.length).to.equal(0)
        }
      }
    ],
    seed: write,
    closedStoreCalls: {
      put: store => store.put(session('c', t(1), t(2)), s('c')),
      'put(null)': store => store.put(session('a', t(1), t(2)), null),
      fetchSession: store => store.fetchSession(s('a'), t(1), t(2))
    }
  })
}
