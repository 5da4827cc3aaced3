/**
 * The change-logging layer of key-value stores (Kafka's ChangeLoggingKeyValueBytesStore), over
 * bytes: every write goes to the store below and then to the store's ChangelogWriter as
 * (key, value or null for a delete, timestamp of the current record context). putIfAbsent logs
 * only when it wrote. Reads pass straight through. Without a changelog writer in its context
 * (MockProcessorContext, global stores) it only writes below.
 */
import type { KeyValue } from '../key-value.js'
import type { Serializer } from '../serialization/serde.js'
import type { KeyValueBytesStore, KeyValueIterator } from './key-value-store.js'
import type { ChangelogWriter, StateStore, StateStoreContext } from './state-store.js'

export class ChangeLoggingKeyValueBytesStore implements KeyValueBytesStore {
  readonly #inner: KeyValueBytesStore
  #context: StateStoreContext | undefined
  #writer: ChangelogWriter | undefined

  constructor (inner: KeyValueBytesStore) {
    this.#inner = inner
  }

  get name (): string { return this.#inner.name }
  get persistent (): boolean { return this.#inner.persistent }

  /** The layer below (the backend). */
  get wrapped (): KeyValueBytesStore { return this.#inner }

  init (context: StateStoreContext, root: StateStore): void | Promise<void> {
    this.#context = context
    const opened = this.#inner.init(context, root)
    if (opened instanceof Promise) return opened.then(() => { this.#writer = context.changelogWriter(this.name) })
    this.#writer = context.changelogWriter(this.name)
  }

  flush (): void { this.#inner.flush() }
  close (): void { this.#inner.close() }
  isOpen (): boolean { return this.#inner.isOpen() }

  put (key: Buffer, value: Buffer | null): void {
    this.#inner.put(key, value)
    this.log(key, value)
  }

  putIfAbsent (key: Buffer, value: Buffer | null): Buffer | null {
    const previous = this.#inner.putIfAbsent(key, value)
    if (previous === null) this.log(key, value)
    return previous
  }

  putAll (entries: ReadonlyArray<KeyValue<Buffer, Buffer | null>>): void {
    this.#inner.putAll(entries)
    for (const entry of entries) this.log(entry.key, entry.value)
  }

  delete (key: Buffer): Buffer | null {
    const previous = this.#inner.delete(key)
    this.log(key, null)
    return previous
  }

  get (key: Buffer): Buffer | null { return this.#inner.get(key) }
  range (from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> { return this.#inner.range(from, to) }
  reverseRange (from: Buffer | undefined, to: Buffer | undefined): KeyValueIterator<Buffer, Buffer> { return this.#inner.reverseRange(from, to) }
  all (): KeyValueIterator<Buffer, Buffer> { return this.#inner.all() }
  reverseAll (): KeyValueIterator<Buffer, Buffer> { return this.#inner.reverseAll() }
  prefixScan<P> (prefix: P, prefixKeySerializer: Serializer<P>): KeyValueIterator<Buffer, Buffer> { return this.#inner.prefixScan(prefix, prefixKeySerializer) }
  approximateNumEntries (): number { return this.#inner.approximateNumEntries() }

  /** Appends one changelog record for a write of `value` (the bytes stored below). */
  protected log (key: Buffer, value: Buffer | null): void {
    this.#writer?.append(key, value, this.recordTimestamp())
  }

  /** The changelog writer, once initialised (undefined when the store is not logged). */
  protected get writer (): ChangelogWriter | undefined {
    return this.#writer
  }

  /** The timestamp of the current record context (0 without one). */
  protected recordTimestamp (): number {
    return this.#context?.recordContext?.()?.timestamp ?? 0
  }
}
