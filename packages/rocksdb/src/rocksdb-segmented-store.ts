/**
 * What the RocksDB window and session stores share: the name, retention and segment interval,
 * and the lifecycle (init, flush, close, whenClosed, isOpen), all delegated to the
 * time-segmented bytes store beneath them, which the subclasses read and write through
 * `segments`.
 * @internal
 */
import type { StateStore, StateStoreContext } from '@kstreams/core'
import { validateStoreName } from '@kstreams/core/internal'
import { RocksDBSegmentedBytesStore } from './rocksdb-segmented-bytes-store.js'
import type { RocksDBStoreOptions } from './rocksdb-store-options.js'
import type { SegmentedKeySchema } from './segmented-key-schema.js'

/**
 * The options of a time-segmented RocksDB store: the RocksDB store options, its name, retention and segments.
 * @inline
 */
export interface RocksDBSegmentedStoreOptions extends RocksDBStoreOptions {
  /** The store's name. */
  readonly name: string
  /** How long (ms) windows or sessions are kept. */
  readonly retentionPeriod: number
  /** The time span (ms) of one segment: expired windows or sessions are dropped a segment at a time. */
  readonly segmentInterval: number
}

/** @internal */
export abstract class RocksDBSegmentedStore {
  /** The store's name. */
  readonly name: string
  /** Always true: the data is on disk. */
  readonly persistent = true
  /** How long (ms) windows or sessions are kept. */
  readonly retentionPeriod: number
  /** The time span (ms) of one segment: expired windows or sessions are dropped a segment at a time. */
  readonly segmentInterval: number
  readonly #segments: RocksDBSegmentedBytesStore

  /** Arguments are validated by the supplier. */
  constructor(options: RocksDBSegmentedStoreOptions, schema: SegmentedKeySchema) {
    this.name = validateStoreName(options.name)
    this.retentionPeriod = options.retentionPeriod
    this.segmentInterval = options.segmentInterval
    this.#segments = new RocksDBSegmentedBytesStore(this.name, this.retentionPeriod, this.segmentInterval, schema, options)
  }

  /** Opens the store's segments (asynchronously) and registers its restore callback. */
  init(context: StateStoreContext, root: StateStore): Promise<void> {
    return this.#segments.init(context, root)
  }

  /** Writes pending writes to RocksDB (the commit). */
  flush(): void {
    this.#segments.flush()
  }

  /** Closes the store; its files are released once whenClosed() resolves. */
  close(): void {
    this.#segments.close()
  }

  /** Resolves once the last close() has released the store's files. */
  whenClosed(): Promise<void> {
    return this.#segments.whenClosed()
  }

  /** Whether the store is open. */
  isOpen(): boolean {
    return this.#segments.isOpen()
  }

  protected get segments(): RocksDBSegmentedBytesStore {
    return this.#segments
  }
}
