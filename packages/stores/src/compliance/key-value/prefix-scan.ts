/** Compliance checks for prefixScan: the keys that start with the serialized prefix, ascending. */
import { expect } from 'chai'
import type { Serializer } from '@kstreams/core'
import type { BytesKeyValueStore, KeyValueOperationSuite } from './key-value-check.js'
import { bytesSerializer, putText, s, textEntries, textKeys } from './fixtures.js'

const write = (store: BytesKeyValueStore): void => {
  putText(store, { b: '1', ab: '2', a: '3', abc: '4', ac: '5', aa: '6', bab: '7' })
}

/** A typed prefix: the serializer turns it into the bytes the store compares. */
const utf8Serializer: Serializer<string> = { serialize: (_topic, data) => (data === null ? null : Buffer.from(data, 'utf8')) }

export const prefixScanSuite: KeyValueOperationSuite = {
  title: 'prefixScan',
  checks: [
    {
      title: 'returns the keys that start with the prefix, ascending, with values',
      run: write,
      verify(store) {
        expect(textEntries(store.prefixScan(s('a'), bytesSerializer))).to.deep.equal(['a=3', 'aa=6', 'ab=2', 'abc=4', 'ac=5'])
        expect(textEntries(store.prefixScan(s('ab'), bytesSerializer))).to.deep.equal(['ab=2', 'abc=4'])
      }
    },
    {
      title: 'matches a key equal to the prefix, never a key only containing it',
      run: write,
      verify(store) {
        expect(textKeys(store.prefixScan(s('abc'), bytesSerializer))).to.deep.equal(['abc'])
        expect(textKeys(store.prefixScan(s('b'), bytesSerializer))).to.deep.equal(['b', 'bab'])
      }
    },
    {
      title: 'is empty when no key has the prefix, or the prefix is longer than every key',
      run(store) {
        expect(textKeys(store.prefixScan(s('a'), bytesSerializer))).to.deep.equal([])
        write(store)
      },
      verify(store) {
        expect(textKeys(store.prefixScan(s('c'), bytesSerializer))).to.deep.equal([])
        expect(textKeys(store.prefixScan(s('abcd'), bytesSerializer))).to.deep.equal([])
        expect(textKeys(store.prefixScan(s('0'), bytesSerializer))).to.deep.equal([])
      }
    },
    {
      title: 'an empty prefix matches every key',
      run: write,
      verify(store) {
        expect(textKeys(store.prefixScan(Buffer.alloc(0), bytesSerializer))).to.deep.equal(['a', 'aa', 'ab', 'abc', 'ac', 'b', 'bab'])
      }
    },
    {
      title: 'serializes the prefix with the given serializer',
      run: write,
      verify(store) {
        expect(textKeys(store.prefixScan('ab', utf8Serializer))).to.deep.equal(['ab', 'abc'])
      }
    },
    {
      title: 'leaves out deleted keys and shows the latest values',
      run(store) {
        write(store)
        store.delete(s('ab'))
        store.put(s('aa'), s('66'))
        store.put(s('ad'), s('8'))
      },
      verify(store) {
        expect(textEntries(store.prefixScan(s('a'), bytesSerializer))).to.deep.equal(['a=3', 'aa=66', 'abc=4', 'ac=5', 'ad=8'])
      }
    }
  ],
  closedStoreCalls: {
    prefixScan: store => store.prefixScan(s('a'), bytesSerializer)
  }
}
