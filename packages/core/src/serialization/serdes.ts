/**
 * Serdes: factories for the built-in serdes, mirroring Java's `Serdes.String()`,
 * `Serdes.Integer()` and so on, plus `Serdes.serdeFrom(serializer, deserializer)`. Each call
 * returns a new Serde; the wire formats live in primitive-, text- and bytes-serdes.ts.
 */
import { bufferSerde, byteArraySerde, voidSerde } from './bytes-serdes.js'
import { bigInt64Serde, booleanSerde, doubleSerde, floatSerde, integerSerde, longSerde, shortSerde } from './primitive-serdes.js'
import type { Serde } from './serde.js'
import { serdeFrom } from './serde-from.js'
import { jsonSerde, stringSerde, uuidSerde } from './text-serdes.js'

/** The built-in serdes (Kafka's `Serdes`): `Serdes.String()`, `Serdes.Long()`, ...; each call returns a new Serde. */
export const Serdes = {
  /** UTF-8 text (Java StringSerde). */
  String: stringSerde,
  /** 4-byte big-endian int32 (Java IntegerSerde). */
  Integer: integerSerde,
  /** 8-byte big-endian int64 as a safe-integer number (Java LongSerde). */
  Long: longSerde,
  /** 8-byte big-endian int64 as a bigint (Java LongSerde, full range). */
  BigInt64: bigInt64Serde,
  /** 2-byte big-endian int16 (Java ShortSerde). */
  Short: shortSerde,
  /** 4-byte IEEE-754 float (Java FloatSerde). */
  Float: floatSerde,
  /** 8-byte IEEE-754 double (Java DoubleSerde). */
  Double: doubleSerde,
  /** One byte, 0x01 / 0x00 (Java BooleanSerde). */
  Boolean: booleanSerde,
  /** Raw bytes: a Uint8Array in, a Buffer out (Java ByteArraySerde). */
  ByteArray: byteArraySerde,
  /** Raw bytes as a Node Buffer, passed through. */
  Buffer: bufferSerde,
  /** Always null (Java VoidSerde). */
  Void: voidSerde,
  /** A UUID string written as its 36-character text (Java UUIDSerde). */
  UUID: uuidSerde,
  /** JSON.stringify / JSON.parse as UTF-8. */
  Json: jsonSerde as <T>() => Serde<T>,
  /** A Serde from a serializer and a deserializer (Java Serdes.serdeFrom). */
  serdeFrom
} as const
