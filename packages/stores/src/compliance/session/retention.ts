/**
 * Compliance checks for retention: stream time is the greatest session end put so far; a session
 * whose end is at or before `streamTime - retentionPeriod` is expired: a put of it is dropped and
 * no read returns it. A session that started before that horizon but ends after it is live.
 * Expiry is checked right after the writes (see the window retention module).
 */
import { expect } from 'chai'
import type { SessionStoreHarness } from '../harness.js'
import { describeOperation } from '../window/operation-runner.js'
import type { StoreCheck } from '../window/operation-runner.js'
import { ANY_START, fetchSessionText, putSessions, s, sessionEntries, sessionEntry, sessionTimes } from './fixtures.js'
import type { BytesSessionStore } from './fixtures.js'

export function sessionRetentionCompliance(harness: SessionStoreHarness): void {
  const { t, retention: R } = sessionTimes(harness)
  const T = t(2)
  const checks: Array<StoreCheck<BytesSessionStore>> = [
    {
      title: 'a session expires once stream time reaches its end + retentionPeriod',
      run(store) {
        putSessions(store, [
          ['a', T, T, 'old'],
          ['b', T + 1, T + R - 1, 'mid']
        ])
        expect(fetchSessionText(store, 'a', T, T)).to.equal('old')
        putSessions(store, [['c', T + R, T + R, 'new']])
        expect(fetchSessionText(store, 'a', T, T)).to.equal(null)
        expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([])
        expect(sessionEntries(store.findSessions(s('a'), 0, ANY_START))).to.deep.equal([])
        expect(sessionEntries(store.backwardFindSessions(s('a'), 0, ANY_START))).to.deep.equal([])
        const live = [sessionEntry('b', T + 1, T + R - 1, 'mid'), sessionEntry('c', T + R, T + R, 'new')]
        expect(sessionEntries(store.findSessions(undefined, undefined, 0, ANY_START))).to.deep.equal(live)
        expect(sessionEntries(store.findSessions(0, ANY_START))).to.deep.equal(live)
        expect(sessionEntries(store.fetch(undefined, undefined))).to.deep.equal(live)
        expect(sessionEntries(store.backwardFetch(undefined, undefined))).to.deep.equal([...live].reverse())
      }
    },
    {
      title: 'a put of an expired session is dropped; a session ending after the horizon is kept',
      run(store) {
        putSessions(store, [
          ['x', T + R, T + R, 'x'],
          ['a', T, T, 'dropped'],
          ['a', 0, T + 1, 'kept']
        ])
        expect(fetchSessionText(store, 'a', T, T)).to.equal(null)
        expect(fetchSessionText(store, 'a', 0, T + 1)).to.equal('kept')
        expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([sessionEntry('a', 0, T + 1, 'kept')])
      }
    },
    {
      title: 'stream time does not go back: an older put does not revive expired sessions',
      run(store) {
        putSessions(store, [
          ['a', T, T, 'old'],
          ['b', T + R, T + R, 'new'],
          ['a', T + 1, T + 2, 'older']
        ])
        expect(sessionEntries(store.fetch(s('a')))).to.deep.equal([sessionEntry('a', T + 1, T + 2, 'older')])
      }
    }
  ]
  if (harness.persistent && harness.reopen !== undefined) {
    checks.push({
      title: 'after a reopen, sessions that expired stay hidden once stream time is seen again',
      async run(store, context) {
        putSessions(store, [
          ['a', T, T, 'old'],
          ['c', T + R, T + R, 'new']
        ])
        await context.commit()
        const reopened = await context.reopen()
        putSessions(reopened, [['d', T + R, T + R, 'd']])
        expect(fetchSessionText(reopened, 'a', T, T)).to.equal(null)
        expect(sessionEntries(reopened.fetch(s('a')))).to.deep.equal([])
        expect(fetchSessionText(reopened, 'c', T + R, T + R)).to.equal('new')
      }
    })
  }
  describeOperation(harness, { title: 'retention', checks })
}
