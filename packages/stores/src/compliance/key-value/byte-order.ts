/**
 * Compliance checks for key order: stores order keys by unsigned byte comparison, shorter key
 * first when one is a prefix of the other (Kafka's Bytes comparator, RocksDB's bytewise one).
 * Not signed bytes (Java's byte), not UTF-16 code units (JavaScript's string <), not numbers.
 */
import { expect } from 'chai'
import type { KeyValueIterator } from '@kstreams/core'
import type { KeyValueOperationSuite } from './key-value-check.js'
import { b, bytesSerializer, drain, fromInt32, hexKeys, int32, s, textKeys } from './fixtures.js'

const ints = (iterator: KeyValueIterator<Buffer, Buffer>): number[] => drain(iterator).map(kv => fromInt32(kv.key))

/** Written in an order that is none of the orders checked. */
const INTS = [1000, -1, 2147483647, 0, -2147483648, 1, -1000, 256, -256]
/** Positives (0x00..0x7f first byte) first, then negatives (0x80..0xff) from most negative to -1. */
const INTS_BY_BYTES = [0, 1, 256, 1000, 2147483647, -2147483648, -1000, -256, -1]

/**
 * In UTF-8 bytes: 'Z' 5a < 'z' 7a < 'é' c3a9 < 'ü' c3bc < 'ÿ' c3bf < '€' e282ac < 'ｦ' efbda6
 * < '😀' f09f9880. UTF-16 would put '😀' (d83d..) before 'ｦ' (ff66), and latin1 'é' (e9) after '€'.
 */
const UTF8_BY_BYTES = ['Z', 'z', 'é', 'ü', 'ÿ', '€', 'ｦ', '😀']

/** 'a' < 'a\0' < 'a\0\0' < 'a\x01' < 'ab' < 'abc' < 'b': a proper prefix sorts first. */
const PREFIXES_BY_BYTES = ['a', 'a\u0000', 'a\u0000\u0000', 'a\u0001', 'ab', 'abc', 'b']

