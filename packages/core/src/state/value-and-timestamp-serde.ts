/**
 * The value serde of timestamped stores (Kafka's ValueAndTimestampSerde). Byte layout, exactly as
 * Kafka's ValueAndTimestampSerializer writes it: an 8-byte big-endian signed timestamp followed by
 * the raw value bytes. A null ValueAndTimestamp, or a value whose serializer returns null, is null.
 */
import { SerializationError } from '../errors.js'
import type { Headers } from '../record.js'
import type { Deserializer, Serde, Serializer } from '../serialization/serde.js'
import { ValueAndTimestamp } from './key-value-store.js'

const TIMESTAMP_SIZE = 8
const TWO_POW_32 = 2 ** 32

class ValueAndTimestampSerializer<V> implements Serializer<ValueAndTimestamp<V>> {
  readonly #value: Serializer<V>
  constructor(value: Serializer<V>) {
    this.#value = value
  }

  serialize(topic: string, data: ValueAndTimestamp<V> | null, headers?: Headers): Buffer | null {
    if (data === null || data === undefined || data.value === null || data.value === undefined) return null
    const timestamp = data.timestamp
    if (!Number.isSafeInteger(timestamp)) {
      throw new SerializationError(`Cannot serialize timestamp ${timestamp} for topic "${topic}": not a safe integer`)
    }
    const raw = this.#value.serialize(topic, data.value, headers)
    if (raw === null) return null
    const out = Buffer.allocUnsafe(TIMESTAMP_SIZE + raw.length)
    const high = Math.floor(timestamp / TWO_POW_32)
    out.writeInt32BE(high, 0)
    out.writeUInt32BE(timestamp - high * TWO_POW_32, 4)
    raw.copy(out, TIMESTAMP_SIZE)
    return out
  }
}

class ValueAndTimestampDeserializer<V> implements Deserializer<ValueAndTimestamp<V>> {
  readonly #value: Deserializer<V>
  constructor(value: Deserializer<V>) {
    this.#value = value
  }

  deserialize(topic: string, data: Buffer | null, headers?: Headers): ValueAndTimestamp<V> | null {
    if (data === null || data === undefined) return null
    if (data.length < TIMESTAMP_SIZE) {
      throw new SerializationError(
        `Cannot deserialize a timestamped value of ${data.length} bytes for topic "${topic}": at least ${TIMESTAMP_SIZE} bytes expected`
      )
    }
    const timestamp = data.readInt32BE(0) * TWO_POW_32 + data.readUInt32BE(4)
    return ValueAndTimestamp.make(this.#value.deserialize(topic, data.subarray(TIMESTAMP_SIZE), headers), timestamp)
  }
}

/** Wraps a value serde into the serde of `ValueAndTimestamp<V>`. */
export class ValueAndTimestampSerde<V> implements Serde<ValueAndTimestamp<V>> {
  readonly #serializer: ValueAndTimestampSerializer<V>
  readonly #deserializer: ValueAndTimestampDeserializer<V>

  constructor(valueSerde: Serde<V>) {
    this.#serializer = new ValueAndTimestampSerializer(valueSerde.serializer())
    this.#deserializer = new ValueAndTimestampDeserializer(valueSerde.deserializer())
  }

  serializer(): Serializer<ValueAndTimestamp<V>> {
    return this.#serializer
  }

  deserializer(): Deserializer<ValueAndTimestamp<V>> {
    return this.#deserializer
  }
}
