/**
 * The suppression buffer (Kafka Streams' InMemoryTimeOrderedKeyValueChangeBuffer): a state store
 * holding at most one entry per key, ordered by (buffer time, serialized key). A key buffered
 * again keeps its place and buffer time and its prior value (the table's value before it entered
 * the buffer); its old and new values and record context are replaced. `evictWhile` hands the
 * oldest entries to a callback while a condition holds. Keys and values are kept serialized
 * (serdes default to the config's). When logged, `flush` writes every key changed since the
 * last flush to the changelog (the entry, or a tombstone once evicted), and restoration reads
 * them back. @internal
 */
import { IllegalStateError, ValueAndTimestamp } from '@kstreams/core'
import type { ChangelogWriter, ResolvedStreamsConfig, Serde, StateStore, StateStoreContext } from '@kstreams/core'
import { Change } from '../../change.js'
import { BufferValue } from './buffer-value.js'
import type { BufferedRecordContext } from './buffer-value.js'

export interface Eviction<K, V> {
  readonly key: K
  readonly value: Change<V>
  readonly context: BufferedRecordContext
}

interface Entry {
  readonly time: number
  readonly key: Buffer
  value: BufferValue
}

export class InMemoryTimeOrderedKeyValueChangeBuffer<K, V> implements StateStore {
  readonly name: string
  readonly persistent = false
  readonly #logged: boolean
  #keySerde: Serde<K> | undefined
  #valueSerde: Serde<V> | undefined
  #topic = ''
  #writer: ChangelogWriter | undefined
  #storeContext: StateStoreContext | undefined
  #open = false
  /** Sorted by (time, key bytes). */
  readonly #sorted: Entry[] = []
  readonly #index = new Map<string, Entry>()
  readonly #dirty = new Map<string, Buffer>()
  #memBufferSize = 0

  constructor(name: string, keySerde: Serde<K> | undefined, valueSerde: Serde<V> | undefined, logged: boolean) {
    this.name = name
    this.#keySerde = keySerde
    this.#valueSerde = valueSerde
    this.#logged = logged
  }

  init(context: StateStoreContext, root: StateStore): void {
    this.#storeContext = context
    this.#topic = `${context.applicationId}-${this.name}-changelog`
    this.#writer = this.#logged ? context.changelogWriter(this.name) : undefined
    context.register(root, records => {
      for (const record of records) this.#restore(record.key, record.value)
    })
    this.#open = true
  }

  /** Uses the config's default serdes for those not given (Kafka Streams' setSerdesIfNull). */
  setSerdesIfNull(config: ResolvedStreamsConfig): void {
    this.#keySerde ??= config.defaultKeySerde as Serde<K> | undefined
    this.#valueSerde ??= config.defaultValueSerde as Serde<V> | undefined
  }

  isOpen(): boolean {
    return this.#open
  }

  close(): void {
    this.#open = false
    this.#sorted.length = 0
    this.#index.clear()
    this.#dirty.clear()
    this.#memBufferSize = 0
  }

