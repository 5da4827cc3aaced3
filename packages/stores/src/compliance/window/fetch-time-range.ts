/**
 * Compliance checks for fetch(key, timeFrom, timeTo): the windows of one key whose start is in
 * [timeFrom, timeTo] (both inclusive), oldest first, keyed by window start.
 */
import { expect } from 'chai'
import type { WindowStoreHarness } from '../harness.js'
import { describeOperation } from './operation-runner.js'
import { putAll, s, timeEntries, windowTimes } from './fixtures.js'
import type { BytesWindowStore } from './fixtures.js'

export function windowFetchTimeRangeCompliance(harness: WindowStoreHarness): void {
  const { t } = windowTimes(harness)
  const write = (store: BytesWindowStore): void => {
    putAll(store, [
      ['a', t(3), '3'],
      ['a', t(1), '1'],
      ['b', t(2), 'b2'],
      ['a', t(4), '4'],
      ['a', t(2), '2']
    ])
  }
  describeOperation(harness, {
    title: 'fetch(key, timeFrom, timeTo)',
    checks: [
      {
        title: 'returns the windows starting in [timeFrom, timeTo], oldest first, both bounds inclusive',
        run: write,
        verify(store) {
          expect(timeEntries(store.fetch(s('a'), t(1), t(3)))).to.deep.equal([`${t(1)}=1`, `${t(2)}=2`, `${t(3)}=3`])
          expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(1)}=1`, `${t(2)}=2`, `${t(3)}=3`, `${t(4)}=4`])
          expect(timeEntries(store.fetch(s('b'), t(0), t(9)))).to.deep.equal([`${t(2)}=b2`])
        }
      },
      {
        title: 'bounds need not be window starts',
        run: write,
        verify(store) {
          expect(timeEntries(store.fetch(s('a'), t(1) + 1, t(3) - 1))).to.deep.equal([`${t(2)}=2`])
          expect(timeEntries(store.fetch(s('a'), t(4) + 1, t(9)))).to.deep.equal([])
        }
      },
      {
        title: 'timeFrom equal to timeTo returns that one window',
        run: write,
        verify(store) {
          expect(timeEntries(store.fetch(s('a'), t(2), t(2)))).to.deep.equal([`${t(2)}=2`])
        }
      },
      {
        title: 'timeFrom after timeTo, an unknown key, and an empty store give an empty iterator',
        run(store) {
          expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([])
          write(store)
        },
        verify(store) {
          expect(timeEntries(store.fetch(s('a'), t(3), t(1)))).to.deep.equal([])
          expect(timeEntries(store.fetch(s('c'), t(0), t(9)))).to.deep.equal([])
        }
      },
      {
        title: 'keys that extend the key, or that it extends, are not returned',
        run(store) {
          putAll(store, [
            ['ab', t(1), 'ab'],
            ['a', t(1), 'a'],
            ['aa', t(1), 'aa'],
            ['', t(2), 'empty']
          ])
        },
        verify(store) {
          expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(1)}=a`])
          expect(timeEntries(store.fetch(s('aa'), t(0), t(9)))).to.deep.equal([`${t(1)}=aa`])
          expect(timeEntries(store.fetch(s(''), t(0), t(9)))).to.deep.equal([`${t(2)}=empty`])
        }
      },
      {
        title: 'peekNextKey returns the next window start without consuming it',
        run: write,
        verify(store) {
          const iterator = store.fetch(s('a'), t(1), t(2))
          expect(iterator.peekNextKey()).to.equal(t(1))
          expect(iterator.peekNextKey()).to.equal(t(1))
          expect(iterator.next().value?.key).to.equal(t(1))
          expect(iterator.peekNextKey()).to.equal(t(2))
          expect(iterator.next().value?.value.toString()).to.equal('2')
          expect(iterator.peekNextKey()).to.equal(undefined)
          expect(iterator.next().done).to.equal(true)
          iterator.close()
        }
      },
      ...(harness.retainDuplicates
        ? []
        : [
            {
              title: 'reflects overwrites and deletes',
              run(store: BytesWindowStore) {
                write(store)
                store.put(s('a'), s('22'), t(2))
                store.put(s('a'), null, t(3))
              },
              verify(store: BytesWindowStore) {
                expect(timeEntries(store.fetch(s('a'), t(0), t(9)))).to.deep.equal([`${t(1)}=1`, `${t(2)}=22`, `${t(4)}=4`])
              }
            }
          ])
    ],
    seed: write,
    closedStoreCalls: {
      'fetch(key, timeFrom, timeTo)': store => store.fetch(s('a'), t(0), t(9))
    }
  })
}
