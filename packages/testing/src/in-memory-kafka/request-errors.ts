/**
 * Builds the KafkaRequestError every in-memory request rejects with, by Kafka's error name. Knows
 * the few broker errors the in-memory Kafka answers that core's KAFKA_ERRORS table leaves out.
 * @internal
 */
import { KafkaRequestError } from '@kstreams/core'
import type { KafkaErrorName } from '@kstreams/core'

/** Broker errors outside core's table, with Kafka's codes (all non-retriable). */
const EXTRA_ERRORS = {
  OFFSET_METADATA_TOO_LARGE: 12,
  INVALID_PARTITIONS: 37,
  INVALID_REPLICATION_FACTOR: 38
} as const

export type BrokerErrorName = KafkaErrorName | keyof typeof EXTRA_ERRORS

export function kafkaError (name: BrokerErrorName, message: string): KafkaRequestError {
  const extra = (EXTRA_ERRORS as Record<string, number | undefined>)[name]
  return new KafkaRequestError(name, message, extra === undefined ? {} : { errorCode: extra, retriable: false })
}
