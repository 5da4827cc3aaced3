/** Compliance checks for putIfAbsent: writes only when the key is absent and returns the previous value. */
import { expect } from 'chai'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { getText, putText, s, textEntries } from './fixtures.js'

export const putIfAbsentSuite: KeyValueOperationSuite = {
  title: 'putIfAbsent',
  checks: [
    {
      title: 'writes an absent key and returns null',
      run(store) {
        expect(store.putIfAbsent(s('k'), s('1'))).to.equal(null)
        expect(getText(store, 'k')).to.equal('1')
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['k=1'])
      }
    },
    {
      title: 'keeps a present value and returns it',
      run(store) {
        store.put(s('k'), s('old'))
        expect(store.putIfAbsent(s('k'), s('new'))?.toString()).to.equal('old')
        expect(store.putIfAbsent(s('k'), s('newer'))?.toString()).to.equal('old')
      },
      verify(store) {
        expect(getText(store, 'k')).to.equal('old')
      }
    },
    {
      title: 'sees a value written by putIfAbsent itself',
      run(store) {
        expect(store.putIfAbsent(s('k'), s('first'))).to.equal(null)
        expect(store.putIfAbsent(s('k'), s('second'))?.toString()).to.equal('first')
      },
      verify(store) {
        expect(getText(store, 'k')).to.equal('first')
      }
    },
    {
      title: 'writes again once the key was deleted',
      run(store) {
        store.put(s('k'), s('1'))
        store.delete(s('k'))
        expect(store.putIfAbsent(s('k'), s('2'))).to.equal(null)
        store.put(s('j'), s('1'))
        store.put(s('j'), null)
        expect(store.putIfAbsent(s('j'), s('2'))).to.equal(null)
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['j=2', 'k=2'])
      }
    },
    {
      title: 'with a null value writes nothing, present or absent',
      run(store) {
        expect(store.putIfAbsent(s('absent'), null)).to.equal(null)
        expect(store.get(s('absent'))).to.equal(null)
        store.put(s('present'), s('1'))
        expect(store.putIfAbsent(s('present'), null)?.toString()).to.equal('1')
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['present=1'])
      }
    },
    {
      title: 'treats an empty value as present',
      run(store) {
        store.put(s('k'), Buffer.alloc(0))
        expect(store.putIfAbsent(s('k'), s('v'))?.length).to.equal(0)
      },
      verify(store) {
        expect(store.get(s('k'))?.length).to.equal(0)
      }
    },
    {
      title: 'leaves other keys alone',
      run(store) {
        putText(store, { a: '1', c: '3' })
        expect(store.putIfAbsent(s('b'), s('2'))).to.equal(null)
      },
      verify(store) {
        expect(textEntries(store.all())).to.deep.equal(['a=1', 'b=2', 'c=3'])
      }
    }
  ],
  closedStoreCalls: {
    putIfAbsent: store => store.putIfAbsent(s('b'), s('2'))
  }
}
