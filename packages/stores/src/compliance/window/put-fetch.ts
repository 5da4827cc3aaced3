/**
 * Compliance checks for put and the single-window fetch(key, windowStart). A store that retains
 * duplicates keeps every put under its own sequence number, so its overwrite, delete and
 * single-window lookups differ by backend (as in Kafka); they are checked by the duplicates
 * module through range fetches instead, and only the checks that hold for both kinds run here.
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import type { StoreCheck } from './operation-runner.js'
import { fetchText, putAll, s, timeEntries, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowPutFetchCompliance(harness: WindowStoreHarness): void {
  const { t } = windowTimes(harness)
  const shared: Array<StoreCheck<BytesWindowStore>> = [
    {
      title: 'a put is found by key and window start, and by no other window',
      run(store) {
        putAll(store, [
          ['a', t(1), '1'],
          ['b', t(1), '2'],
          ['a', t(2), '3']
        ])
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), t(0), t(3)))).to.deep.equal([`${t(1)}=1`, `${t(2)}=3`])
        expect(timeEntries(store.fetch(s('b'), t(0), t(3)))).to.deep.equal([`${t(1)}=2`])
        expect(timeEntries(store.fetch(s('c'), t(0), t(3)))).to.deep.equal([])
      }
    },
    {
      title: 'keys are compared by bytes, not by Buffer identity',
      run(store) {
        store.put(Buffer.from([1, 2, 3]), s('v'), t(1))
      },
      verify(store) {
        expect(timeEntries(store.fetch(Buffer.from([1, 2, 3]), t(1), t(1)))).to.deep.equal([`${t(1)}=v`])
        expect(timeEntries(store.fetch(Buffer.from([1, 2]), t(1), t(1)))).to.deep.equal([])
      }
    },
    {
      title: 'an empty value is a value, not a delete',
      run(store) {
        store.put(s('a'), Buffer.alloc(0), t(1))
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), t(1), t(1)))).to.deep.equal([`${t(1)}=`])
      }
    },
    {
      title: 'window start 0 is a window like any other',
      run(store) {
        putAll(store, [['a', 0, 'zero']])
      },
      verify(store) {
        expect(timeEntries(store.fetch(s('a'), 0, 0))).to.deep.equal(['0=zero'])
      }
    }
  ]
  const unique: Array<StoreCheck<BytesWindowStore>> = [
    {
      title: 'fetch(key, windowStart) returns the value of that window, or null',
      run(store) {
        expect(fetchText(store, 'a', t(1))).to.equal(null)
        putAll(store, [
          ['a', t(1), '1'],
          ['b', t(1), '2'],
          ['a', t(2), '3']
        ])
      },
      verify(store) {
        expect(fetchText(store, 'a', t(1))).to.equal('1')
        expect(fetchText(store, 'b', t(1))).to.equal('2')
        expect(fetchText(store, 'a', t(2))).to.equal('3')
        expect(fetchText(store, 'b', t(2))).to.equal(null)
        expect(fetchText(store, 'c', t(1))).to.equal(null)
        expect(fetchText(store, 'a', t(1) + 1)).to.equal(null)
      }
    },
    {
      title: 'a put replaces the value of the same key and window',
      run(store) {
        putAll(store, [
          ['a', t(1), '1'],
          ['a', t(1), '2']
        ])
      },
      verify(store) {
        expect(fetchText(store, 'a', t(1))).to.equal('2')
        expect(timeEntries(store.fetch(s('a'), t(0), t(3)))).to.deep.equal([`${t(1)}=2`])
      }
    },
    {
      title: 'put(key, null, start) deletes that window of that key only',
      run(store) {
        putAll(store, [
          ['a', t(1), '1'],
          ['a', t(2), '2'],
          ['b', t(1), '3']
        ])
        store.put(s('a'), null, t(1))
        store.put(s('z'), null, t(1))
        store.put(s('a'), null, t(5))
      },
      verify(store) {
        expect(fetchText(store, 'a', t(1))).to.equal(null)
        expect(fetchText(store, 'a', t(2))).to.equal('2')
        expect(fetchText(store, 'b', t(1))).to.equal('3')
        expect(timeEntries(store.fetch(s('a'), t(0), t(5)))).to.deep.equal([`${t(2)}=2`])
      }
    },
    {
      title: 'a window deleted and written again holds the new value',
      run(store) {
        putAll(store, [['a', t(1), '1']])
        store.put(s('a'), null, t(1))
        putAll(store, [['a', t(1), '2']])
      },
      verify(store) {
        expect(fetchText(store, 'a', t(1))).to.equal('2')
      }
    }
  ]
  describeOperation(harness, {
    title: 'put and fetch(key, windowStart)',
    checks: harness.retainDuplicates ? shared : [...unique, ...shared],
    seed(store) {
      putAll(store, [['a', t(1), '1']])
    },
    closedStoreCalls: {
      put: store => store.put(s('b'), s('2'), t(1)),
      'put(null)': store => store.put(s('a'), null, t(1)),
      'fetch(key, windowStart)': store => store.fetch(s('a'), t(1))
    }
  })
}
