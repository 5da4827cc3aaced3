/**
 * The typed face of @nxtedition/rocksdb 12.2.12 (a CommonJS module without type declarations):
 * only the members kstreams uses, including the binding's synchronous paths (`_getManySync`,
 * iterator `_nextvSync`, chained batch `_writeSync`). Nothing else in this package touches the
 * binding's objects directly, so an upgrade is checked here.
 * @internal
 */
import { createRequire } from 'node:module'

/** Open options the binding reads (binding.cc `db_open` / `InitOptions`). */
export interface NativeOpenOptions {
  /** Creates the DB when it does not exist. */
  createIfMissing?: boolean
  /** Fails when the DB already exists. */
  errorIfExists?: boolean
  /** Bytes of this DB's own block cache (HyperClockCache); 0 disables it. Default 8 MiB. */
  cacheSize?: number
  /** Whether index and filter blocks are kept in (and charged to) the block cache. */
  cacheIndexAndFilterBlocks?: boolean
  /** Only read when `compaction` is set: write_buffer_size = budget / 4, up to 6 memtables. */
  memtableMemoryBudget?: number
  /** The compaction style; sizes the memtables from memtableMemoryBudget. */
  compaction?: 'level' | 'universal'
  /** ZSTD compression of the data blocks; default true. */
  compression?: boolean
  /** The data block size (RocksDB's block_size). */
  blockSize?: number
  /** Keys between restart points in a data block (RocksDB's block_restart_interval). */
  blockRestartInterval?: number
  /** A RocksDB filter policy, as RocksDB's string form (e.g. `bloomfilter:10:false`). */
  filterPolicy?: string
  /** 'point-lookup': a hash index in data blocks and ribbon filters, for gets. */
  optimize?: 'point-lookup' | 'range-lookup'
  /** Background threads for flushes and compactions; default half the CPUs. */
  parallelism?: number
  /** How long (ms) archived write-ahead-log files are kept. */
  walTTL?: number
  /** Size (bytes) up to which archived write-ahead-log files are kept. */
  walSizeLimit?: number
  /** ZSTD compression of the write-ahead log; default true. */
  walCompression?: boolean
  /** RocksDB's enable_pipelined_write. */
  pipelinedWrite?: boolean
  /** RocksDB's own info log level; default none (no info log). */
  infoLogLevel?: 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'header'
}

export interface NativeIteratorOptions {
  gt?: Buffer
  gte?: Buffer
  lt?: Buffer
  lte?: Buffer
  reverse?: boolean
  keys?: boolean
  values?: boolean
  limit?: number
}

export interface NativeIterator {
  /** Up to `size` rows as [key, value, key, value, ...]; `finished` once the range is done. */
  _nextvSync(size: number): { rows: Array<Buffer | undefined>; finished: boolean }
  /** Closes the native iterator at once; the callback runs on the next tick. */
  close(callback: (err?: unknown) => void): void
}

export interface NativeChainedBatch {
  _put(key: Buffer, value: Buffer): void
  _del(key: Buffer): void
  /** Writes the batch on the calling thread. */
  _writeSync(options?: { sync?: boolean }): void
  _closeSync(): void
}

export interface NativeDatabase {
  readonly status: 'opening' | 'open' | 'closing' | 'closed'
  /**
   * The open DB's native address: another thread's binding can use the DB through it (while it
   * stays open). Only read when open.
   */
  readonly handle?: bigint
  open(options: NativeOpenOptions): Promise<void>
  close(): Promise<void>
  /** Values in key order; undefined for a missing key. Synchronous. */
  _getManySync(keys: Buffer[]): Array<Buffer | undefined>
  iterator(options: NativeIteratorOptions): NativeIterator
  batch(): NativeChainedBatch
  getProperty(property: string): string
  /** With `limit: -1`, one RocksDB DeleteRange of [gte, lt), run synchronously; errors arrive on the next tick. */
  _clear(options: { gte: Buffer; lt: Buffer; limit: -1 }, callback: (err?: unknown) => void): void
}

export type NativeDatabaseFactory = (location: string) => NativeDatabase

interface RocksLevelModule {
  RocksLevel: new (location: string, options: { keyEncoding: 'buffer'; valueEncoding: 'buffer' }) => NativeDatabase
}

/** Loads the binding; throws what `require` throws when no prebuild fits the platform. */
export function loadNativeDatabaseFactory(): NativeDatabaseFactory {
  const require = createRequire(import.meta.url)
  const { RocksLevel } = require('@nxtedition/rocksdb') as RocksLevelModule
  return location => new RocksLevel(location, { keyEncoding: 'buffer', valueEncoding: 'buffer' })
}
