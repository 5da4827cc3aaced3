/**
 * The KafkaClientFactory an InMemoryKafka hands to KafkaStreams: ports on the one in-memory
 * broker, each under the client id it is asked for (faults and disconnects target those ids).
 * @internal
 */
import type { AdminPort, FetchPort, GroupCoordinatorPort, KafkaClientFactory, KafkaClientSettings, ProducerPort } from '@kstreams/core'
import { InMemoryAdminPort } from './in-memory-admin-port.js'
import type { InMemoryBroker } from './in-memory-broker.js'
import { InMemoryFetchPort } from './in-memory-fetch-port.js'
import { InMemoryGroupCoordinatorPort } from './in-memory-group-coordinator-port.js'
import { InMemoryProducerPort } from './in-memory-producer-port.js'

/** The Java producer's transaction.timeout.ms default. */
const DEFAULT_TRANSACTION_TIMEOUT_MS = 60_000

export class InMemoryClientFactory implements KafkaClientFactory {
  readonly name = '@kstreams/testing in-memory Kafka'
  readonly exactlyOnceV2 = true
  readonly #broker: InMemoryBroker
  readonly #transactionTimeoutMs: number

  constructor(broker: InMemoryBroker, settings?: Pick<KafkaClientSettings, 'transactionTimeoutMs'>) {
    this.#broker = broker
    this.#transactionTimeoutMs = settings?.transactionTimeoutMs ?? DEFAULT_TRANSACTION_TIMEOUT_MS
  }

  groupCoordinator(options: { groupId: string; clientId: string }): GroupCoordinatorPort {
    return new InMemoryGroupCoordinatorPort(this.#broker, options)
  }

  fetcher(options: { clientId: string }): FetchPort {
    return new InMemoryFetchPort(this.#broker, options)
  }

  producer(options: { clientId: string; transactionalId?: string }): ProducerPort {
    return new InMemoryProducerPort(this.#broker, { ...options, transactionTimeoutMs: this.#transactionTimeoutMs })
  }

  admin(options: { clientId: string }): AdminPort {
    return new InMemoryAdminPort(this.#broker, options)
  }
}
