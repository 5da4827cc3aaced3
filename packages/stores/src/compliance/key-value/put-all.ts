/** Compliance checks for putAll: writes in list order, the last entry of a key wins, null deletes. */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { putText, s, textEntries } from './fixtures.js'

const kv = (key: string, value: string | null): KeyValue<Buffer, Buffer | null> => new KeyValue(s(key), value === null ? null : s(value))

export const putAllSuite: KeyValueOperationSuite = {
  title: 'putAll',
  checks: [
    {
      title: 'writes every entry',
      run(store) {
        store.putAll([kv('c', '3'), kv('a', '1'), kv('b', '2')])
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['a=1', 'b=2', 'c=3'])
      }
    },
    {
      title: 'applies entries in list order: the last one of a key wins',
      run(store) {
        store.putAll([kv('k', '1'), kv('k', '2'), kv('j', 'x'), kv('k', '3')])
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['j=x', 'k=3'])
      }
    },
    {
      title: 'a null value deletes, also a key written earlier in the same list',
      run(store) {
        putText(store, { old: 'o', kept: 'k' })
        store.putAll([kv('old', null), kv('new', 'n'), kv('new', null), kv('again', 'a1'), kv('again', null), kv('again', 'a2')])
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['again=a2', 'kept=k'])
        expect(store.get(s('old'))).to.equal(null)
        expect(store.get(s('new'))).to.equal(null)
      }
    },
    {
      title: 'overwrites existing keys',
      run(store) {
        putText(store, { a: 'old', b: 'old' })
        store.putAll([kv('a', 'new')])
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['a=new', 'b=old'])
      }
    },
    {
      title: 'an empty list changes nothing',
      run(store) {
        putText(store, { a: '1' })
        store.putAll([])
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['a=1'])
      }
    }
  ],
  closedStoreCalls: {
    putAll: store => {
      store.putAll([kv('a', '1')])
    },
    'putAll([])': store => {
      store.putAll([])
    }
  }
}
