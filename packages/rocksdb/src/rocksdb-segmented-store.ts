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

export interface RocksDBSegmentedStoreOptions extends RocksDBStoreOptions {
  readonly name: string
  readonly retentionPeriod: number
  readonly segmentInterval: number
}

/** @internal */
export abstract class RocksDBSegmentedStore {
  readonly name: string
  readonly persistent = true
  readonly retentionPeriod: number
  readonly segmentInterval: number
  readonly #segments: RocksDBSegmentedBytesStore

  /** Arguments are validated by the supplier. */
  constructor(options: RocksDBSegmentedStoreOptions, schema: SegmentedKeySchema) {
    this.name = validateStoreName(options.name)
    this.retentionPeriod = options.retentionPeriod
    this.segmentInterval = options.segmentInterval
    this.#segments = new RocksDBSegmentedBytesStore(this.name, this.retentionPeriod, this.segmentInterval, schema, options)
  }

  init(context: StateStoreContext, root: StateStore): Promise<void> {
    return this.#segments.init(context, root)
  }

  flush(): void {
    this.#segments.flush()
  }

  close(): void {
    this.#segments.close()
  }

  /** Resolves once the last close() has released the store's files. */
  whenClosed(): Promise<void> {
    return this.#segments.whenClosed()
  }

  isOpen(): boolean {
    return this.#segments.isOpen()
  }

  protected get segments(): RocksDBSegmentedBytesStore {
    return this.#segments
  }
}
