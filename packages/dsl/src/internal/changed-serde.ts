/**
 * The serde of `Change(new, old)` values on a KTable repartition topic (Kafka Streams'
 * ChangedSerializer / ChangedDeserializer, 4.x wire format). The last byte is a flag saying
 * which values travel, the byte before it the "is latest" flag (always 1 here: no versioned
 * stores):
 * - `[old][isLatest][3]`: only the old value (a subtraction);
 * - `[new][isLatest][4]`: only the new value (an addition);
 * - `[uint32 BE length of new][new][old][isLatest][5]`: both (KIP-904, the key did not change).
 * The pre-3.5 flags 0, 1 and 2 (same layouts without the isLatest byte) are still read.
 * When no inner serde was given, the config's default value serde is used: `resolveDefault`
 * is called by the processors around the topic at init (our sinks and sources have no
 * configure step). @internal
 */
import { SerializationError, StreamsError } from '@kstreams/core'
import type { Deserializer, Headers, ResolvedStreamsConfig, Serde, Serializer } from '@kstreams/core'
import { Change } from '../change.js'

export class ChangedSerde<T> implements Serde<Change<T>> {
  #inner: Serde<T> | undefined
  readonly #serializer: Serializer<Change<T>>
  readonly #deserializer: Deserializer<Change<T>>

  constructor(inner: Serde<T> | undefined) {
    this.#inner = inner
    this.#serializer = { serialize: (topic, data, headers) => this.#serialize(topic, data, headers) }
    this.#deserializer = { deserialize: (topic, data, headers) => this.#deserialize(topic, data, headers) }
  }

  /** Uses the config's default value serde when no inner serde was given. */
  resolveDefault(config: ResolvedStreamsConfig): void {
    if (this.#inner === undefined && config.defaultValueSerde !== undefined) this.#inner = config.defaultValueSerde as Serde<T>
  }

  serializer(): Serializer<Change<T>> {
    return this.#serializer
  }
  deserializer(): Deserializer<Change<T>> {
    return this.#deserializer
  }

  #innerSerde(topic: string): Serde<T> {
    if (this.#inner === undefined)
      throw new SerializationError(`No value serde for the changes on topic "${topic}": set Grouped.withValueSerde or defaultValueSerde`)
    return this.#inner
  }

  #serialize(topic: string, data: Change<T> | null, headers: Headers | undefined): Buffer | null {
    if (data === null || data === undefined) return null
    const hasNew = data.newValue !== null && data.newValue !== undefined
    const hasOld = data.oldValue !== null && data.oldValue !== undefined
    if (!hasNew && !hasOld)
      throw new StreamsError('ILLEGAL_ARGUMENT', 'Both old and new values are null in ChangeSerializer, which is not allowed.')
    const inner = this.#innerSerde(topic).serializer()
    const newData = hasNew ? (inner.serialize(topic, data.newValue, headers) ?? Buffer.alloc(0)) : Buffer.alloc(0)
    const oldData = hasOld ? (inner.serialize(topic, data.oldValue, headers) ?? Buffer.alloc(0)) : Buffer.alloc(0)
    const trailer = (flag: number): Buffer => Buffer.from([1, flag])
    if (hasNew && hasOld) {
      const length = Buffer.alloc(4)
      length.writeUInt32BE(newData.length)
      return Buffer.concat([length, newData, oldData, trailer(5)])
    }
    return hasNew ? Buffer.concat([newData, trailer(4)]) : Buffer.concat([oldData, trailer(3)])
  }

  #deserialize(topic: string, data: Buffer | null, headers: Headers | undefined): Change<T> | null {
    if (data === null || data === undefined) return null
    if (data.length === 0) throw new SerializationError(`Empty change value on topic "${topic}"`)
    const inner = this.#innerSerde(topic).deserializer()
    const read = (bytes: Buffer): T | null => inner.deserialize(topic, bytes, headers)
    const flag = data[data.length - 1]!
    const end = flag >= 3 ? data.length - 2 : data.length - 1
    switch (flag) {
      case 0:
      case 3:
        return new Change<T>(null, read(data.subarray(0, end)))
      case 1:
      case 4:
        return new Change<T>(read(data.subarray(0, end)), null)
      case 2:
      case 5: {
        const newLength = data.readUInt32BE(0)
        return new Change<T>(read(data.subarray(4, 4 + newLength)), read(data.subarray(4 + newLength, end)))
      }
      default:
        throw new SerializationError(`Unknown change encoding flag ${flag} on topic "${topic}"`)
    }
  }
}
