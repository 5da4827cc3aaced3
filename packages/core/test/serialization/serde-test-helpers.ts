/** Shared helpers for the serde tests: hex fixtures and the SerializationError check. */
import { expect } from 'chai'
import { SerializationError } from '../../src/errors.js'

export const TOPIC = 'orders-topic-7'

/** Bytes from a hex string such as 'ff fe' (spaces ignored). */
export function bytes(hexText: string): Buffer {
  return Buffer.from(hexText.replace(/\s+/g, ''), 'hex')
}

/** Hex of a Buffer (or 'null'), for byte-for-byte comparisons with readable diffs. */
export function hex(buf: Uint8Array | null): string {
  return buf === null ? 'null' : Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('hex')
}

/** Runs fn, asserts it threw a SerializationError (code SERIALIZATION) naming TOPIC, returns it. */
export function expectSerializationError(fn: () => unknown, topic: string = TOPIC): SerializationError {
  let caught: unknown
  try {
    fn()
  } catch (err) {
    caught = err
  }
  expect(caught, 'expected a SerializationError').to.be.instanceOf(SerializationError)
  const error = caught as SerializationError
  expect(error.code).to.equal('SERIALIZATION')
  expect(error.message).to.include(topic)
  return error
}
