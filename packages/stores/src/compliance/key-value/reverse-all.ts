/** Compliance checks for reverseAll: every entry, descending by key bytes. */
import { expect } from 'chai'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { drain, putText, s, textEntries } from './fixtures.js'

export const reverseAllSuite: KeyValueOperationSuite = {
  title: 'reverseAll',
  checks: [
    {
      title: 'is empty on an empty store',
      run(store) {
        expect(textEntries(store.reverseAll())).to.deep.equal([])
      }
    },
    {
      title: 'returns every entry descending, whatever the write order',
      run(store) {
        putText(store, { m: '13', a: '1', z: '26', b: '2' })
      },
      verify(store) {
        expect(textEntries(store.reverseAll())).to.deep.equal(['z=26', 'm=13', 'b=2', 'a=1'])
      }
    },
    {
      title: 'is all() reversed',
      run(store) {
        for (let i = 0; i < 50; i++) store.put(s(`k${(i * 37) % 50}`), s(String(i)))
        for (let i = 0; i < 50; i += 7) store.delete(s(`k${i}`))
      },
      verify(store) {
        const forward = drain(store.all()).map(kv => `${kv.key.toString()}=${kv.value.toString()}`)
        expect(forward).to.have.length(50 - 8)
        expect(textEntries(store.reverseAll())).to.deep.equal(forward.reverse())
      }
    },
    {
      title: 'leaves out deleted keys and shows the latest values',
      run(store) {
        putText(store, { a: '1', b: '2', c: '3' })
        store.delete(s('c'))
        store.put(s('a'), s('11'))
      },
      verify(store) {
        expect(textEntries(store.reverseAll())).to.deep.equal(['b=2', 'a=11'])
      }
    }
  ],
  closedStoreCalls: {
    reverseAll: store => store.reverseAll()
  }
}