  flush(): void {
    if (this.#writer === undefined) return
    const timestamp = this.#storeContext?.recordContext?.()?.timestamp ?? 0
    for (const [id, key] of this.#dirty) {
      const entry = this.#index.get(id)
      this.#writer.append(key, entry === undefined ? null : entry.value.serialize(entry.time), timestamp)
    }
    this.#dirty.clear()
  }

  numRecords(): number {
    return this.#sorted.length
  }
  bufferSize(): number {
    return this.#memBufferSize
  }
  minTimestamp(): number {
    return this.#sorted[0]?.time ?? Number.MAX_SAFE_INTEGER
  }

  put(time: number, key: K, change: Change<V>, context: BufferedRecordContext): void {
    this.#checkOpen()
    const keyBytes = this.#serializeKey(key)
    const newValue = this.#serializeValue(change.newValue)
    const oldValue = this.#serializeValue(change.oldValue)
    const id = keyBytes.toString('hex')
    const buffered = this.#index.get(id)
    const prior = buffered === undefined ? oldValue : buffered.value.priorValue
    this.#cleanPut(time, keyBytes, new BufferValue(prior, oldValue, newValue, context))
    this.#dirty.set(id, keyBytes)
  }

  /** Evicts the oldest entries, one at a time, while `predicate` holds. */
  evictWhile(predicate: () => boolean, callback: (eviction: Eviction<K, V>) => void): void {
    while (this.#sorted.length > 0 && predicate()) {
      const entry = this.#sorted[0]!
      const id = entry.key.toString('hex')
      const eviction = {
        key: this.#keySerde!.deserializer().deserialize(this.#topic, entry.key) as K,
        value: new Change<V>(this.#deserializeValue(entry.value.newValue), this.#deserializeValue(entry.value.oldValue)),
        context: entry.value.context
      }
      callback(eviction)
      this.#sorted.shift()
      this.#index.delete(id)
      this.#dirty.set(id, entry.key)
      this.#memBufferSize -= recordSize(entry.key, entry.value)
    }
  }

  /**
   * The value the table had before the key entered the buffer, with an unknown timestamp (-1,
   * Kafka's RecordQueue.UNKNOWN: the buffer never learns when the prior value was written);
   * `defined` is false when the key is not buffered.
   */
  priorValueForBuffered(key: K): { defined: boolean; value: ValueAndTimestamp<V> | null } {
    const entry = this.#index.get(this.#serializeKey(key).toString('hex'))
    if (entry === undefined) return { defined: false, value: null }
    const prior = this.#deserializeValue(entry.value.priorValue)
    return { defined: true, value: ValueAndTimestamp.make(prior, -1) }
  }

  #cleanPut(time: number, key: Buffer, value: BufferValue): void {
    const id = key.toString('hex')
    const previous = this.#index.get(id)
    if (previous === undefined) {
      const entry: Entry = { time, key, value }
      this.#sorted.splice(insertionPoint(this.#sorted, time, key), 0, entry)
      this.#index.set(id, entry)
      this.#memBufferSize += recordSize(key, value)
    } else {
      this.#memBufferSize += recordSize(key, value) - recordSize(key, previous.value)
      previous.value = value
    }
  }

  #restore(key: Buffer, value: Buffer | null): void {
    const id = key.toString('hex')
    if (value === null) {
      const entry = this.#index.get(id)
      if (entry === undefined) return
      this.#sorted.splice(this.#sorted.indexOf(entry), 1)
      this.#index.delete(id)
      this.#memBufferSize -= recordSize(entry.key, entry.value)
      return
    }
    const restored = BufferValue.deserialize(value)
    const existing = this.#index.get(id)
    if (existing !== undefined && existing.time !== restored.time) {
      this.#sorted.splice(this.#sorted.indexOf(existing), 1)
      this.#index.delete(id)
      this.#memBufferSize -= recordSize(existing.key, existing.value)
    }
    this.#cleanPut(restored.time, Buffer.from(key), restored.value)
  }

  #serializeKey(key: K): Buffer {
    if (this.#keySerde === undefined)
      throw new IllegalStateError(`Suppression buffer ${this.name} has no key serde: set one on the table or defaultKeySerde`)
    const bytes = this.#keySerde.serializer().serialize(this.#topic, key)
    if (bytes === null) throw new IllegalStateError(`Suppression buffer ${this.name}: the key serializer returned null`)
    return bytes
  }

  #serializeValue(value: V | null): Buffer | null {
    if (value === null || value === undefined) return null
    if (this.#valueSerde === undefined)
      throw new IllegalStateError(`Suppression buffer ${this.name} has no value serde: set one on the table or defaultValueSerde`)
    return this.#valueSerde.serializer().serialize(this.#topic, value)
  }

  #deserializeValue(bytes: Buffer | null): V | null {
    if (bytes === null) return null
    return this.#valueSerde!.deserializer().deserialize(this.#topic, bytes)
  }

  #checkOpen(): void {
    if (!this.#open) throw new IllegalStateError(`Suppression buffer ${this.name} is not open`)
  }
}

/** Kafka Streams' computeRecordSize: the buffer time, the key and the value's estimate. */
function recordSize(key: Buffer, value: BufferValue): number {
  return 8 + key.length + value.sizeEstimate()
}

function insertionPoint(sorted: readonly Entry[], time: number, key: Buffer): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    const entry = sorted[mid]!
    const cmp = entry.time !== time ? entry.time - time : Buffer.compare(entry.key, key)
    if (cmp < 0) low = mid + 1
    else high = mid
  }
  return low
}
