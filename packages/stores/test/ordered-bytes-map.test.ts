import { expect } from 'chai'
import { bytesToKey, keyToBytes, prefixUpperBound } from '@kstreams/core/internal'
import { OrderedBytesMap } from '../src/ordered-bytes-map.js'
import { SortedStringList } from '../src/sorted-string-list.js'

/** A small deterministic PRNG (mulberry32), so failures reproduce. */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const EDGE_BYTES = [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff]

function randomKey(rnd: () => number): Buffer {
  const length = Math.floor(rnd() * 12)
  const bytes = Buffer.alloc(length)
  for (let i = 0; i < length; i++) bytes[i] = rnd() < 0.5 ? EDGE_BYTES[Math.floor(rnd() * EDGE_BYTES.length)]! : Math.floor(rnd() * 256)
  return bytes
}

/** The reference: a Map by hex with a full sort by Buffer.compare on every read. */
class Model {
  readonly entries = new Map<string, Buffer>()
  set(key: Buffer, value: Buffer): void {
    this.entries.set(key.toString('hex'), value)
  }
  delete(key: Buffer): void {
    this.entries.delete(key.toString('hex'))
  }
  keys(from: Buffer | undefined, to: Buffer | undefined, toExclusive = false): string[] {
    return [...this.entries.keys()]
      .map(h => Buffer.from(h, 'hex'))
      .filter(
        k =>
          (from === undefined || Buffer.compare(k, from) >= 0) &&
          (to === undefined || (toExclusive ? Buffer.compare(k, to) < 0 : Buffer.compare(k, to) <= 0))
      )
      .sort(Buffer.compare)
      .map(k => k.toString('hex'))
  }
}

const toHex = (keys: string[]): string[] => keys.map(k => keyToBytes(k).toString('hex'))

describe('byte keys', () => {
  it('round-trip every byte value and compare like unsigned bytes', () => {
    const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i))
    for (const bytes of [all, all.subarray(0, 8), all.subarray(250), Buffer.alloc(0)]) {
      expect(keyToBytes(bytesToKey(bytes)).equals(bytes)).to.equal(true)
    }
    const rnd = random(7)
    for (let i = 0; i < 2000; i++) {
      const x = randomKey(rnd)
      const y = randomKey(rnd)
      const byString = bytesToKey(x) < bytesToKey(y) ? -1 : bytesToKey(x) === bytesToKey(y) ? 0 : 1
      expect(byString, `${x.toString('hex')} vs ${y.toString('hex')}`).to.equal(Buffer.compare(x, y))
    }
  })

  it('prefixUpperBound is the least key above every key with the prefix', () => {
    const bound = (...bytes: number[]): string | undefined => {
      const upper = prefixUpperBound(bytesToKey(Buffer.from(bytes)))
      return upper === undefined ? undefined : keyToBytes(upper).toString('hex')
    }
    expect(bound(0x01)).to.equal('02')
    expect(bound(0x01, 0xff)).to.equal('02')
    expect(bound(0x01, 0xfe)).to.equal('01ff')
    expect(bound(0xff, 0xff)).to.equal(undefined)
    expect(bound()).to.equal(undefined)
  })
})

describe('SortedStringList', () => {
  it('stays sorted and distinct through inserts and removes across many chunks', () => {
    const rnd = random(1)
    const list = new SortedStringList()
    const model = new Set<string>()
    for (let i = 0; i < 20000; i++) {
      const key = String(Math.floor(rnd() * 6000)).padStart(4, '0')
      if (rnd() < 0.7) {
        list.insert(key)
        model.add(key)
      } else {
        list.remove(key)
        model.delete(key)
      }
    }
    expect(list.size).to.equal(model.size)
    expect(list.slice(undefined, undefined)).to.deep.equal([...model].sort())
    expect(list.slice('1000', '2000')).to.deep.equal([...model].filter(k => k >= '1000' && k <= '2000').sort())
    expect(list.slice('1000', '2000', true)).to.deep.equal([...model].filter(k => k >= '1000' && k < '2000').sort())
    for (const key of [...model]) list.remove(key)
    expect(list.size).to.equal(0)
    expect(list.slice(undefined, undefined)).to.deep.equal([])
  })
})

describe('OrderedBytesMap', () => {
  for (const [label, seed, ops, queryEvery] of [
    ['with a range read after every few writes', 11, 6000, 9],
    ['with rare range reads (rebuild path)', 12, 20000, 3000],
    ['with bulk loads and mass deletes', 13, 30000, 10000]
  ] as const) {
    it(`matches a reference model ${label}`, () => {
      const rnd = random(seed)
      const map = new OrderedBytesMap()
      const model = new Model()
      const pool = Array.from({ length: 4000 }, () => randomKey(rnd))
      for (let i = 0; i < ops; i++) {
        const phaseDeletes = label.includes('mass') && Math.floor(i / 10000) % 2 === 1
        const key = pool[Math.floor(rnd() * pool.length)]!
        if (rnd() < (phaseDeletes ? 0.1 : 0.7)) {
          const value = Buffer.from([i & 0xff])
          map.set(bytesToKey(key), value)
          model.set(key, value)
        } else {
          expect(map.delete(bytesToKey(key))).to.equal(model.entries.get(key.toString('hex')))
          model.delete(key)
        }
        if (i % queryEvery === 0) {
          const a = pool[Math.floor(rnd() * pool.length)]!
          const c = pool[Math.floor(rnd() * pool.length)]!
          const [from, to] = Buffer.compare(a, c) <= 0 ? [a, c] : [c, a]
          expect(toHex(map.keys(bytesToKey(from), bytesToKey(to)))).to.deep.equal(model.keys(from, to))
          expect(toHex(map.keys(bytesToKey(from), bytesToKey(to), true))).to.deep.equal(model.keys(from, to, true))
        }
        expect(map.size).to.equal(model.entries.size)
      }
      expect(toHex(map.keys(undefined, undefined))).to.deep.equal(model.keys(undefined, undefined))
      for (const [h, value] of model.entries) expect(map.get(bytesToKey(Buffer.from(h, 'hex')))).to.equal(value)
    })
  }

  it('hands out key copies that later writes do not change', () => {
    const map = new OrderedBytesMap()
    map.set('b', Buffer.from('1'))
    const snapshot = map.keys(undefined, undefined)
    map.set('a', Buffer.from('1'))
    map.delete('b')
    expect(snapshot).to.deep.equal(['b'])
    expect(map.keys(undefined, undefined)).to.deep.equal(['a'])
  })

  it('clear empties keys and values', () => {
    const map = new OrderedBytesMap()
    for (let i = 0; i < 100; i++) map.set(String(i), Buffer.from('v'))
    map.clear()
    expect(map.size).to.equal(0)
    expect(map.keys(undefined, undefined)).to.deep.equal([])
    map.set('x', Buffer.from('v'))
    expect(map.keys(undefined, undefined)).to.deep.equal(['x'])
  })
})
