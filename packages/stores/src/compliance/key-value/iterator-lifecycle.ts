/**
 * Compliance checks for the iterators every read returns: closing (idempotent, by `for...of`
 * break, by Symbol.dispose and `using`), being closed with their store, peekNextKey, and staying
 * done once exhausted. A closed iterator throws STORE_NOT_OPEN.
 */
import { expect } from 'chai'
import type { KeyValueIterator } from '@kstreams/core'
import { expectIteratorClosed, iteratorClosingChecks } from '../iterator-checks.js'
import type { BytesKeyValueStore, KeyValueOperationSuite } from './key-value-check.js'
import { bytesSerializer, putText, s, textKeys } from './fixtures.js'

type Iterator = KeyValueIterator<Buffer, Buffer>

const write = (store: BytesKeyValueStore): void => {
  putText(store, { a: '1', b: '2', c: '3' })
}

/** One iterator of each kind the store hands out, each over a, b, c. */
const everyKind = (store: BytesKeyValueStore): Array<[string, Iterator]> => [
  ['all', store.all()],
  ['reverseAll', store.reverseAll()],
  ['range', store.range(s('a'), s('c'))],
  ['reverseRange', store.reverseRange(s('a'), s('c'))],
  ['prefixScan', store.prefixScan(Buffer.alloc(0), bytesSerializer)]
]

const [idempotentClose, closedWithStore] = iteratorClosingChecks(write, everyKind)

export const iteratorLifecycleSuite: KeyValueOperationSuite = {
  title: 'iterator lifecycle',
  checks: [
    idempotentClose,
    {
      title: 'closing an iterator leaves the store and the other iterators usable',
      run(store) {
        write(store)
        const kept = store.all()
        store.all().close()
        expect(textKeys(kept)).to.deep.equal(['a', 'b', 'c'])
        store.put(s('d'), s('4'))
        expect(textKeys(store.all())).to.deep.equal(['a', 'b', 'c', 'd'])
      }
    },
    closedWithStore,
    {
      title: 'breaking out of a for...of loop closes the iterator',
      run(store) {
        write(store)
        const iterator = store.all()
        const seen: string[] = []
        for (const kv of iterator) {
          seen.push(kv.key.toString())
          break
        }
        expect(seen).to.deep.equal(['a'])
        expectIteratorClosed(iterator, 'after break')
      }
    },
    {
      title: 'Symbol.dispose closes the iterator, and `using` disposes it at the end of the block',
      run(store) {
        write(store)
        const disposed = store.range(s('a'), s('b'))
        disposed[Symbol.dispose]()
        expectIteratorClosed(disposed, 'disposed')
        let escaped: Iterator | undefined
        {
          using iterator = store.reverseAll()
          expect(iterator.next().value?.key.toString()).to.equal('c')
          escaped = iterator
        }
        expectIteratorClosed(escaped, 'after using')
      }
    },
    {
      title: 'iterators are iterable and return themselves',
      run(store) {
        write(store)
        const iterator = store.all()
        expect(iterator[Symbol.iterator]()).to.equal(iterator)
        expect(iterator.next().value?.key.toString()).to.equal('a')
        expect([...iterator].map(kv => kv.key.toString())).to.deep.equal(['b', 'c'])
        iterator.close()
      }
    },
    {
      title: 'peekNextKey returns the next key without consuming it, undefined at the end',
      run(store) {
        write(store)
        for (const [kind, iterator] of everyKind(store)) {
          const expected = kind.startsWith('reverse') ? ['c', 'b', 'a'] : ['a', 'b', 'c']
          for (const key of expected) {
            expect(iterator.peekNextKey()?.toString(), kind).to.equal(key)
            expect(iterator.peekNextKey()?.toString(), kind).to.equal(key)
            const next = iterator.next()
            expect(next.done, kind).to.not.equal(true)
            expect(next.value?.key.toString(), kind).to.equal(key)
          }
          expect(iterator.peekNextKey(), kind).to.equal(undefined)
          expect(iterator.next().done, kind).to.equal(true)
          iterator.close()
        }
      }
    },
    {
      title: 'peekNextKey of an empty iterator is undefined',
      run(store) {
        write(store)
        const empty = store.range(s('x'), s('z'))
        expect(empty.peekNextKey()).to.equal(undefined)
        expect(empty.next().done).to.equal(true)
        empty.close()
        const none = store.prefixScan(s('q'), bytesSerializer)
        expect(none.peekNextKey()).to.equal(undefined)
        none.close()
      }
    },
    {
      title: 'an exhausted iterator stays done until closed',
      run(store) {
        write(store)
        const iterator = store.range(s('b'), s('b'))
        expect(iterator.next().value?.key.toString()).to.equal('b')
        expect(iterator.next().done).to.equal(true)
        expect(iterator.next().done).to.equal(true)
        expect(iterator.peekNextKey()).to.equal(undefined)
        iterator.close()
        expectIteratorClosed(iterator, 'exhausted and closed')
      }
    }
  ]
}
