/**
 * Serdes of windowed keys (Kafka's WindowedSerdes), byte-identical to Java's:
 * - time-windowed (TimeWindowedSerializer): `[key bytes][8-byte big-endian window start]`; the
 *   deserializer needs the window size to rebuild the end (`start + windowSize`);
 * - session-windowed (SessionWindowedSerializer): the session key layout
 *   `[key bytes][8-byte big-endian end][8-byte big-endian start]`.
 * A null windowed key is null; null or empty bytes deserialize to null.
 */
import { SerializationError, StreamsError } from '../errors.js'
import type { Headers } from '../record.js'
import { SessionKeySchema } from '../state/session-key-schema.js'
import { WindowKeySchema } from '../state/window-key-schema.js'
import { Windowed } from '../state/windowed.js'
import type { Deserializer, Serde, Serializer } from './serde.js'

function serializeKey<T>(inner: Serializer<T>, topic: string, data: Windowed<T>, headers: Headers | undefined): Buffer {
  const raw = inner.serialize(topic, data.key, headers)
  if (raw === null || raw === undefined) {
    throw new SerializationError(`The inner serializer returned null for the key of windowed key ${data.toString()} (topic "${topic}")`)
  }
  return raw
}

function rewrap(err: unknown, topic: string, what: string): StreamsError {
  if (err instanceof SerializationError) return err
  return new SerializationError(`Cannot deserialize a ${what} key from topic "${topic}"`, { cause: err })
}

class TimeWindowedSerde<T> implements Serde<Windowed<T>> {
  readonly #serializer: Serializer<Windowed<T>>
  readonly #deserializer: Deserializer<Windowed<T>>

  constructor(inner: Serde<T>, windowSize: number) {
    const innerSerializer = inner.serializer()
    const innerDeserializer = inner.deserializer()
    this.#serializer = {
      serialize(topic: string, data: Windowed<T> | null, headers?: Headers): Buffer | null {
        if (data === null || data === undefined) return null
        return WindowKeySchema.toBinary(serializeKey(innerSerializer, topic, data, headers), data.window.start)
      }
    }
    this.#deserializer = {
      deserialize(topic: string, data: Buffer | null, headers?: Headers): Windowed<T> | null {
        if (data === null || data === undefined || data.length === 0) return null
        let windowed: Windowed<Buffer>
        try {
          windowed = WindowKeySchema.fromBinary(data, windowSize)
        } catch (err) {
          throw rewrap(err, topic, 'time-windowed')
        }
        return new Windowed(innerDeserializer.deserialize(topic, windowed.key, headers) as T, windowed.window)
      }
    }
  }

  serializer(): Serializer<Windowed<T>> {
    return this.#serializer
  }
  deserializer(): Deserializer<Windowed<T>> {
    return this.#deserializer
  }
}

class SessionWindowedSerde<T> implements Serde<Windowed<T>> {
  readonly #serializer: Serializer<Windowed<T>>
  readonly #deserializer: Deserializer<Windowed<T>>

  constructor(inner: Serde<T>) {
    const innerSerializer = inner.serializer()
    const innerDeserializer = inner.deserializer()
    this.#serializer = {
      serialize(topic: string, data: Windowed<T> | null, headers?: Headers): Buffer | null {
        if (data === null || data === undefined) return null
        return SessionKeySchema.toBinary(serializeKey(innerSerializer, topic, data, headers), data.window.start, data.window.end)
      }
    }
    this.#deserializer = {
      deserialize(topic: string, data: Buffer | null, headers?: Headers): Windowed<T> | null {
        if (data === null || data === undefined || data.length === 0) return null
        let windowed: Windowed<Buffer>
        try {
          windowed = SessionKeySchema.fromBinary(data)
        } catch (err) {
          throw rewrap(err, topic, 'session-windowed')
        }
        return new Windowed(innerDeserializer.deserialize(topic, windowed.key, headers) as T, windowed.window)
      }
    }
  }

  serializer(): Serializer<Windowed<T>> {
    return this.#serializer
  }
  deserializer(): Deserializer<Windowed<T>> {
    return this.#deserializer
  }
}

function checkInner(inner: unknown): void {
  const serde = inner as Partial<Serde<unknown>> | null | undefined
  if (serde === null || serde === undefined || typeof serde.serializer !== 'function' || typeof serde.deserializer !== 'function') {
    throw new StreamsError(
      'ILLEGAL_ARGUMENT',
      'The inner serde of a windowed serde must be a Serde (an object with serializer() and deserializer())'
    )
  }
}

/** The serdes of windowed keys (Kafka's `WindowedSerdes`), byte-identical to Java's. */
export const WindowedSerdes = Object.freeze({
  /**
   * The serde of keys of fixed-size time windows. `windowSize` (ms, > 0) gives the window end on
   * deserialization, as the bytes hold only the start.
   */
  timeWindowedSerdeFrom<T>(inner: Serde<T>, windowSize: number): Serde<Windowed<T>> {
    checkInner(inner)
    if (!Number.isSafeInteger(windowSize) || windowSize <= 0) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `The window size of a time-windowed serde must be a positive integer number of ms, got ${String(windowSize)}`
      )
    }
    return new TimeWindowedSerde(inner, windowSize)
  },

  /** The serde of session-windowed keys. */
  sessionWindowedSerdeFrom<T>(inner: Serde<T>): Serde<Windowed<T>> {
    checkInner(inner)
    return new SessionWindowedSerde(inner)
  }
})
