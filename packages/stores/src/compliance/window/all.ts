/**
 * Compliance checks for all and backwardAll: every live window of every key, oldest first (newest
 * first backward).
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import { putAll, windowedEntries, windowEntry, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowAllCompliance(harness: WindowStoreHarness): void {
  const { t, windowSize } = windowTimes(harness)
  const e = (key: string, i: number, value: string): string => windowEntry(key, t(i), value, windowSize)
  const write = (store: BytesWindowStore): void => {
    putAll(store, [
      ['c', t(3), 'c3'],
      ['a', t(0), 'a0'],
      ['b', t(1), 'b1'],
      ['b', t(2), 'b2'],
      ['d', t(9), 'd9']
    ])
  }
  const forward = [e('a', 0, 'a0'), e('b', 1, 'b1'), e('b', 2, 'b2'), e('c', 3, 'c3'), e('d', 9, 'd9')]
  describeOperation(harness, {
    title: 'all and backwardAll',
    checks: [
      {
        title: 'all returns every window of every key, oldest first',
        run: write,
        verify(store) {
          expect(windowedEntries(store.all())).to.deep.equal(forward)
        }
      },
      {
        title: 'backwardAll returns them newest first',
        run: write,
        verify(store) {
          expect(windowedEntries(store.backwardAll())).to.deep.equal([...forward].reverse())
        }
      },
      {
        title: 'an empty store gives an empty iterator',
        run(store) {
          expect(windowedEntries(store.all())).to.deep.equal([])
          expect(windowedEntries(store.backwardAll())).to.deep.equal([])
        }
      },
      ...(harness.retainDuplicates
        ? []
        : [
            {
              title: 'reflects overwrites and deletes',
              run(store: BytesWindowStore) {
                write(store)
                store.put(Buffer.from('b'), Buffer.from('B1'), t(1))
                store.put(Buffer.from('c'), null, t(3))
              },
              verify(store: BytesWindowStore) {
                expect(windowedEntries(store.all())).to.deep.equal([e('a', 0, 'a0'), e('b', 1, 'B1'), e('b', 2, 'b2'), e('d', 9, 'd9')])
              }
            }
          ])
    ],
    seed: write,
    closedStoreCalls: {
      all: store => store.all(),
      backwardAll: store => store.backwardAll()
    }
  })
}
