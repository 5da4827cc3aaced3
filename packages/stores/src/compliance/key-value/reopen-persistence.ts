/**
 * Compliance checks for reopening. A persistent backend keeps every committed write across close
 * and reopen on the same files, in byte order, however often it is reopened; iterators of the
 * closed store stay closed. A non-persistent store that can be reopened starts empty: it is
 * rebuilt from its changelog instead.
 */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import { codeOf } from '../expect-code.js'
import type { KeyValueStoreHarness } from '../harness.js'
import type { KeyValueCheck, KeyValueOperationSuite } from './key-value-check.js'
import { b, hexEntries, putText, s, textEntries } from './fixtures.js'

function iteratorsOfTheClosedStore(persistent: boolean): KeyValueCheck {
  return {
    title: 'iterators of the store before the reopen stay closed',
    async run(store, context) {
      putText(store, { a: '1', b: '2' })
      await context.commit()
      const before = store.all()
      const reopened = await context.reopen()
      expect(codeOf(() => before.next())).to.equal('STORE_NOT_OPEN')
      expect(codeOf(() => before.peekNextKey())).to.equal('STORE_NOT_OPEN')
      expect(textEntries(reopened.all())).to.deep.equal(persistent ? ['a=1', 'b=2'] : [])
    }
  }
}

const persistentChecks: KeyValueCheck[] = [
  {
    title: 'every committed write survives a reopen',
    async run(store, context) {
      putText(store, { a: '1', b: '2', c: '3', d: '4' })
      store.put(s('b'), s('22'))
      store.delete(s('c'))
      store.put(s('d'), null)
      store.putAll([new KeyValue(s('e'), s('5')), new KeyValue(s('a'), null), new KeyValue(s('f'), s('6'))])
      expect(store.putIfAbsent(s('g'), s('7'))).to.equal(null)
      store.put(s('empty'), Buffer.alloc(0))
      await context.commit()
    },
    verify(store) {
      expect(textEntries(store.all())).to.deep.equal(['b=22', 'e=5', 'empty=', 'f=6', 'g=7'])
      expect(store.get(s('a'))).to.equal(null)
      expect(store.get(s('empty'))?.length).to.equal(0)
    }
  },
  {
    title: 'writes after a reopen survive the next reopen',
    async run(store, context) {
      putText(store, { a: '1', b: '2' })
      await context.commit()
      const reopened = await context.reopen()
      reopened.put(s('c'), s('3'))
      reopened.delete(s('a'))
      reopened.put(s('b'), s('22'))
      await context.commit()
      const again = await context.reopen()
      expect(textEntries(again.all())).to.deep.equal(['b=22', 'c=3'])
    },
    verify(store) {
      expect(textEntries(store.all())).to.deep.equal(['b=22', 'c=3'])
    }
  },
  {
    title: 'keeps byte order across reopens',
    async run(store, context) {
      for (const key of [b(0xff), b(0x80, 0x00), Buffer.alloc(0), b(0x7f), s('a'), s('a\u0000'), s('é')]) store.put(key, b(key.length))
      await context.commit()
    },
    verify(store) {
      expect(hexEntries(store.all())).to.deep.equal(['=00', '61=01', '6100=02', '7f=01', '8000=02', 'c3a9=02', 'ff=01'])
      expect(hexEntries(store.reverseRange(b(0x61), b(0x80)))).to.deep.equal(['7f=01', '6100=02', '61=01'])
    }
  },
  {
    title: 'counts the committed distinct keys after a reopen',
    async run(store, context) {
      for (let i = 0; i < 10; i++) store.put(s(`key-${i}`), s('v'))
      await context.commit()
      const reopened = await context.reopen()
      expect(reopened.approximateNumEntries()).to.equal(10)
    }
  },
  iteratorsOfTheClosedStore(true)
]

const nonPersistentChecks: KeyValueCheck[] = [
  {
    title: 'a reopened non-persistent store starts empty (it is restored from its changelog)',
    async run(store, context) {
      putText(store, { a: '1' })
      await context.commit()
      const reopened = await context.reopen()
      expect(reopened.isOpen()).to.equal(true)
      expect(reopened.get(s('a'))).to.equal(null)
      expect(textEntries(reopened.all())).to.deep.equal([])
      reopened.put(s('b'), s('2'))
      expect(textEntries(reopened.all())).to.deep.equal(['b=2'])
    }
  },
  iteratorsOfTheClosedStore(false)
]

/** The reopen checks that apply to the harness; none when it cannot reopen. */
export function reopenPersistenceSuite(harness: KeyValueStoreHarness): KeyValueOperationSuite {
  const checks = harness.reopen === undefined ? [] : harness.persistent ? persistentChecks : nonPersistentChecks
  return { title: harness.persistent ? 'reopen persistence' : 'reopen', checks }
}
