/**
 * What the change-logging layers of key-value, window and session stores share (Kafka's
 * ChangeLogging*BytesStore), over bytes: the store below, the store's ChangelogWriter (looked up
 * once the store below is open; undefined without one in the context, as with
 * MockProcessorContext or global stores, when the layer only writes below), the timestamp of the
 * current record context, and flush and close passed through. The timestamped layers log the plain
 * value with the stored timestamp as the record timestamp. @internal
 */
import { readInt64BE } from './int64-be.js'
import type { ChangelogWriter, StateStore, StateStoreContext } from './state-store.js'
import { WrappedStoreLayer } from './wrapped-store-layer.js'

const TIMESTAMP_SIZE = 8

export abstract class ChangeLoggingStoreBase<S extends StateStore> extends WrappedStoreLayer<S> {
  #context: StateStoreContext | undefined
  #writer: ChangelogWriter | undefined

  init(context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#context = context
    const opened = this.inner.init(context, root)
    if (opened instanceof Promise)
      return opened.then(() => {
        this.#writer = context.changelogWriter(this.name)
      })
    this.#writer = context.changelogWriter(this.name)
  }

  flush(): void {
    this.inner.flush()
  }
  close(): void {
    this.inner.close()
  }

  /** Appends one changelog record for a write of `value` (the bytes stored below) under `key`. */
  protected log(key: Buffer, value: Buffer | null): void {
    this.#writer?.append(key, value, this.recordTimestamp())
  }

  /**
   * Appends the write of a `[8-byte timestamp][value]` as the plain value with the stored
   * timestamp; a delete carries the current record's timestamp.
   */
  protected logTimestamped(key: Buffer, valueAndTimestamp: Buffer | null): void {
    const writer = this.#writer
    if (writer === undefined) return
    if (valueAndTimestamp === null) {
      writer.append(key, null, this.recordTimestamp())
      return
    }
    writer.append(key, valueAndTimestamp.subarray(TIMESTAMP_SIZE), readInt64BE(valueAndTimestamp, 0))
  }

  /** The changelog writer, once initialised (undefined when the store is not logged). */
  protected get writer(): ChangelogWriter | undefined {
    return this.#writer
  }

  /** The timestamp of the current record context (0 without one). */
  protected recordTimestamp(): number {
    return this.#context?.recordContext?.()?.timestamp ?? 0
  }
}
