/** Compliance checks for get and put: round trips byte for byte, overwrites, put(key, null) deletes. */
import { expect } from 'chai'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { b, getText, hexEntries, putText, s, textEntries } from './fixtures.js'

const LARGE_VALUE = Buffer.alloc(64 * 1024, 0xab)
const LONG_KEY = Buffer.alloc(1024, 0x61)
const MANY = 1000

export const getPutSuite: KeyValueOperationSuite = {
  title: 'get / put',
  checks: [
    {
      title: 'get returns null for a key that was never written',
      run(store) {
        expect(store.get(s('missing'))).to.equal(null)
      },
      verify(store) {
        expect(store.get(s('missing'))).to.equal(null)
      }
    },
    {
      title: 'put then get returns the value, byte for byte',
      run(store) {
        store.put(s('k'), b(0x00, 0xff, 0x80, 0x7f))
        expect(store.get(s('k'))?.toString('hex')).to.equal('00ff807f')
      },
      verify(store) {
        expect(store.get(s('k'))?.toString('hex')).to.equal('00ff807f')
        expect(store.get(s('K'))).to.equal(null)
      }
    },
    {
      title: 'finds keys by content, not by Buffer identity',
      run(store) {
        store.put(b(1, 2, 3), s('v'))
        expect(store.get(b(1, 2, 3))?.toString()).to.equal('v')
        expect(store.get(Buffer.from('010203', 'hex'))?.toString()).to.equal('v')
      },
      verify(store) {
        expect(store.get(b(1, 2, 3))?.toString()).to.equal('v')
        expect(store.get(b(1, 2))).to.equal(null)
        expect(store.get(b(1, 2, 3, 0))).to.equal(null)
      }
    },
    {
      title: 'a later put overwrites the value',
      run(store) {
        putText(store, { k: 'first', other: 'x' })
        store.put(s('k'), s('second'))
        expect(getText(store, 'k')).to.equal('second')
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['k=second', 'other=x'])
      }
    },
    {
      title: 'put(key, null) deletes the key',
      run(store) {
        putText(store, { a: '1', b: '2' })
        store.put(s('a'), null)
        expect(store.get(s('a'))).to.equal(null)
        store.put(s('never-written'), null)
      },
      verify(store) {
        expect(store.get(s('a'))).to.equal(null)
        expect(store.get(s('never-written'))).to.equal(null)
        expect(textEntries(store.all())).to.deep.equal(['b=2'])
      }
    },
    {
      title: 'an empty value is a value, not a delete',
      run(store) {
        store.put(s('empty'), Buffer.alloc(0))
        const value = store.get(s('empty'))
        expect(value).to.not.equal(null)
        expect(value?.length).to.equal(0)
      },
      verify(store) {
        expect(store.get(s('empty'))?.length).to.equal(0)
        expect(hexEntries(store.all())).to.deep.equal([`${s('empty').toString('hex')}=`])
      }
    },
    {
      title: 'keeps long keys and large values intact',
      run(store) {
        store.put(LONG_KEY, LARGE_VALUE)
        store.put(s('small'), s('v'))
      },
      verify(store) {
        expect(store.get(LONG_KEY)?.equals(LARGE_VALUE)).to.equal(true)
        expect(store.get(LONG_KEY.subarray(1))).to.equal(null)
        expect(getText(store, 'small')).to.equal('v')
      }
    },
    {
      title: `holds ${MANY} keys`,
      run(store) {
        for (let i = 0; i < MANY; i++) store.put(s(`key-${i}`), s(`value-${i}`))
      },
      verify(store) {
        for (let i = 0; i < MANY; i++) expect(getText(store, `key-${i}`)).to.equal(`value-${i}`)
        let count = 0
        for (const kv of store.all()) {
          expect(kv.value.toString()).to.equal(`value-${kv.key.toString().slice('key-'.length)}`)
          count++
        }
        expect(count).to.equal(MANY)
      }
    }
  ],
  closedStoreCalls: {
    get: store => store.get(s('a')),
    put: store => {
      store.put(s('a'), s('2'))
    },
    'put(key, null)': store => {
      store.put(s('a'), null)
    }
  }
}
