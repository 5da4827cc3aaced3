/**
 * Compliance checks for the store lifecycle seen by callers: isOpen, an idempotent close, and
 * that a call on a closed store fails with STORE_NOT_OPEN without side effects. (Each operation
 * module asserts STORE_NOT_OPEN for its own calls.)
 */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import { codeOf } from '../expect-code.js'
import type { KeyValueStoreHarness } from '../harness.js'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { getText, putText, s, textEntries } from './fixtures.js'

export function closedStoreSuite(harness: KeyValueStoreHarness): KeyValueOperationSuite {
  return {
    title: 'closed store',
    checks: [
      {
        title: 'is open once opened and not open after close',
        run(store) {
          expect(store.isOpen()).to.equal(true)
          store.close()
          expect(store.isOpen()).to.equal(false)
        }
      },
      {
        title: 'close is idempotent',
        run(store) {
          store.close()
          store.close()
          expect(store.isOpen()).to.equal(false)
          expect(codeOf(() => store.get(s('a')))).to.equal('STORE_NOT_OPEN')
        }
      },
      {
        title: `says it is ${harness.persistent ? '' : 'not '}persistent, open or closed`,
        run(store) {
          expect(store.persistent).to.equal(harness.persistent)
          store.close()
          expect(store.persistent).to.equal(harness.persistent)
        }
      },
      {
        title: 'a failed write to a closed store leaves the store closed and writes nothing',
        async run(store, context) {
          putText(store, { a: '1' })
          await context.commit()
          store.close()
          expect(codeOf(() => store.put(s('a'), s('2')))).to.equal('STORE_NOT_OPEN')
          expect(codeOf(() => store.put(s('b'), s('2')))).to.equal('STORE_NOT_OPEN')
          expect(codeOf(() => store.putAll([new KeyValue(s('c'), s('3'))]))).to.equal('STORE_NOT_OPEN')
          expect(codeOf(() => store.delete(s('a')))).to.equal('STORE_NOT_OPEN')
          expect(store.isOpen()).to.equal(false)
          if (harness.persistent) {
            const reopened = await context.reopen()
            expect(getText(reopened, 'a')).to.equal('1')
            expect(textEntries(reopened.all())).to.deep.equal(['a=1'])
          }
        }
      }
    ]
  }
}
