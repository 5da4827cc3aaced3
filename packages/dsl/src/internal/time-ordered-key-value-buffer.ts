/**
 * The buffer of a stream-table join with a grace period (Kafka Streams' RocksDBTimeOrderedKeyValueBuffer,
 * KIP-923): stream records waiting to join, ordered by (timestamp, serialized key, sequence number)
 * so that two records with the same key and timestamp are both kept. A record older than observed
 * stream time minus the grace period is refused (put() returns false: the caller joins it at once);
 * `evictWhile` hands every record at or before that time to a callback, oldest first, and removes
 * it. Observed stream time is the greatest timestamp buffered; after a restart it is read back from
 * the newest record in the store (with a grace period above zero the newest record stays buffered
 * until a newer one arrives, so nothing is lost; with none the buffer is empty and every record is
 * evicted as it is put, which joins it as Kafka Streams would).
 *
 * Entries live in a key-value bytes store from the builder's DslStoreSuppliers, change-logged as
 * Kafka Streams logs the buffer: the key is Kafka's time-first window key (a 0 prefix byte, the
 * 8-byte timestamp, the key bytes, a 4-byte sequence number), the value Kafka's BufferValue (the
 * record context, no prior or old value, the value bytes, a buffer time of 0). Serdes not given
 * default to the configured ones (setSerdesIfNull); they are called with the join's name as the
 * topic and the record's headers. @internal
 */
import { ConfigError } from '@kstreams/core'
import type { KeyValueBytesStoreSupplier, KeyValueStore, ResolvedStreamsConfig, Serde } from '@kstreams/core'
import { KeyValueBackedStore, KeyValueBackedStoreBuilder } from './key-value-backed-store.js'
import { BufferValue } from './suppress/buffer-value.js'
import type { BufferedRecordContext } from './suppress/buffer-value.js'

/** A record leaving the buffer: its key, value and the record context it was buffered with. */
export interface BufferedRecord<K, V> {
  readonly key: K
  readonly value: V
  readonly context: BufferedRecordContext
}

const TIME_FIRST_PREFIX = 0
const NO_TIMESTAMP = -1
const LOWEST_KEY = Buffer.from([TIME_FIRST_PREFIX])

export class TimeOrderedKeyValueBuffer<K, V> extends KeyValueBackedStore {
  readonly #gracePeriodMs: number
  readonly #topic: string
  #keySerde: Serde<K> | undefined
  #valueSerde: Serde<V> | undefined
  #observedStreamTime: number | undefined
  #seqnum = 0

  constructor(
    inner: KeyValueStore<Buffer, Buffer>,
    gracePeriodMs: number,
    topic: string,
    keySerde: Serde<K> | undefined,
    valueSerde: Serde<V> | undefined
  ) {
    super(inner)
    this.#gracePeriodMs = gracePeriodMs
    this.#topic = topic
    this.#keySerde = keySerde
    this.#valueSerde = valueSerde
  }

  /** Uses the config's default serdes for those not given (Kafka Streams' setSerdesIfNull). */
  setSerdesIfNull(config: ResolvedStreamsConfig): void {
    this.#keySerde ??= config.defaultKeySerde as Serde<K> | undefined
    this.#valueSerde ??= config.defaultValueSerde as Serde<V> | undefined
  }

