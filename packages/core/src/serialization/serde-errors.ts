/**
 * Builds the SerializationErrors the built-in serdes throw. Every message names the topic; size
 * errors keep Java's wording ("Size of data received by IntegerDeserializer is not 4").
 * Kept out of the serdes so their hot paths stay small.
 */
import { SerializationError } from '../errors.js'

/** A deserializer got a byte array of the wrong length. */
export function wrongSize(deserializer: string, topic: string, expected: number, actual: number): SerializationError {
  return new SerializationError(`Size of data received by ${deserializer} is not ${expected} (got ${actual} bytes from topic "${topic}")`)
}

/** A serializer or deserializer got a value it cannot represent. */
export function invalidData(who: string, topic: string, data: unknown, reason: string, cause?: unknown): SerializationError {
  return new SerializationError(
    `${who} cannot handle ${describe(data)} for topic "${topic}": ${reason}`,
    cause === undefined ? {} : { cause }
  )
}

/** A short, never-throwing description of a value for error messages. */
export function describe(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.length > 64 ? value.slice(0, 64) + '...' : value)
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value)
    case 'bigint':
      return `${value}n`
    case 'undefined':
      return 'undefined'
    case 'boolean':
      return String(value)
    case 'symbol':
      return value.toString()
    case 'function':
      return 'a function'
    default:
      if (value === null) return 'null'
      if (Buffer.isBuffer(value)) return `a Buffer of ${value.length} bytes`
      if (value instanceof Uint8Array) return `a Uint8Array of ${value.length} bytes`
      if (Array.isArray(value)) return `an array of ${value.length} items`
      return `an object (${objectName(value as object)})`
  }
}

function objectName(value: object): string {
  try {
    return Object.getPrototypeOf(value)?.constructor?.name ?? 'no prototype'
  } catch {
    return 'unknown'
  }
}
