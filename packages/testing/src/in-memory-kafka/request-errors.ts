/** Builds the KafkaRequestError every in-memory request rejects with, by Kafka's error name. @internal */
import { KafkaRequestError } from '@kstreams/core'
import type { KafkaErrorName } from '@kstreams/core'

export type BrokerErrorName = KafkaErrorName

export function kafkaError(name: BrokerErrorName, message: string): KafkaRequestError {
  return new KafkaRequestError(name, message)
}
