/**
 * Runs the key-value compliance suite through the full stack a builder composes (metered ->
 * caching -> change-logging -> in-memory), then checks that the changelog the stack wrote
 * restores a fresh store to the same contents.
 */
import { expect } from 'chai'
import { KeyValue } from '@kstreams/core'
import { keyValueStoreCompliance } from '../src/compliance/key-value/index.js'
import { b, hexEntries, s, textEntries } from '../src/compliance/key-value/fixtures.js'
import { createKeyValueStackHarness } from '../src/compliance/key-value-stack-harness.js'
import { InMemoryKeyValueBytesStoreSupplier } from '../src/in-memory-key-value-bytes-store-supplier.js'

const stack = () =>
  createKeyValueStackHarness({
    name: 'metered -> caching -> change-logging -> in-memory',
    supplier: name => new InMemoryKeyValueBytesStoreSupplier(name),
    persistent: false
  })

keyValueStoreCompliance(stack())

describe('full key-value stack: changelog replay', () => {
  const harness = stack()
  after(async () => {
    await harness.cleanup()
  })

  it('restores a fresh store to the same contents from the changelog it wrote', async () => {
    const store = await harness.open()
    store.put(s('a'), s('1'))
    store.put(s('b'), s('2'))
    store.put(s('a'), s('11'))
    store.delete(s('b'))
    store.putAll([new KeyValue(s('c'), s('3')), new KeyValue(b(0xff, 0x00), b(0x80)), new KeyValue(s('c'), null)])
    store.putIfAbsent(s('d'), s('4'))
    store.putIfAbsent(s('d'), s('44'))
    store.put(Buffer.alloc(0), s('empty key'))
    store.put(s('empty value'), Buffer.alloc(0))
    store.put(s('gone'), s('x'))
    store.put(s('gone'), null)
    await harness.commit(store)
    const hex = (text: string): string => s(text).toString('hex')
    const expected = [`=${hex('empty key')}`, `${hex('a')}=${hex('11')}`, `${hex('d')}=${hex('4')}`, `${hex('empty value')}=`, 'ff00=80']
    expect(hexEntries(store.all())).to.deep.equal(expected)

    const changelog = harness.contextOf(store).changelog
    expect(changelog.length).to.be.greaterThan(0)
    expect(changelog.every(r => r.storeName === store.name)).to.equal(true)

    const restored = await harness.openFromChangelog(changelog)
    expect(hexEntries(restored.all())).to.deep.equal(expected)
    expect(restored.get(s('a'))?.toString()).to.equal('11')
    expect(restored.get(s('gone'))).to.equal(null)
    expect(restored.get(Buffer.alloc(0))?.toString()).to.equal('empty key')
    expect(restored.get(s('empty value'))?.length).to.equal(0)
    // restoring writes to the backend directly: nothing is logged again
    expect(harness.contextOf(restored).changelog).to.deep.equal([])
  })

  it('keeps the changelog across a reopen, so a replay has the writes of both periods', async () => {
    const store = await harness.open()
    store.put(s('k1'), s('1'))
    await harness.commit(store)
    const reopened = await harness.reopen!(store)
    reopened.put(s('k2'), s('2'))
    await harness.commit(reopened)
    const restored = await harness.openFromChangelog(harness.contextOf(reopened).changelog)
    expect(textEntries(restored.all())).to.deep.equal(['k1=1', 'k2=2'])
  })
})
