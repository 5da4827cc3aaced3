/** Compliance checks for all: every entry, ascending by key bytes. */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { putText, s, textEntries } from './fixtures.js'

export const allSuite: KeyValueOperationSuite = {
  title: 'all',
  checks: [
    {
      title: 'is empty on an empty store',
      run(store) {
        expect(textEntries(store.all())).to.deep.equal([])
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal([])
      }
    },
    {
      title: 'returns every entry ascending, whatever the write order',
      run(store) {
        putText(store, { m: '13', a: '1', z: '26', b: '2' })
        store.putAll([new KeyValue(s('y'), s('25')), new KeyValue(s('c'), s('3'))])
        store.putIfAbsent(s('n'), s('14'))
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['a=1', 'b=2', 'c=3', 'm=13', 'n=14', 'y=25', 'z=26'])
      }
    },
    {
      title: 'shows the latest value of each key and leaves out deleted keys',
      run(store) {
        putText(store, { a: '1', b: '2', c: '3', d: '4' })
        store.put(s('b'), s('22'))
        store.delete(s('c'))
        store.put(s('d'), null)
        store.put(s('c'), s('33'))
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['a=1', 'b=22', 'c=33'])
      }
    },
    {
      title: 'is empty once every key is deleted',
      run(store) {
        putText(store, { a: '1', b: '2' })
        store.delete(s('a'))
        store.delete(s('b'))
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal([])
      }
    },
    {
      title: 'is repeatable: two iterators see the same entries',
      run(store) {
        putText(store, { a: '1', b: '2' })
      },
      verify(store) {
        const first = store.all()
        const second = store.all()
        expect(textEntries(second)).to.deep.equal(['a=1', 'b=2'])
        expect(textEntries(first)).to.deep.equal(['a=1', 'b=2'])
      }
    }
  ],
  closedStoreCalls: {
    all: store => store.all()
  }
}
