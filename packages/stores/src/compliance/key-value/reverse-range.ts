/** Compliance checks for reverseRange: keys in [from, to] descending by bytes; an undefined bound is open. */
import { expect } from 'chai'
import type { BytesKeyValueStore, KeyValueOperationSuite } from './key-value-check.js'
import { putText, s, textEntries, textKeys } from './fixtures.js'

const write = (store: BytesKeyValueStore): void => {
  putText(store, { d: '4', b: '2', e: '5', a: '1', c: '3' })
}

export const reverseRangeSuite: KeyValueOperationSuite = {
  title: 'reverseRange',
  checks: [
    {
      title: 'includes both bounds, descending, with values',
      run: write,
      verify(store) {
        expect(textEntries(store.reverseRange(s('b'), s('d')))).to.deep.equal(['d=4', 'c=3', 'b=2'])
      }
    },
    {
      title: 'takes from as the lower bound and to as the upper one',
      run: write,
      verify(store) {
        expect(textKeys(store.reverseRange(s('bb'), s('dd')))).to.deep.equal(['d', 'c'])
        expect(textKeys(store.reverseRange(s('d'), s('b')))).to.deep.equal([])
      }
    },
    {
      title: 'an undefined bound is open',
      run: write,
      verify(store) {
        expect(textKeys(store.reverseRange(undefined, s('b')))).to.deep.equal(['b', 'a'])
        expect(textKeys(store.reverseRange(s('d'), undefined))).to.deep.equal(['e', 'd'])
        expect(textKeys(store.reverseRange(undefined, undefined))).to.deep.equal(['e', 'd', 'c', 'b', 'a'])
      }
    },
    {
      title: 'from equal to to returns that one key',
      run: write,
      verify(store) {
        expect(textEntries(store.reverseRange(s('e'), s('e')))).to.deep.equal(['e=5'])
      }
    },
    {
      title: 'an empty store, and bounds outside the keys, give an empty iterator',
      run(store) {
        expect(textKeys(store.reverseRange(undefined, undefined))).to.deep.equal([])
        write(store)
      },
      verify(store) {
        expect(textKeys(store.reverseRange(s('f'), undefined))).to.deep.equal([])
        expect(textKeys(store.reverseRange(s('0'), s('0z')))).to.deep.equal([])
      }
    },
    {
      title: 'reflects overwrites and deletes',
      run(store) {
        write(store)
        store.put(s('e'), s('55'))
        store.delete(s('a'))
        store.put(s('c'), null)
      },
      verify(store) {
        expect(textEntries(store.reverseRange(s('a'), s('e')))).to.deep.equal(['e=55', 'd=4', 'b=2'])
      }
    }
  ],
  closedStoreCalls: {
    reverseRange: store => store.reverseRange(s('a'), s('b')),
    'reverseRange(undefined, undefined)': store => store.reverseRange(undefined, undefined)
  }
}
