/** The write overlay (pending writes and their snapshots) and the latin1 key helpers. */
import { expect } from 'chai'
import { WriteOverlay } from '../src/write-overlay.js'
import { bytesToKey, keyToBytes, prefixUpperBoundBytes as prefixUpperBound } from '@kstreams/core/internal'

const k = (hex: string): string => bytesToKey(Buffer.from(hex, 'hex'))
const hexKeys = (keys: readonly string[]): string[] => keys.map(key => keyToBytes(key).toString('hex'))

describe('WriteOverlay', () => {
  it('keeps the last value per key, null for deletes, and counts its bytes', () => {
    const overlay = new WriteOverlay()
    overlay.set(k('01'), Buffer.alloc(10))
    overlay.set(k('01'), Buffer.alloc(4))
    overlay.set(k('02'), null)
    expect(overlay.size).to.equal(2)
    expect(overlay.get(k('01'))?.length).to.equal(4)
    expect(overlay.get(k('02'))).to.equal(null)
    expect(overlay.get(k('03'))).to.equal(undefined)
    expect(overlay.bytes).to.equal(1 + 64 + 4 + 1 + 64)
    expect(overlay.deletes).to.equal(1)
    overlay.set(k('02'), Buffer.alloc(1))
    overlay.set(k('01'), null)
    overlay.set(k('01'), null)
    expect(overlay.deletes).to.equal(1)
    overlay.clear()
    expect(overlay.size).to.equal(0)
    expect(overlay.bytes).to.equal(0)
    expect(overlay.deletes).to.equal(0)
  })

  it('snapshots a key range in byte order, bounds inclusive or exclusive, keys added in any order', () => {
    const overlay = new WriteOverlay()
    for (const hex of ['80', '00', 'ff', '7f00', '7f', '']) overlay.set(k(hex), Buffer.from(hex, 'hex'))
    expect(hexKeys(overlay.snapshot(undefined, undefined).keys)).to.deep.equal(['', '00', '7f', '7f00', '80', 'ff'])
    overlay.set(k('7e'), null)
    const range = overlay.snapshot(Buffer.from('7e', 'hex'), Buffer.from('80', 'hex'))
    expect(hexKeys(range.keys)).to.deep.equal(['7e', '7f', '7f00', '80'])
    expect(range.values.map(v => v?.toString('hex') ?? null)).to.deep.equal([null, '7f', '7f00', '80'])
    expect(hexKeys(overlay.snapshot(Buffer.from('7f', 'hex'), Buffer.from('80', 'hex'), true).keys)).to.deep.equal(['7f', '7f00'])
    expect(overlay.snapshot(Buffer.from('90', 'hex'), Buffer.from('a0', 'hex')).keys).to.deep.equal([])
  })

  it('a snapshot is not changed by later writes or a clear', () => {
    const overlay = new WriteOverlay()
    overlay.set(k('01'), Buffer.from('a'))
    const snapshot = overlay.snapshot(undefined, undefined)
    overlay.set(k('01'), Buffer.from('b'))
    overlay.set(k('00'), Buffer.from('c'))
    overlay.clear()
    expect(hexKeys(snapshot.keys)).to.deep.equal(['01'])
    expect(snapshot.values[0]?.toString()).to.equal('a')
  })
})

describe('latin1 keys', () => {
  it('convert losslessly and compare like unsigned bytes', () => {
    const keys = [Buffer.from([0xff]), Buffer.from([0x00, 0x01]), Buffer.alloc(0), Buffer.from('a long key of many bytes')]
    for (const key of keys) expect(keyToBytes(bytesToKey(key)).equals(key)).to.equal(true)
    const sorted = [...keys].sort(Buffer.compare).map(bytesToKey)
    expect([...sorted].sort()).to.deep.equal(sorted)
  })

  it('prefixUpperBound is the next prefix, undefined when there is none', () => {
    expect(prefixUpperBound(Buffer.from([0x61, 0x62]))?.toString('hex')).to.equal('6163')
    expect(prefixUpperBound(Buffer.from([0x61, 0xff]))?.toString('hex')).to.equal('62')
    expect(prefixUpperBound(Buffer.from([0xff, 0xff]))).to.equal(undefined)
    expect(prefixUpperBound(Buffer.alloc(0))).to.equal(undefined)
  })
})
