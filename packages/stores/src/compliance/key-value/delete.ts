/** Compliance checks for delete: removes the key and returns the previous value (null when absent). */
import { expect } from 'chai'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { b, bytesSerializer, putText, s, textEntries, textKeys } from './fixtures.js'

export const deleteSuite: KeyValueOperationSuite = {
  title: 'delete',
  checks: [
    {
      title: 'returns the previous value and removes the key',
      run(store) {
        putText(store, { a: '1', b: '2' })
        expect(store.delete(s('a'))?.toString()).to.equal('1')
        expect(store.get(s('a'))).to.equal(null)
      },
      verify(store) {
        expect(store.get(s('a'))).to.equal(null)
        expect(textEntries(store.all())).to.deep.equal(['b=2'])
      }
    },
    {
      title: 'returns null for an absent key, also when deleted twice',
      run(store) {
        expect(store.delete(s('never'))).to.equal(null)
        store.put(s('k'), s('v'))
        expect(store.delete(s('k'))?.toString()).to.equal('v')
        expect(store.delete(s('k'))).to.equal(null)
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal([])
      }
    },
    {
      title: 'returns an empty value as a value',
      run(store) {
        store.put(s('k'), Buffer.alloc(0))
        expect(store.delete(s('k'))?.length).to.equal(0)
      },
      verify(store) {
        expect(store.get(s('k'))).to.equal(null)
      }
    },
    {
      title: 'a deleted key is gone from ranges and prefix scans',
      run(store) {
        putText(store, { aa: '1', ab: '2', ac: '3', b: '4' })
        store.delete(s('ab'))
      },
      verify(store) {
        expect(textKeys(store.range(s('aa'), s('ac')))).to.deep.equal(['aa', 'ac'])
        expect(textKeys(store.reverseRange(s('aa'), s('ac')))).to.deep.equal(['ac', 'aa'])
        expect(textKeys(store.prefixScan(s('a'), bytesSerializer))).to.deep.equal(['aa', 'ac'])
        expect(textKeys(store.reverseAll())).to.deep.equal(['b', 'ac', 'aa'])
      }
    },
    {
      title: 'a key can be written again after delete',
      run(store) {
        store.put(b(0xff), s('1'))
        store.delete(b(0xff))
        store.put(b(0xff), s('2'))
        expect(store.delete(b(0xff))?.toString()).to.equal('2')
        store.put(b(0xff), s('3'))
      },
      verify(store) {
        expect(store.get(b(0xff))?.toString()).to.equal('3')
      }
    }
  ],
  closedStoreCalls: {
    delete: store => store.delete(s('a'))
  }
}