  /** Buffers the record (its key must not be null); false when it is older than observed stream time minus the grace period. */
  put(key: K, value: V, context: BufferedRecordContext): boolean {
    const timestamp = context.timestamp
    const observed = this.#observed()
    if (observed - this.#gracePeriodMs > timestamp) return false
    this.#seqnum = (this.#seqnum + 1) & 0x7fffffff
    const keyBytes = serde(this.#keySerde, 'key', this.name).serializer().serialize(this.#topic, key, context.headers)
    const valueBytes = serde(this.#valueSerde, 'value', this.name).serializer().serialize(this.#topic, value, context.headers)
    this.inner.put(
      storeKey(keyBytes ?? Buffer.alloc(0), timestamp, this.#seqnum),
      new BufferValue(null, null, valueBytes, context).serialize(0)
    )
    this.#observedStreamTime = Math.max(observed, timestamp)
    return true
  }

  /** Hands every record at or before observed stream time minus the grace period to `callback`, oldest first, and removes it. */
  evictWhile(callback: (record: BufferedRecord<K, V>) => void): void {
    const limit = this.#observed() - this.#gracePeriodMs
    const due: Array<{ readonly key: Buffer; readonly value: Buffer }> = []
    const iterator = this.inner.range(LOWEST_KEY, undefined)
    try {
      for (const entry of iterator) {
        if (entry.key[0] !== TIME_FIRST_PREFIX || entry.key.readBigInt64BE(1) > BigInt(limit)) break
        if (entry.value !== null) due.push({ key: entry.key, value: entry.value })
      }
    } finally {
      iterator.close()
    }
    const keyDeserializer = serde(this.#keySerde, 'key', this.name).deserializer()
    const valueDeserializer = serde(this.#valueSerde, 'value', this.name).deserializer()
    for (const entry of due) {
      const { value: buffered } = BufferValue.deserialize(entry.value)
      const context = buffered.context
      const key = keyDeserializer.deserialize(this.#topic, entry.key.subarray(9, entry.key.length - 4), context.headers) as K
      const value = valueDeserializer.deserialize(this.#topic, buffered.newValue, context.headers) as V
      callback({ key, value, context })
      this.inner.delete(entry.key)
    }
  }

  /** The greatest buffered timestamp: kept in memory, read from the newest entry of the store once (after restore). */
  #observed(): number {
    if (this.#observedStreamTime !== undefined) return this.#observedStreamTime
    let newest = NO_TIMESTAMP
    const iterator = this.inner.reverseAll()
    try {
      for (const entry of iterator) {
        if (entry.key[0] === TIME_FIRST_PREFIX) newest = Number(entry.key.readBigInt64BE(1))
        break
      }
    } finally {
      iterator.close()
    }
    this.#observedStreamTime = newest
    return newest
  }
}

/** Kafka's PrefixedWindowKeySchemas.TimeFirstWindowKeySchema.toStoreKeyBinary. */
function storeKey(keyBytes: Buffer, timestamp: number, seqnum: number): Buffer {
  const out = Buffer.allocUnsafe(1 + 8 + keyBytes.length + 4)
  out.writeUInt8(TIME_FIRST_PREFIX, 0)
  out.writeBigInt64BE(BigInt(timestamp), 1)
  keyBytes.copy(out, 9)
  out.writeInt32BE(seqnum, 9 + keyBytes.length)
  return out
}

function serde<T>(s: Serde<T> | undefined, what: string, storeName: string): Serde<T> {
  if (s === undefined) {
    const key = what === 'key' ? 'defaultKeySerde' : 'defaultValueSerde'
    throw new ConfigError(key, `Store "${storeName}" has no ${what} serde: pass one in Joined or set ${key} in the config`)
  }
  return s
}

/** Builds the buffer over a key-value bytes store of the supplier: no caching, change-logged (Kafka's buffer always logs). */
export class TimeOrderedKeyValueBufferBuilder<K, V> extends KeyValueBackedStoreBuilder<TimeOrderedKeyValueBuffer<K, V>> {
  constructor(
    supplier: KeyValueBytesStoreSupplier,
    readonly gracePeriodMs: number,
    readonly topic: string,
    readonly keySerde: Serde<K> | undefined,
    readonly valueSerde: Serde<V> | undefined
  ) {
    super(supplier, true, {})
  }

  protected wrap(inner: KeyValueStore<Buffer, Buffer>): TimeOrderedKeyValueBuffer<K, V> {
    return new TimeOrderedKeyValueBuffer(inner, this.gracePeriodMs, this.topic, this.keySerde, this.valueSerde)
  }
}
