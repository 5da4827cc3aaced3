/**
 * Compliance checks for fetchAll and backwardFetchAll: windowed entries of every key whose window
 * start is in [timeFrom, timeTo] (inclusive), oldest first (newest first backward).
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import { putAll, sorted, windowedEntries, windowEntry, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowFetchAllCompliance(harness: WindowStoreHarness): void {
  const { t, windowSize } = windowTimes(harness)
  const e = (key: string, i: number, value: string): string => windowEntry(key, t(i), value, windowSize)
  const write = (store: BytesWindowStore): void => {
    putAll(store, [
      ['c', t(3), 'c3'],
      ['a', t(1), 'a1'],
      ['d', t(4), 'd4'],
      ['b', t(2), 'b2']
    ])
  }
  describeOperation(harness, {
    title: 'fetchAll and backwardFetchAll',
    checks: [
      {
        title: 'fetchAll returns every key with a window starting in [timeFrom, timeTo], oldest first',
        run: write,
        verify(store) {
          expect(windowedEntries(store.fetchAll(t(2), t(3)))).to.deep.equal([e('b', 2, 'b2'), e('c', 3, 'c3')])
          expect(windowedEntries(store.fetchAll(t(0), t(9)))).to.deep.equal([
            e('a', 1, 'a1'),
            e('b', 2, 'b2'),
            e('c', 3, 'c3'),
            e('d', 4, 'd4')
          ])
          expect(windowedEntries(store.fetchAll(t(1) + 1, t(2) - 1))).to.deep.equal([])
        }
      },
      {
        title: 'backwardFetchAll returns them newest first',
        run: write,
        verify(store) {
          expect(windowedEntries(store.backwardFetchAll(t(2), t(4)))).to.deep.equal([e('d', 4, 'd4'), e('c', 3, 'c3'), e('b', 2, 'b2')])
        }
      },
      {
        title: 'keys sharing a window come in byte order (descending backward)',
        run(store) {
          putAll(store, [
            ['b', t(1), 'b'],
            ['a', t(1), 'a'],
            ['c', t(2), 'c']
          ])
        },
        verify(store) {
          expect(windowedEntries(store.fetchAll(t(0), t(9)))).to.deep.equal([e('a', 1, 'a'), e('b', 1, 'b'), e('c', 2, 'c')])
          expect(windowedEntries(store.backwardFetchAll(t(0), t(9)))).to.deep.equal([e('c', 2, 'c'), e('b', 1, 'b'), e('a', 1, 'a')])
        }
      },
      {
        title: 'returns every match when keys and windows interleave',
        run(store) {
          putAll(store, [
            ['b', t(1), 'b1'],
            ['a', t(2), 'a2'],
            ['b', t(3), 'b3']
          ])
        },
        verify(store) {
          const expected = sorted([e('b', 1, 'b1'), e('a', 2, 'a2'), e('b', 3, 'b3')])
          expect(sorted(windowedEntries(store.fetchAll(t(0), t(9))))).to.deep.equal(expected)
          expect(sorted(windowedEntries(store.backwardFetchAll(t(0), t(9))))).to.deep.equal(expected)
        }
      },
      {
        title: 'timeFrom after timeTo, and an empty store, give an empty iterator',
        run(store) {
          expect(windowedEntries(store.fetchAll(t(0), t(9)))).to.deep.equal([])
          write(store)
        },
        verify(store) {
          expect(windowedEntries(store.fetchAll(t(3), t(1)))).to.deep.equal([])
          expect(windowedEntries(store.backwardFetchAll(t(3), t(1)))).to.deep.equal([])
        }
      }
    ],
    seed: write,
    closedStoreCalls: {
      fetchAll: store => store.fetchAll(t(0), t(9)),
      backwardFetchAll: store => store.backwardFetchAll(t(0), t(9))
    }
  })
}