export const byteOrderSuite: KeyValueOperationSuite = {
  title: 'byte order',
  checks: [
    {
      title: "Integer-serialized negatives sort after the positives (unsigned bytes, two's complement)",
      run(store) {
        for (const n of INTS) store.put(int32(n), s(String(n)))
      },
      verify(store) {
        expect(ints(store.all())).to.deep.equal(INTS_BY_BYTES)
        expect(ints(store.reverseAll())).to.deep.equal([...INTS_BY_BYTES].reverse())
        expect(ints(store.range(int32(1), int32(-1000)))).to.deep.equal([1, 256, 1000, 2147483647, -2147483648, -1000])
        expect(ints(store.reverseRange(int32(2147483647), int32(-256)))).to.deep.equal([-256, -1000, -2147483648, 2147483647])
        // -1 (ffffffff) sorts after 0 (00000000): from > to by bytes, so nothing
        expect(ints(store.range(int32(-1), int32(0)))).to.deep.equal([])
        expect(ints(store.range(int32(-2147483648), undefined))).to.deep.equal([-2147483648, -1000, -256, -1])
        expect(store.get(int32(-1))?.toString()).to.equal('-1')
      }
    },
    {
      title: 'bytes compare unsigned: 0x80 and 0xff sort after 0x7f',
      run(store) {
        for (const key of [b(0xff), b(0x80), b(0x7f), b(0x01), b(0x00), b(0xfe, 0xff), b(0x7f, 0xff), b(0x80, 0x00)]) store.put(key, s('v'))
      },
      verify(store) {
        expect(hexKeys(store.all())).to.deep.equal(['00', '01', '7f', '7fff', '80', '8000', 'feff', 'ff'])
        expect(hexKeys(store.range(b(0x7f), b(0x80)))).to.deep.equal(['7f', '7fff', '80'])
        expect(hexKeys(store.range(b(0x80), b(0x7f)))).to.deep.equal([])
      }
    },
    {
      title: 'multi-byte UTF-8 keys sort by their bytes, after ASCII',
      run(store) {
        for (const key of [...UTF8_BY_BYTES].reverse()) store.put(s(key), s(key))
        store.put(s('e\u0301'), s('decomposed'))
      },
      verify(store) {
        // 'e' + combining acute (65cc81) is another key than 'é' (c3a9), and sorts before 'z'
        expect(textKeys(store.all())).to.deep.equal(['Z', 'e\u0301', ...UTF8_BY_BYTES.slice(1)])
        expect(textKeys(store.range(s('z'), s('€')))).to.deep.equal(['z', 'é', 'ü', 'ÿ', '€'])
        expect(textKeys(store.reverseRange(s('ÿ'), undefined))).to.deep.equal(['😀', 'ｦ', '€', 'ÿ'])
        expect(textKeys(store.prefixScan(Buffer.from([0xc3]), bytesSerializer))).to.deep.equal(['é', 'ü', 'ÿ'])
        expect(store.get(s('é'))?.toString()).to.equal('é')
        expect(store.get(s('e\u0301'))?.toString()).to.equal('decomposed')
      }
    },
    {
      title: 'a proper prefix sorts first: a < a\\0 < a\\0\\0 < a\\1 < ab < abc < b',
      run(store) {
        for (const key of ['abc', 'b', 'a\u0000', 'ab', 'a', 'a\u0001', 'a\u0000\u0000']) store.put(s(key), s('v'))
      },
      verify(store) {
        expect(textKeys(store.all())).to.deep.equal(PREFIXES_BY_BYTES)
        expect(textKeys(store.range(s('a'), s('a')))).to.deep.equal(['a'])
        expect(textKeys(store.range(s('a'), s('ab')))).to.deep.equal(['a', 'a\u0000', 'a\u0000\u0000', 'a\u0001', 'ab'])
        expect(textKeys(store.range(s('a\u0000'), s('a\u0001')))).to.deep.equal(['a\u0000', 'a\u0000\u0000', 'a\u0001'])
        expect(textKeys(store.reverseRange(s('ab'), s('b')))).to.deep.equal(['b', 'abc', 'ab'])
        expect(textKeys(store.prefixScan(s('a\u0000'), bytesSerializer))).to.deep.equal(['a\u0000', 'a\u0000\u0000'])
        expect(textKeys(store.prefixScan(s('a'), bytesSerializer))).to.deep.equal(PREFIXES_BY_BYTES.slice(0, -1))
      }
    },
    {
      title: 'the empty key is a key, and sorts before every other key',
      run(store) {
        store.put(b(0x00), s('zero'))
        store.put(Buffer.alloc(0), s('empty'))
        store.put(s('a'), s('a'))
        expect(store.get(Buffer.alloc(0))?.toString()).to.equal('empty')
      },
      verify(store) {
        expect(store.get(Buffer.alloc(0))?.toString()).to.equal('empty')
        expect(hexKeys(store.all())).to.deep.equal(['', '00', '61'])
        expect(hexKeys(store.reverseAll())).to.deep.equal(['61', '00', ''])
        expect(hexKeys(store.range(undefined, Buffer.alloc(0)))).to.deep.equal([''])
        expect(hexKeys(store.range(Buffer.alloc(0), b(0x00)))).to.deep.equal(['', '00'])
        expect(hexKeys(store.reverseRange(Buffer.alloc(0), Buffer.alloc(0)))).to.deep.equal([''])
        expect(hexKeys(store.prefixScan(Buffer.alloc(0), bytesSerializer))).to.deep.equal(['', '00', '61'])
      }
    },
    {
      title: 'the empty key can be overwritten and deleted',
      run(store) {
        store.put(Buffer.alloc(0), s('1'))
        expect(store.putIfAbsent(Buffer.alloc(0), s('2'))?.toString()).to.equal('1')
        store.put(Buffer.alloc(0), s('3'))
        expect(store.delete(Buffer.alloc(0))?.toString()).to.equal('3')
        store.put(s('k'), s('v'))
      },
      verify(store) {
        expect(store.get(Buffer.alloc(0))).to.equal(null)
        expect(hexKeys(store.all())).to.deep.equal(['6b'])
      }
    },
    {
      title: 'prefixScan of 0xff prefixes reaches the end of the key space',
      run(store) {
        for (const key of [
          b(0xff, 0xff, 0xff),
          b(0xff),
          b(0xfe, 0xff),
          b(0xff, 0x00),
          b(0xff, 0xff, 0x01),
          b(0xff, 0xff),
          b(0xfe),
          b(0x01, 0xff),
          b(0x02)
        ]) {
          store.put(key, s(key.toString('hex')))
        }
      },
      verify(store) {
        expect(hexKeys(store.prefixScan(b(0xff), bytesSerializer))).to.deep.equal(['ff', 'ff00', 'ffff', 'ffff01', 'ffffff'])
        expect(hexKeys(store.prefixScan(b(0xff, 0xff), bytesSerializer))).to.deep.equal(['ffff', 'ffff01', 'ffffff'])
        expect(hexKeys(store.prefixScan(b(0xff, 0xff, 0xff), bytesSerializer))).to.deep.equal(['ffffff'])
        expect(hexKeys(store.prefixScan(b(0xff, 0xff, 0xff, 0xff), bytesSerializer))).to.deep.equal([])
        // the bound after 0xfe 0xff is 0xff, which must not be included
        expect(hexKeys(store.prefixScan(b(0xfe), bytesSerializer))).to.deep.equal(['fe', 'feff'])
        expect(hexKeys(store.prefixScan(b(0x01), bytesSerializer))).to.deep.equal(['01ff'])
        const values = drain(store.prefixScan(b(0xff, 0xff), bytesSerializer)).map(kv => kv.value.toString())
        expect(values).to.deep.equal(['ffff', 'ffff01', 'ffffff'])
      }
    }
  ]
}
