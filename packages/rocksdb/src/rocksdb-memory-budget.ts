/**
 * Bounds the native memory of every RocksDB instance of one application instance.
 *
 * @nxtedition/rocksdb 12.2.12 cannot share a block cache or a WriteBufferManager between DB
 * instances (binding.cc builds a new cache per DB from `cacheSize` and has no write-buffer-manager
 * option), so the budget is split into per-DB allowances instead of one shared pool:
 *
 * - Each opened DB reserves `blockCacheBytes` (its own cache, index and filter blocks charged to
 *   it) and `writeBufferBytes` (its memtables, worst case: the binding's level compaction keeps
 *   up to 6 memtables of `memtableMemoryBudget / 4`, so memtableMemoryBudget = writeBufferBytes / 1.5).
 * - A DB gets the per-DB maximum while the totals last, then what is left, and never less than the
 *   per-DB minimum. DBs opened once a total is used up get the minimum and count as over budget.
 * - So native memory <= totalBlockCache + totalWriteBuffer + overBudgetDbs x (minBlockCache +
 *   minWriteBuffer), plus RocksDB's fixed per-DB overhead (table readers, a few hundred KiB).
 *   `usage()` reports what is reserved. Releasing a DB (on close) returns its allowance.
 *
 * One budget is shared by every store of an application instance: pass one in the store options,
 * or let `forConfig` share one per resolved-config object. On worker threads each worker has its
 * own config, and with it its share of the instance's budget (core splits the config keys).
 */
import type { ResolvedStreamsConfig } from '@kstreams/core'
import { StreamsError } from '@kstreams/core'

const MiB = 1024 * 1024
/** The binding reads `cacheSize` as a uint32. */
const MAX_CACHE_SIZE = 0xffff_ffff

/** The sizes of a RocksDBMemoryBudget: totals, and what one DB gets at most and at least. */
export interface RocksDBMemoryBudgetOptions {
  /** Total block-cache bytes of all DBs. Default 64 MiB. */
  readonly blockCacheBytes?: number
  /** Total worst-case memtable bytes of all DBs. Default 64 MiB. */
  readonly writeBufferBytes?: number
  /** Most block cache one DB gets. Default 16 MiB. */
  readonly maxBlockCacheBytesPerDb?: number
  /** Most memtable memory one DB gets. Default 16 MiB. */
  readonly maxWriteBufferBytesPerDb?: number
  /** Least block cache one DB gets, even over budget. Default 1 MiB. */
  readonly minBlockCacheBytesPerDb?: number
  /** Least memtable memory one DB gets, even over budget. Default 1.5 MiB (256 KiB memtables). */
  readonly minWriteBufferBytesPerDb?: number
}

/** One DB's share of the budget. */
export interface RocksDBMemoryAllocation {
  /** The DB's block cache size. */
  readonly blockCacheBytes: number
  /** The DB's worst-case memtable memory. */
  readonly writeBufferBytes: number
  /** True when the totals were used up and this DB got the per-DB minimum beyond them. */
  readonly overBudget: boolean
  /** Returns the share to the budget; idempotent. */
  release(): void
}

/** What a RocksDBMemoryBudget has handed out. */
export interface RocksDBMemoryUsage {
  /** Block cache bytes reserved by open DBs. */
  readonly blockCacheBytes: number
  /** Memtable bytes reserved by open DBs. */
  readonly writeBufferBytes: number
  /** How many DBs hold a share. */
  readonly databases: number
  /** How many of them got the per-DB minimum beyond the totals. */
  readonly overBudgetDatabases: number
}

/** Future StreamsConfig keys (proposed), read when present. */
const CONFIG_BLOCK_CACHE = 'rocksdbBlockCacheBytes'
const CONFIG_WRITE_BUFFER = 'rocksdbWriteBufferBytes'

/**
 * Bounds the native memory of the RocksDB stores of one application instance: each DB gets a block
 * cache and memtable allowance out of the totals (RocksDB instances cannot share a cache here).
 */
