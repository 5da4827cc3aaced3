/** The RocksDB config setter hook: when it runs, what it may change, where it comes from, and its failures. */
import { expect } from 'chai'
import { createTestStoreContext } from '@kstreams/stores/compliance'
import { StreamsError } from '@kstreams/core'
import type { ResolvedStreamsConfig } from '@kstreams/core'
import { RocksDBStore } from '../src/rocksdb-store.js'
import type { RocksDBConfigSetter, RocksDBOptions } from '../src/rocksdb-config-setter.js'
import { applyConfigSetter, resolveConfigSetter } from '../src/rocksdb-config-setter.js'
import { s, StoreFixture } from './helpers/open-store.js'

describe('RocksDB config setter', () => {
  const fixture = new StoreFixture()
  afterEach(async () => {
    await fixture.cleanup()
  })

  it('is called with the store name, the chosen options and the app configs before open, and close() at close', async () => {
    const calls: string[] = []
    let configs: ResolvedStreamsConfig | undefined
    const setter: RocksDBConfigSetter = {
      setConfig(name, options, appConfigs) {
        calls.push(`set ${name} ${String(options.cacheSize)}`)
        configs = appConfigs
        options.cacheSize = 1024 * 1024
        options.compression = false
      },
      close(name, options) {
        calls.push(`close ${name} ${String(options.cacheSize)} ${String(options.compression)}`)
      }
    }
    const { store, context } = await fixture.open('tuned', { configSetter: setter })
    expect(calls).to.deep.equal([`set tuned ${16 * 1024 * 1024}`])
    expect(configs).to.equal(context.appConfigs)
    store.put(s('a'), s('1'))
    store.close()
    await store.whenClosed()
    expect(calls).to.deep.equal([`set tuned ${16 * 1024 * 1024}`, `close tuned ${1024 * 1024} false`])
  })

  it('keeps only the tunable options: creation flags cannot be changed', () => {
    const tuned = applyConfigSetter(
      's',
      { cacheSize: 1 },
      {
        setConfig(_name, options) {
          Object.assign(options, { createIfMissing: false, errorIfExists: true, columns: { x: {} }, blockSize: 8192 })
        }
      },
      {} as ResolvedStreamsConfig
    )
    expect(tuned).to.deep.equal({ cacheSize: 1, blockSize: 8192 })
  })

  it('wraps what the setter throws in INVALID_CONFIG with the cause, and the store stays closed', async () => {
    const boom = new Error('boom')
    const dir = await fixture.dirs.make()
    const store = fixture.track(
      new RocksDBStore('tuned', {
        configSetter: {
          setConfig() {
            throw boom
          }
        }
      })
    )
    const err = await store.init(createTestStoreContext({ stateDir: dir }), store).then(
      () => undefined,
      (e: unknown) => e
    )
    expect((err as StreamsError).code).to.equal('INVALID_CONFIG')
    expect((err as Error).cause).to.equal(boom)
    expect(store.isOpen()).to.equal(false)
  })

  it('comes from the rocksdbConfigSetter config key when the store options have none', () => {
    const fromConfig: RocksDBConfigSetter = { setConfig() {} }
    const fromOptions: RocksDBConfigSetter = { setConfig() {} }
    const configs = { rocksdbConfigSetter: fromConfig } as unknown as ResolvedStreamsConfig
    expect(resolveConfigSetter(undefined, configs)).to.equal(fromConfig)
    expect(resolveConfigSetter(fromOptions, configs)).to.equal(fromOptions)
    expect(resolveConfigSetter(undefined, {} as ResolvedStreamsConfig)).to.equal(undefined)
    expect(() => resolveConfigSetter(undefined, { rocksdbConfigSetter: 42 } as unknown as ResolvedStreamsConfig)).to.throw(StreamsError)
  })

  it('a tuned store still works: options reach RocksDB', async () => {
    const seen: RocksDBOptions[] = []
    const { store } = await fixture.open('tuned', {
      configSetter: {
        setConfig(_n, options) {
          options.blockSize = 16 * 1024
          options.optimize = undefined
          seen.push(options)
        }
      }
    })
    store.put(s('k'), s('v'))
    store.flush()
    expect(store.get(s('k'))?.toString()).to.equal('v')
    expect(seen).to.have.length(1)
  })
})
