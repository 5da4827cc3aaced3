/**
 * serdeFrom: builds a Serde from a serializer and a deserializer (Java `Serdes.serdeFrom` /
 * `WrapperSerde`). serializer() and deserializer() return the same instances on every call.
 */
import { StreamsError } from '../errors.js'
import type { Deserializer, Serde, Serializer } from './serde.js'

/** A Serde made of the given pair. Both are required, as in Java. */
export function serdeFrom<T>(serializer: Serializer<T>, deserializer: Deserializer<T>): Serde<T> {
  if (serializer == null) throw new StreamsError('ILLEGAL_ARGUMENT', 'serializer must not be null')
  if (deserializer == null) throw new StreamsError('ILLEGAL_ARGUMENT', 'deserializer must not be null')
  return {
    serializer: () => serializer,
    deserializer: () => deserializer
  }
}