export class RocksDBMemoryBudget {
  static readonly #byConfig = new WeakMap<object, RocksDBMemoryBudget>()

  /** Total block-cache bytes of all DBs. */
  readonly totalBlockCacheBytes: number
  /** Total worst-case memtable bytes of all DBs. */
  readonly totalWriteBufferBytes: number
  readonly #maxCache: number
  readonly #maxWrite: number
  readonly #minCache: number
  readonly #minWrite: number
  #usedCache = 0
  #usedWrite = 0
  #databases = 0
  #overBudget = 0

  constructor(options: RocksDBMemoryBudgetOptions = {}) {
    this.totalBlockCacheBytes = checkBytes('blockCacheBytes', options.blockCacheBytes, 64 * MiB)
    this.totalWriteBufferBytes = checkBytes('writeBufferBytes', options.writeBufferBytes, 64 * MiB)
    this.#maxCache = Math.min(checkBytes('maxBlockCacheBytesPerDb', options.maxBlockCacheBytesPerDb, 16 * MiB), MAX_CACHE_SIZE)
    this.#maxWrite = checkBytes('maxWriteBufferBytesPerDb', options.maxWriteBufferBytesPerDb, 16 * MiB)
    this.#minCache = Math.min(checkBytes('minBlockCacheBytesPerDb', options.minBlockCacheBytesPerDb, MiB), this.#maxCache)
    this.#minWrite = Math.min(checkBytes('minWriteBufferBytesPerDb', options.minWriteBufferBytesPerDb, 1.5 * MiB), this.#maxWrite)
  }

  /**
   * The budget shared by every store opened with this resolved config (one per KafkaStreams
   * instance or test driver), sized by the `rocksdbBlockCacheBytes` / `rocksdbWriteBufferBytes`
   * config keys when present.
   */
  static forConfig(appConfigs: ResolvedStreamsConfig): RocksDBMemoryBudget {
    let budget = RocksDBMemoryBudget.#byConfig.get(appConfigs)
    if (budget === undefined) {
      const configs = appConfigs as unknown as Record<string, unknown>
      budget = new RocksDBMemoryBudget({
        blockCacheBytes: numberOrUndefined(configs[CONFIG_BLOCK_CACHE]),
        writeBufferBytes: numberOrUndefined(configs[CONFIG_WRITE_BUFFER])
      })
      RocksDBMemoryBudget.#byConfig.set(appConfigs, budget)
    }
    return budget
  }

  /** Reserves one DB's share. */
  allocate(): RocksDBMemoryAllocation {
    const cacheLeft = this.totalBlockCacheBytes - this.#usedCache
    const writeLeft = this.totalWriteBufferBytes - this.#usedWrite
    const blockCacheBytes = Math.max(this.#minCache, Math.min(this.#maxCache, cacheLeft))
    const writeBufferBytes = Math.max(this.#minWrite, Math.min(this.#maxWrite, writeLeft))
    const overBudget = blockCacheBytes > cacheLeft || writeBufferBytes > writeLeft
    this.#usedCache += blockCacheBytes
    this.#usedWrite += writeBufferBytes
    this.#databases++
    if (overBudget) this.#overBudget++
    let released = false
    return {
      blockCacheBytes,
      writeBufferBytes,
      overBudget,
      release: () => {
        if (released) return
        released = true
        this.#usedCache -= blockCacheBytes
        this.#usedWrite -= writeBufferBytes
        this.#databases--
        if (overBudget) this.#overBudget--
      }
    }
  }

  /** What is reserved now. */
  usage(): RocksDBMemoryUsage {
    return {
      blockCacheBytes: this.#usedCache,
      writeBufferBytes: this.#usedWrite,
      databases: this.#databases,
      overBudgetDatabases: this.#overBudget
    }
  }
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' ? value : undefined
}

function checkBytes(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new StreamsError('ILLEGAL_ARGUMENT', `RocksDB memory budget: ${name} must be a non-negative integer, got ${String(value)}`)
  }
  return value
}
