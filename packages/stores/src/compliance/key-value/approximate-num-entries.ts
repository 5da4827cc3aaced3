/**
 * Compliance checks for approximateNumEntries. The count is an estimate (RocksDB's is), and a
 * caching layer answers from the store beneath it, so exact counts are asserted only after a
 * commit and only for distinct keys that were written once, as Kafka's own store tests do.
 */
import { expect } from 'chai'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { s } from './fixtures.js'

export const approximateNumEntriesSuite: KeyValueOperationSuite = {
  title: 'approximateNumEntries',
  checks: [
    {
      title: 'is 0 on an empty store',
      run(store) {
        expect(store.approximateNumEntries()).to.equal(0)
      },
      verify(store) {
        expect(store.approximateNumEntries()).to.equal(0)
      }
    },
    {
      title: 'counts distinct keys once committed',
      async run(store, context) {
        for (const key of ['a', 'b', 'c', 'd', 'e']) store.put(s(key), s(key))
        await context.commit()
      },
      verify(store) {
        expect(store.approximateNumEntries()).to.equal(5)
      }
    },
    {
      title: 'is a non-negative integer after deletes',
      async run(store, context) {
        for (let i = 0; i < 20; i++) store.put(s(`k${i}`), s('v'))
        await context.commit()
        for (let i = 0; i < 20; i += 2) store.delete(s(`k${i}`))
        store.delete(s('never-written'))
        await context.commit()
      },
      verify(store) {
        const count = store.approximateNumEntries()
        expect(Number.isInteger(count)).to.equal(true)
        expect(count).to.be.at.least(0)
      }
    }
  ],
  closedStoreCalls: {
    approximateNumEntries: store => store.approximateNumEntries()
  }
}
