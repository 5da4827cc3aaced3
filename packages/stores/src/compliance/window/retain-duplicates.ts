/**
 * Compliance checks for retainDuplicates. With it (the stores of stream-stream joins), every put is
 * kept under its own sequence number: puts of one key and window are all returned, in put order,
 * and a null put deletes nothing. Without it, a put replaces the value of its key and window.
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import type { StoreCheck } from './operation-runner.js'
import { putAll, s, timeEntries, windowedEntries, windowEntry, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowRetainDuplicatesCompliance(harness: WindowStoreHarness): void {
  const { t, windowSize } = windowTimes(harness)
  const e = (key: string, i: number, value: string): string => windowEntry(key, t(i), value, windowSize)
  const duplicates: Array<StoreCheck<BytesWindowStore>> = [
    {
      title: 'every put of a key and window is kept, in put order',
      run(store) {
        putAll(store, [
          ['a', t(1), 'x'],
          ['a', t(1), 'y'],
          ['a', t(1), 'x'],
          ['a', t(2), 'z']
        ])
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), t(1), t(1)))).to.deep.equal([`${t(1)}=x`, `${t(1)}=y`, `${t(1)}=x`])
        expect(timeEntries(store.backwardFetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(2)}=z`, `${t(1)}=x`, `${t(1)}=y`, `${t(1)}=x`])
        expect(windowedEntries(store.fetchAll(t(1), t(1)))).to.deep.equal([e('a', 1, 'x'), e('a', 1, 'y'), e('a', 1, 'x')])
        expect(windowedEntries(store.all())).to.deep.equal([e('a', 1, 'x'), e('a', 1, 'y'), e('a', 1, 'x'), e('a', 2, 'z')])
      }
    },
    {
      title: 'a null put is ignored',
      run(store) {
        putAll(store, [['a', t(1), 'x']])
        store.put(s('a'), null, t(1))
        store.put(s('b'), null, t(1))
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(1)}=x`])
        expect(windowedEntries(store.all())).to.deep.equal([e('a', 1, 'x')])
      }
    },
    {
      title: 'duplicates of a key are not mixed up with keys it is a prefix of',
      run(store) {
        putAll(store, [
          ['a', t(1), 'a1'],
          ['ab', t(1), 'ab1'],
          ['a', t(1), 'a2'],
          ['aa', t(1), 'aa1']
        ])
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(1)}=a1`, `${t(1)}=a2`])
        expect(timeEntries(store.fetch(s('ab'), t(0), t(9)))).to.deep.equal([`${t(1)}=ab1`])
        expect(windowedEntries(store.fetch(s('a'), s('a'), t(0), t(9)))).to.deep.equal([e('a', 1, 'a1'), e('a', 1, 'a2')])
        expect(windowedEntries(store.fetch(s('aa'), s('ab'), t(0), t(9)))).to.deep.equal([e('aa', 1, 'aa1'), e('ab', 1, 'ab1')])
      }
    },
    {
      title: 'windowed keys carry the key without its sequence number',
      run(store) {
        putAll(store, [
          ['k', t(1), 'v'],
          ['k', t(1), 'w']
        ])
      },
      verify(store) {
        const iterator = store.fetchAll(t(0), t(9))
        const keys = [...iterator].map(kv => kv.key.key.toString('hex'))
        iterator.close()
        expect(keys).to.deep.equal([s('k').toString('hex'), s('k').toString('hex')])
      }
    }
  ]
  const unique: Array<StoreCheck<BytesWindowStore>> = [
    {
      title: 'without retainDuplicates a put replaces the value of its key and window',
      run(store) {
        putAll(store, [
          ['a', t(1), 'x'],
          ['a', t(1), 'y']
        ])
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(1)}=y`])
        expect(windowedEntries(store.all())).to.deep.equal([e('a', 1, 'y')])
      }
    }
  ]
  describeOperation(harness, {
    title: harness.retainDuplicates ? 'retainDuplicates' : 'no retainDuplicates',
    checks: harness.retainDuplicates ? duplicates : unique
  })
}
