/**
 * Compliance checks for fetch(keyFrom, keyTo, timeFrom, timeTo): windowed entries of the keys in
 * [keyFrom, keyTo] (unsigned byte order, undefined = open) whose window start is in
 * [timeFrom, timeTo]. Backends order keys of one window by bytes and windows by start; across
 * keys and windows that interleave the order depends on the backend's key layout (Kafka's
 * in-memory store is time-first, its RocksDB store key-first), so such data is compared as sets.
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import { putAll, s, sorted, windowedEntries, windowEntry, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowFetchKeyRangeCompliance(harness: WindowStoreHarness): void {
  const { t, windowSize } = windowTimes(harness)
  const e = (key: string, i: number, value: string): string => windowEntry(key, t(i), value, windowSize)
  /** Key order and time order agree, so every backend returns the same order. */
  const write = (store: BytesWindowStore): void => {
    putAll(store, [
      ['c', t(3), 'c3'],
      ['a', t(1), 'a1'],
      ['d', t(4), 'd4'],
      ['b', t(2), 'b2']
    ])
  }
  describeOperation(harness, {
    title: 'fetch(keyFrom, keyTo, timeFrom, timeTo)',
    checks: [
      {
        title: 'returns the windows of keys in [keyFrom, keyTo] starting in [timeFrom, timeTo], all bounds inclusive',
        run: write,
        verify(store) {
          expect(windowedEntries(store.fetch(s('b'), s('c'), t(0), t(9)))).to.deep.equal([e('b', 2, 'b2'), e('c', 3, 'c3')])
          expect(windowedEntries(store.fetch(s('a'), s('d'), t(2), t(3)))).to.deep.equal([e('b', 2, 'b2'), e('c', 3, 'c3')])
          expect(windowedEntries(store.fetch(s('a'), s('a'), t(1), t(1)))).to.deep.equal([e('a', 1, 'a1')])
        }
      },
      {
        title: 'the window of a windowed key is [start, start + windowSize)',
        run: write,
        verify(store) {
          const iterator = store.fetch(s('a'), s('a'), t(0), t(9))
          const entry = iterator.next().value
          iterator.close()
          expect(entry?.key.key.toString()).to.equal('a')
          expect(entry?.key.window.start).to.equal(t(1))
          expect(entry?.key.window.end).to.equal(t(1) + windowSize)
        }
      },
      {
        title: 'key bounds need not be keys of the store',
        run: write,
        verify(store) {
          expect(windowedEntries(store.fetch(s('aa'), s('cc'), t(0), t(9)))).to.deep.equal([e('b', 2, 'b2'), e('c', 3, 'c3')])
          expect(windowedEntries(store.fetch(s('ba'), s('bz'), t(0), t(9)))).to.deep.equal([])
        }
      },
      {
        title: 'an undefined key bound is open',
        run: write,
        verify(store) {
          expect(windowedEntries(store.fetch(undefined, s('b'), t(0), t(9)))).to.deep.equal([e('a', 1, 'a1'), e('b', 2, 'b2')])
          expect(windowedEntries(store.fetch(s('c'), undefined, t(0), t(9)))).to.deep.equal([e('c', 3, 'c3'), e('d', 4, 'd4')])
          expect(windowedEntries(store.fetch(undefined, undefined, t(2), t(3)))).to.deep.equal([e('b', 2, 'b2'), e('c', 3, 'c3')])
        }
      },
      {
        title: 'keyFrom after keyTo (by bytes), or timeFrom after timeTo, is empty, not an error',
        run: write,
        verify(store) {
          expect(windowedEntries(store.fetch(s('c'), s('a'), t(0), t(9)))).to.deep.equal([])
          expect(windowedEntries(store.fetch(s('a'), s('d'), t(3), t(1)))).to.deep.equal([])
        }
      },
      {
        title: 'keys of one window come in unsigned byte order',
        run(store) {
          putAll(store, [
            ['c', t(1), '3'],
            ['\u00e9', t(1), '4'],
            ['a', t(1), '1'],
            ['b', t(1), '2']
          ])
        },
        verify(store) {
          expect(windowedEntries(store.fetch(s('a'), s('\u00e9'), t(1), t(1)))).to.deep.equal([
            e('a', 1, '1'),
            e('b', 1, '2'),
            e('c', 1, '3'),
            e('\u00e9', 1, '4')
          ])
        }
      },
      {
        title: 'returns every match when keys and windows interleave',
        run(store) {
          putAll(store, [
            ['a', t(2), 'a2'],
            ['b', t(1), 'b1'],
            ['a', t(3), 'a3'],
            ['b', t(4), 'b4'],
            ['c', t(2), 'c2']
          ])
        },
        verify(store) {
          expect(sorted(windowedEntries(store.fetch(s('a'), s('b'), t(0), t(9))))).to.deep.equal(
            sorted([e('a', 2, 'a2'), e('a', 3, 'a3'), e('b', 1, 'b1'), e('b', 4, 'b4')])
          )
          expect(sorted(windowedEntries(store.fetch(s('a'), s('c'), t(2), t(2))))).to.deep.equal([e('a', 2, 'a2'), e('c', 2, 'c2')])
        }
      },
      {
        title: 'keys that extend a bound are ordered after it',
        run(store) {
          putAll(store, [
            ['ab', t(1), 'ab'],
            ['a', t(1), 'a'],
            ['b', t(1), 'b']
          ])
        },
        verify(store) {
          expect(windowedEntries(store.fetch(s('a'), s('a'), t(0), t(9)))).to.deep.equal([e('a', 1, 'a')])
          expect(windowedEntries(store.fetch(s('a'), s('ab'), t(0), t(9)))).to.deep.equal([e('a', 1, 'a'), e('ab', 1, 'ab')])
          expect(windowedEntries(store.fetch(s('aa'), s('b'), t(0), t(9)))).to.deep.equal([e('ab', 1, 'ab'), e('b', 1, 'b')])
        }
      }
    ],
    seed: write,
    closedStoreCalls: {
      'fetch(keyFrom, keyTo, timeFrom, timeTo)': store => store.fetch(s('a'), s('b'), t(0), t(9)),
      'fetch(undefined, undefined, timeFrom, timeTo)': store => store.fetch(undefined, undefined, t(0), t(9))
    }
  })
}
