/**
 * The ports' produced records as platformatic messages. platformatic takes headers as a Map,
 * and writes them in its iteration order: each header gets a key Buffer of its own, so repeated
 * keys stay separate and in order (a, b, a is written as a, b, a). Null header values are
 * written as null (length -1), as Java's producer does.
 */
import type { MessageToProduce } from '@platformatic/kafka'
import type { Headers, ProducedRecord } from '@kstreams/core'

export type PlatformaticMessage = MessageToProduce<Buffer, Buffer, Buffer, Buffer>

export function toHeaderMap(headers: Headers): Map<Buffer, Buffer> {
  const map = new Map<Buffer, Buffer>()
  for (const { key, value } of headers) map.set(Buffer.from(key, 'utf8'), value as Buffer)
  return map
}

export function toMessage(record: ProducedRecord): PlatformaticMessage {
  return {
    topic: record.topic,
    partition: record.partition,
    // platformatic writes a missing key or value as null (length -1).
    key: (record.key ?? undefined) as Buffer,
    value: (record.value ?? undefined) as Buffer,
    headers: toHeaderMap(record.headers),
    timestamp: BigInt(record.timestamp)
  }
}
