/**
 * Compliance checks for retention: stream time is the greatest window start put so far; a window
 * whose start is at or before `streamTime - retentionPeriod` is expired: a put into it is dropped
 * and no read returns it. Expiry is checked right after the writes (a backend may drop expired
 * data lazily, and after a reopen it only knows the stream time again once it sees a put).
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import type { StoreCheck } from './operation-runner.js'
import { fetchText, putAll, s, timeEntries, windowedEntries, windowEntry, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowRetentionCompliance(harness: WindowStoreHarness): void {
  const { t, retention: R, windowSize } = windowTimes(harness)
  const T = t(2)
  const e = (key: string, start: number, value: string): string => windowEntry(key, start, value, windowSize)
  const checks: Array<StoreCheck<BytesWindowStore>> = [
    {
      title: 'a window expires once stream time reaches its start + retentionPeriod',
      run(store) {
        putAll(store, [
          ['a', T, 'old'],
          ['b', T + R - 1, 'mid']
        ])
        expect(timeEntries(store.fetch(s('a'), 0, T + R))).to.deep.equal([`${T}=old`])
        if (!harness.retainDuplicates) expect(fetchText(store, 'a', T)).to.equal('old')
        putAll(store, [['c', T + R, 'new']])
        expect(timeEntries(store.fetch(s('a'), 0, T + R))).to.deep.equal([])
        expect(timeEntries(store.backwardFetch(s('a'), 0, T + R))).to.deep.equal([])
        if (!harness.retainDuplicates) expect(fetchText(store, 'a', T)).to.equal(null)
        const live = [e('b', T + R - 1, 'mid'), e('c', T + R, 'new')]
        expect(windowedEntries(store.fetchAll(0, T + R))).to.deep.equal(live)
        expect(windowedEntries(store.backwardFetchAll(0, T + R))).to.deep.equal([...live].reverse())
        expect(windowedEntries(store.fetch(s('a'), s('c'), 0, T + R))).to.deep.equal(live)
        expect(windowedEntries(store.fetch(undefined, undefined, 0, T + R))).to.deep.equal(live)
        expect(windowedEntries(store.all())).to.deep.equal(live)
        expect(windowedEntries(store.backwardAll())).to.deep.equal([...live].reverse())
      }
    },
    {
      title: 'a put into an expired window is dropped; the oldest live window still takes puts',
      run(store) {
        putAll(store, [
          ['x', T + R, 'x'],
          ['a', T, 'dropped']
        ])
        expect(timeEntries(store.fetch(s('a'), 0, T + R))).to.deep.equal([])
        expect(windowedEntries(store.all())).to.deep.equal([e('x', T + R, 'x')])
        putAll(store, [['a', T + 1, 'kept']])
        expect(timeEntries(store.fetch(s('a'), 0, T + R))).to.deep.equal([`${T + 1}=kept`])
        if (!harness.retainDuplicates) expect(fetchText(store, 'a', T + 1)).to.equal('kept')
      }
    },
    {
      title: 'stream time does not go back: an older put does not revive expired windows',
      run(store) {
        putAll(store, [
          ['a', T, 'old'],
          ['a', T + 1, 'live'],
          ['b', T + R, 'new'],
          ['b', T + 2, 'older']
        ])
        expect(timeEntries(store.fetch(s('a'), 0, T + R))).to.deep.equal([`${T + 1}=live`])
        expect(timeEntries(store.fetch(s('b'), 0, T + R))).to.deep.equal([`${T + 2}=older`, `${T + R}=new`])
      }
    },
    {
      title: 'a time range reaching before the retention horizon returns only the live windows',
      run(store) {
        putAll(store, [
          ['a', T, '0'],
          ['a', T + 1, '1'],
          ['a', T + R, 'R']
        ])
        expect(timeEntries(store.fetch(s('a'), 0, T + R))).to.deep.equal([`${T + 1}=1`, `${T + R}=R`])
        expect(timeEntries(store.backwardFetch(s('a'), 0, T + R))).to.deep.equal([`${T + R}=R`, `${T + 1}=1`])
        expect(timeEntries(store.fetch(s('a'), T, T))).to.deep.equal([])
      }
    }
  ]
  if (harness.persistent && harness.reopen !== undefined) {
    checks.push({
      title: 'after a reopen, windows that expired stay hidden once stream time is seen again',
      async run(store, context) {
        putAll(store, [
          ['a', T, 'old'],
          ['c', T + R, 'new']
        ])
        await context.commit()
        const reopened = await context.reopen()
        putAll(reopened, [['d', T + R, 'd']])
        expect(timeEntries(reopened.fetch(s('a'), 0, T + R))).to.deep.equal([])
        expect(timeEntries(reopened.fetch(s('c'), 0, T + R))).to.deep.equal([`${T + R}=new`])
      }
    })
  }
  describeOperation(harness, { title: 'retention', checks })
}
