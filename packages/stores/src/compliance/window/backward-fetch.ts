/**
 * Compliance checks for backwardFetch: the same entries as fetch, in reverse order (newest window
 * first; keys of one window in descending byte order).
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import { putAll, s, sorted, timeEntries, windowedEntries, windowEntry, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowBackwardFetchCompliance(harness: WindowStoreHarness): void {
  const { t, windowSize } = windowTimes(harness)
  const e = (key: string, i: number, value: string): string => windowEntry(key, t(i), value, windowSize)
  const write = (store: BytesWindowStore): void => {
    putAll(store, [
      ['a', t(1), 'a1'],
      ['a', t(3), 'a3'],
      ['b', t(4), 'b4'],
      ['a', t(2), 'a2'],
      ['c', t(5), 'c5']
    ])
  }
  describeOperation(harness, {
    title: 'backwardFetch',
    checks: [
      {
        title: 'backwardFetch(key, timeFrom, timeTo) returns the windows newest first, bounds inclusive',
        run: write,
        verify(store) {
          expect(timeEntries(store.backwardFetch(s('a'), t(1), t(3)))).to.deep.equal([`${t(3)}=a3`, `${t(2)}=a2`, `${t(1)}=a1`])
          expect(timeEntries(store.backwardFetch(s('a'), t(2), t(2)))).to.deep.equal([`${t(2)}=a2`])
          expect(timeEntries(store.backwardFetch(s('a'), t(3), t(1)))).to.deep.equal([])
          expect(timeEntries(store.backwardFetch(s('z'), t(0), t(9)))).to.deep.equal([])
        }
      },
      {
        title: 'backwardFetch(keyFrom, keyTo, timeFrom, timeTo) returns the entries of fetch, reversed',
        run(store) {
          putAll(store, [
            ['a', t(1), 'a1'],
            ['b', t(2), 'b2'],
            ['c', t(3), 'c3'],
            ['d', t(4), 'd4']
          ])
        },
        verify(store) {
          expect(windowedEntries(store.backwardFetch(s('b'), s('d'), t(0), t(9)))).to.deep.equal([
            e('d', 4, 'd4'),
            e('c', 3, 'c3'),
            e('b', 2, 'b2')
          ])
          expect(windowedEntries(store.backwardFetch(undefined, s('b'), t(0), t(9)))).to.deep.equal([e('b', 2, 'b2'), e('a', 1, 'a1')])
          expect(windowedEntries(store.backwardFetch(s('c'), undefined, t(0), t(9)))).to.deep.equal([e('d', 4, 'd4'), e('c', 3, 'c3')])
          expect(windowedEntries(store.backwardFetch(s('a'), s('d'), t(2), t(3)))).to.deep.equal([e('c', 3, 'c3'), e('b', 2, 'b2')])
          expect(windowedEntries(store.backwardFetch(s('d'), s('a'), t(0), t(9)))).to.deep.equal([])
        }
      },
      {
        title: 'keys of one window come in descending byte order',
        run(store) {
          putAll(store, [
            ['b', t(1), '2'],
            ['a', t(1), '1'],
            ['c', t(1), '3']
          ])
        },
        verify(store) {
          expect(windowedEntries(store.backwardFetch(undefined, undefined, t(1), t(1)))).to.deep.equal([
            e('c', 1, '3'),
            e('b', 1, '2'),
            e('a', 1, '1')
          ])
        }
      },
      {
        title: 'returns the same entries as fetch when keys and windows interleave',
        run: write,
        verify(store) {
          expect(sorted(windowedEntries(store.backwardFetch(s('a'), s('b'), t(0), t(9))))).to.deep.equal(
            sorted(windowedEntries(store.fetch(s('a'), s('b'), t(0), t(9))))
          )
        }
      }
    ],
    seed: write,
    closedStoreCalls: {
      'backwardFetch(key, timeFrom, timeTo)': store => store.backwardFetch(s('a'), t(0), t(9)),
      'backwardFetch(keyFrom, keyTo, timeFrom, timeTo)': store => store.backwardFetch(s('a'), s('b'), t(0), t(9))
    }
  })
}
