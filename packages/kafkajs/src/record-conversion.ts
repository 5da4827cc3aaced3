/**
 * Conversions between kafkajs' message shapes and the ports' records. kafkajs keeps headers in an
 * object (key -> value or array of values), so headers come back grouped by key in first-seen
 * order: an interleaved a, b, a is read back as a, a, b. kafkajs 2.2.4 cannot encode a null
 * header value (its record encoder throws a TypeError while sizing it): such a record is refused
 * with a SerializationError before anything is sent. Null values written by other clients are
 * read back as null.
 */
import type { IHeaders, Message } from 'kafkajs'
import { Headers, SerializationError, type FetchedRecord, type ProducedRecord } from '@kstreams/core'
import type { RawMessage } from './kafkajs-internals.js'

type RawHeaderValue = Buffer | string | null | undefined

export function toKafkajsHeaders(headers: Headers): IHeaders {
  const out: Record<string, RawHeaderValue | RawHeaderValue[]> = {}
  for (const { key, value } of headers) {
    if (!Object.hasOwn(out, key)) {
      out[key] = value
    } else {
      const existing = out[key]
      out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
    }
  }
  return out as IHeaders
}

export function fromKafkajsHeaders(headers: RawMessage['headers'] | undefined): Headers {
  const result = new Headers()
  if (headers === undefined) return result
  for (const [key, value] of Object.entries(headers)) {
    const values = Array.isArray(value) ? value : [value]
    for (const v of values) {
      result.add(key, v === undefined || v === null ? null : typeof v === 'string' ? Buffer.from(v) : v)
    }
  }
  return result
}

/** Throws a SerializationError (code SERIALIZATION) naming the topic and header key of a null header value. */
export function requireEncodableHeaders(record: ProducedRecord): void {
  for (const { key, value } of record.headers) {
    if (value === null) {
      throw new SerializationError(
        `Cannot send a record to ${record.topic}-${record.partition}: header "${key}" has a null value, ` +
          'which kafkajs 2.2.4 cannot encode (use an empty value, or leave the header out)'
      )
    }
  }
}

export function toKafkajsMessage(record: ProducedRecord): Message {
  return {
    key: record.key,
    value: record.value,
    partition: record.partition,
    timestamp: String(record.timestamp),
    headers: toKafkajsHeaders(record.headers)
  }
}

export function toFetchedRecord(topic: string, partition: number, message: RawMessage): FetchedRecord {
  return {
    topic,
    partition,
    offset: Number(message.offset),
    timestamp: Number(message.timestamp),
    key: message.key ?? null,
    value: message.value ?? null,
    headers: fromKafkajsHeaders(message.headers)
  }
}
