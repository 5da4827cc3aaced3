/** Compliance checks for range: keys in [from, to] ascending by bytes; an undefined bound is open. */
import { expect } from 'chai'
import type { BytesKeyValueStore, KeyValueOperationSuite } from './key-value-check.js'
import { putText, s, textEntries, textKeys } from './fixtures.js'

const write = (store: BytesKeyValueStore): void => {
  putText(store, { d: '4', b: '2', e: '5', a: '1', c: '3' })
}

export const rangeSuite: KeyValueOperationSuite = {
  title: 'range',
  checks: [
    {
      title: 'includes both bounds and returns values',
      run: write,
      verify(store) {
        expect(textEntries(store.range(s('b'), s('d')))).to.deep.equal(['b=2', 'c=3', 'd=4'])
      }
    },
    {
      title: 'bounds need not be keys of the store',
      run: write,
      verify(store) {
        expect(textKeys(store.range(s('bb'), s('dd')))).to.deep.equal(['c', 'd'])
        expect(textKeys(store.range(s('0'), s('z')))).to.deep.equal(['a', 'b', 'c', 'd', 'e'])
        expect(textKeys(store.range(s('ba'), s('bz')))).to.deep.equal([])
      }
    },
    {
      title: 'an undefined bound is open',
      run: write,
      verify(store) {
        expect(textKeys(store.range(undefined, s('b')))).to.deep.equal(['a', 'b'])
        expect(textKeys(store.range(s('d'), undefined))).to.deep.equal(['d', 'e'])
        expect(textKeys(store.range(undefined, undefined))).to.deep.equal(['a', 'b', 'c', 'd', 'e'])
      }
    },
    {
      title: 'from equal to to returns that one key',
      run: write,
      verify(store) {
        expect(textEntries(store.range(s('c'), s('c')))).to.deep.equal(['c=3'])
        expect(textKeys(store.range(s('cc'), s('cc')))).to.deep.equal([])
      }
    },
    {
      title: 'from after to (by bytes) is empty, not an error',
      run: write,
      verify(store) {
        expect(textKeys(store.range(s('d'), s('b')))).to.deep.equal([])
        expect(textKeys(store.range(s('b'), s('a\u00ff')))).to.deep.equal([])
      }
    },
    {
      title: 'bounds outside the keys, and an empty store, give an empty iterator',
      run(store) {
        expect(textKeys(store.range(s('a'), s('z')))).to.deep.equal([])
        expect(textKeys(store.range(undefined, undefined))).to.deep.equal([])
        write(store)
      },
      verify(store) {
        expect(textKeys(store.range(s('f'), s('z')))).to.deep.equal([])
        expect(textKeys(store.range(undefined, s('0')))).to.deep.equal([])
      }
    },
    {
      title: 'reflects overwrites and deletes',
      run(store) {
        write(store)
        store.put(s('c'), s('33'))
        store.delete(s('b'))
        store.put(s('d'), null)
      },
      verify(store) {
        expect(textEntries(store.range(s('a'), s('e')))).to.deep.equal(['a=1', 'c=33', 'e=5'])
      }
    }
  ],
  closedStoreCalls: {
    range: store => store.range(s('a'), s('b')),
    'range(undefined, undefined)': store => store.range(undefined, undefined)
  }
}
