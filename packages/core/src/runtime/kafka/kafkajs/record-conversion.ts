/**
 * Conversions between kafkajs' message shapes and the ports' records. kafkajs keeps headers in an
 * object (key -> value or array of values), so headers come back grouped by key in first-seen
 * order: an interleaved a, b, a is read back as a, a, b. Null header values survive (with the
 * patch's encoder fix).
 */
import type { IHeaders, Message } from 'kafkajs'
import { Headers } from '../../../record.js'
import type { FetchedRecord, ProducedRecord } from '../ports.js'
import type { RawMessage } from './kafkajs-internals.js'

type RawHeaderValue = Buffer | string | null | undefined

export function toKafkajsHeaders (headers: Headers): IHeaders {
  const out: Record<string, RawHeaderValue | RawHeaderValue[]> = {}
  for (const { key, value } of headers) {
    if (!Object.prototype.hasOwnProperty.call(out, key)) {
      out[key] = value
    } else {
      const existing = out[key]
      out[key] = Array.isArray(existing) ? [...existing, value] : [existing, value]
    }
  }
  return out as IHeaders
}

export function fromKafkajsHeaders (headers: RawMessage['headers'] | undefined): Headers {
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

export function toKafkajsMessage (record: ProducedRecord): Message {
  return {
    key: record.key,
    value: record.value,
    partition: record.partition,
    timestamp: String(record.timestamp),
    headers: toKafkajsHeaders(record.headers)
  }
}

export function toFetchedRecord (topic: string, partition: number, message: RawMessage): FetchedRecord {
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
