/**
 * KafkaClientFactory on kafkajs 2.2.4 (patched, see README.md): one kafkajs client per port, all
 * from the same resolved settings. The only way into the adapter for the runtime.
 */
import type { AdminPort, GroupConsumerPort, KafkaClientFactory, PartitionReaderPort, ProducerPort } from '../ports.js'
import { KafkajsAdmin } from './kafkajs-admin.js'
import { resolveKafkajsConfig, type KafkajsClientConfig, type ResolvedKafkajsConfig } from './kafkajs-client-config.js'
import { KafkajsGroupConsumer } from './kafkajs-group-consumer.js'
import { KafkajsPartitionReader } from './kafkajs-partition-reader.js'
import { KafkajsProducer } from './kafkajs-producer.js'
import { redact } from './kafkajs-log-creator.js'

export class KafkajsClientFactory implements KafkaClientFactory {
  readonly #config: ResolvedKafkajsConfig

  constructor (config: KafkajsClientConfig) {
    this.#config = resolveKafkajsConfig(config)
    this.#config.logger.debug('kafkajs client factory created', { config: redact(config) as Record<string, unknown> })
  }

  groupConsumer (options: { groupId: string, clientId: string }): GroupConsumerPort {
    return new KafkajsGroupConsumer({ kafka: this.#config.createKafka(options.clientId), groupId: options.groupId, config: this.#config })
  }

  partitionReader (options: { clientId: string, readCommitted: boolean }): PartitionReaderPort {
    return new KafkajsPartitionReader({ kafka: this.#config.createKafka(options.clientId), clientId: options.clientId, readCommitted: options.readCommitted, config: this.#config })
  }

  producer (options: { clientId: string, transactionalId?: string }): ProducerPort {
    return new KafkajsProducer({ kafka: this.#config.createKafka(options.clientId), clientId: options.clientId, transactionalId: options.transactionalId, config: this.#config })
  }

  admin (options: { clientId: string }): AdminPort {
    return new KafkajsAdmin({ kafka: this.#config.createKafka(options.clientId), clientId: options.clientId })
  }
}

/** The kafkajs adapter's KafkaClientFactory. */
export function createKafkajsClientFactory (config: KafkajsClientConfig): KafkaClientFactory {
  return new KafkajsClientFactory(config)
}
