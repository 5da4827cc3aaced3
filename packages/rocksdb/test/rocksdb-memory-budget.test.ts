/** The memory budget: per-DB allowances, totals and minimums, sharing per config, and stores drawing from it. */
import { expect } from 'chai'
import { resolveStreamsConfig } from '@kstreams/core'
import { codeOf, createTestStoreContext } from '@kstreams/stores/compliance'
import { RocksDBMemoryBudget } from '../src/rocksdb-memory-budget.js'
import { RocksDBStore } from '../src/rocksdb-store.js'
import type { RocksDBOptions } from '../src/rocksdb-config-setter.js'
import { s, StoreFixture } from './helpers/open-store.js'

const MiB = 1024 * 1024

describe('RocksDBMemoryBudget', () => {
  it('gives each DB the per-DB maximum while the totals last, then the rest, then the minimum', () => {
    const budget = new RocksDBMemoryBudget({
      blockCacheBytes: 40 * MiB,
      writeBufferBytes: 30 * MiB,
      maxBlockCacheBytesPerDb: 16 * MiB,
      maxWriteBufferBytesPerDb: 12 * MiB,
      minBlockCacheBytesPerDb: MiB,
      minWriteBufferBytesPerDb: 2 * MiB
    })
    const a = budget.allocate()
    const b = budget.allocate()
    const c = budget.allocate()
    const d = budget.allocate()
    expect([a.blockCacheBytes, b.blockCacheBytes, c.blockCacheBytes, d.blockCacheBytes]).to.deep.equal([16 * MiB, 16 * MiB, 8 * MiB, MiB])
    expect([a.writeBufferBytes, b.writeBufferBytes, c.writeBufferBytes, d.writeBufferBytes]).to.deep.equal([
      12 * MiB,
      12 * MiB,
      6 * MiB,
      2 * MiB
    ])
    expect([a.overBudget, b.overBudget, c.overBudget, d.overBudget]).to.deep.equal([false, false, false, true])
    expect(budget.usage()).to.deep.equal({ blockCacheBytes: 41 * MiB, writeBufferBytes: 32 * MiB, databases: 4, overBudgetDatabases: 1 })
    d.release()
    d.release()
    a.release()
    expect(budget.usage()).to.deep.equal({ blockCacheBytes: 24 * MiB, writeBufferBytes: 18 * MiB, databases: 2, overBudgetDatabases: 0 })
    expect(budget.allocate().blockCacheBytes).to.equal(16 * MiB)
  })

  it('defaults: 64 MiB of block cache and 64 MiB of write buffers, at most 16 MiB each per DB', () => {
    const budget = new RocksDBMemoryBudget()
    expect(budget.totalBlockCacheBytes).to.equal(64 * MiB)
    expect(budget.totalWriteBufferBytes).to.equal(64 * MiB)
    const first = budget.allocate()
    expect(first.blockCacheBytes).to.equal(16 * MiB)
    expect(first.writeBufferBytes).to.equal(16 * MiB)
  })

  it('rejects invalid sizes with ILLEGAL_ARGUMENT', () => {
    expect(codeOf(() => new RocksDBMemoryBudget({ blockCacheBytes: -1 }))).to.equal('ILLEGAL_ARGUMENT')
    expect(codeOf(() => new RocksDBMemoryBudget({ writeBufferBytes: 0.5 }))).to.equal('ILLEGAL_ARGUMENT')
  })

  it('forConfig shares one budget per resolved config, sized by rocksdbBlockCacheBytes / rocksdbWriteBufferBytes when present', () => {
    const config = resolveStreamsConfig({ applicationId: 'app' })
    expect(RocksDBMemoryBudget.forConfig(config)).to.equal(RocksDBMemoryBudget.forConfig(config))
    expect(RocksDBMemoryBudget.forConfig(resolveStreamsConfig({ applicationId: 'app' }))).to.not.equal(
      RocksDBMemoryBudget.forConfig(config)
    )
    const withKeys = Object.freeze({ ...config, rocksdbBlockCacheBytes: 8 * MiB, rocksdbWriteBufferBytes: 4 * MiB })
    const sized = RocksDBMemoryBudget.forConfig(withKeys)
    expect(sized.totalBlockCacheBytes).to.equal(8 * MiB)
    expect(sized.totalWriteBufferBytes).to.equal(4 * MiB)
  })

  describe('with stores', () => {
    const fixture = new StoreFixture()
    afterEach(async () => {
      await fixture.cleanup()
    })

    it('stores draw from the budget while open and give their share back once closed', async () => {
      const budget = new RocksDBMemoryBudget({ blockCacheBytes: 4 * MiB, maxBlockCacheBytesPerDb: 2 * MiB })
      const seen: RocksDBOptions[] = []
      const options = {
        memoryBudget: budget,
        configSetter: {
          setConfig: (_name: string, o: RocksDBOptions) => {
            seen.push({ ...o })
          }
        }
      }
      const { store: one } = await fixture.open('one', options)
      const { store: two } = await fixture.open('two', options)
      expect(budget.usage().databases).to.equal(2)
      expect(budget.usage().blockCacheBytes).to.equal(4 * MiB)
      expect(seen.map(o => o.cacheSize)).to.deep.equal([2 * MiB, 2 * MiB])
      // memtables: up to 6 of memtableMemoryBudget / 4, i.e. 1.5 x the budget, fit the allowance
      expect(seen[0]!.memtableMemoryBudget! * 1.5).to.be.at.most(16 * MiB)
      expect(seen[0]!.compaction).to.equal('level')
      expect(seen[0]!.cacheIndexAndFilterBlocks).to.equal(true)
      one.put(s('a'), s('1'))
      one.close()
      await one.whenClosed()
      expect(budget.usage().databases).to.equal(1)
      two.close()
      await two.whenClosed()
      expect(budget.usage()).to.deep.equal({ blockCacheBytes: 0, writeBufferBytes: 0, databases: 0, overBudgetDatabases: 0 })
    })

    it('a failed open gives its share back', async () => {
      const budget = new RocksDBMemoryBudget()
      const { stateDir } = await fixture.open('held', { memoryBudget: budget })
      const second = fixture.track(new RocksDBStore('held', { memoryBudget: budget, lockTimeoutMs: 0 }))
      await second.init(createTestStoreContext({ stateDir }), second).catch(() => {})
      expect(budget.usage().databases).to.equal(1)
    })
  })
})
