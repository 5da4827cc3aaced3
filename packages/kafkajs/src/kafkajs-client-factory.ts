/**
 * The KafkaClientFactory of one KafkaStreams instance on kafkajs 2.2.4 (unmodified): checks the
 * kafkajs internals once and registers the snappy, lz4 and zstd codecs kafkajs lacks
 * (kafkajs-codecs.ts), then makes one kafkajs client (own connections) per port, all from the
 * same resolved settings. `kafkajs(options)` is how an application picks this adapter.
 */
import type {
  AdminPort,
  ClientConfigs,
  FetchPort,
  GroupCoordinatorPort,
  KafkaClient,
  KafkaClientFactory,
  KafkaClientSettings,
  ProducerPort
} from '@kstreams/core'
import { KafkajsAdmin } from './kafkajs-admin.js'
import { registerKafkajsCodecs } from './kafkajs-codecs.js'
import {
  KAFKAJS_CLIENT_CONFIGS,
  kafkajsCompression,
  resolveKafkajsConfig,
  validateKafkajsOptions,
  type KafkajsClientConfig,
  type KafkajsOptions
} from './kafkajs-client-config.js'
import { KafkajsFetcher } from './kafkajs-fetcher.js'
import { KafkajsGroupCoordinator } from './kafkajs-group-coordinator.js'
import { KafkajsInternals } from './kafkajs-internals.js'
import { redact } from './kafkajs-log-creator.js'
import { KafkajsProducer } from './kafkajs-producer.js'

/** The Kafka client factory of one KafkaStreams instance on kafkajs 2.2.4 (at-least-once only); `kafkajs()` makes it. */
export class KafkajsClientFactory implements KafkaClientFactory {
  readonly name = '@kstreams/kafkajs'
  /** kafkajs 2.2.4 speaks TxnOffsetCommit v0-1 (no group generation) and OffsetFetch up to v4 (no require_stable). */
  readonly exactlyOnceV2 = false
  readonly clientConfigs = KAFKAJS_CLIENT_CONFIGS
  readonly #config: KafkajsClientConfig
  readonly #internals: KafkajsInternals

  /** Throws a ConfigError for invalid settings or options, a StreamsError (ILLEGAL_STATE) when kafkajs is not 2.2.4. */
  constructor(settings: KafkaClientSettings, options: KafkajsOptions = {}) {
    this.#internals = KafkajsInternals.load(settings.logger)
    registerKafkajsCodecs()
    this.#config = resolveKafkajsConfig(settings, options, this.#internals)
    this.#internals.verifyClient(this.#config.createKafka(settings.clientId))
    const { logger: _logger, ...logged } = settings
    settings.logger.debug(
      {
        kafkajs: this.#internals.version,
        settings: redact(logged) as Record<string, unknown>,
        options: redact(options) as Record<string, unknown>
      },
      'kafkajs client factory created'
    )
  }

  groupCoordinator(options: { groupId: string; clientId: string; configs?: ClientConfigs }): GroupCoordinatorPort {
    return new KafkajsGroupCoordinator({
      cluster: this.#internals.createCluster(this.#config.createKafka(options.clientId, options.configs), {
        metadataMaxAge: this.#config.metadataMaxAgeMs
      }),
      internals: this.#internals,
      groupId: options.groupId,
      clientId: options.clientId,
      logger: this.#config.logger
    })
  }

  fetcher(options: { clientId: string; configs?: ClientConfigs }): FetchPort {
    return new KafkajsFetcher({
      cluster: this.#internals.createCluster(this.#config.createKafka(options.clientId, options.configs), {
        metadataMaxAge: this.#config.metadataMaxAgeMs
      }),
      internals: this.#internals,
      config: this.#config,
      clientId: options.clientId
    })
  }

  producer(options: { clientId: string; transactionalId?: string; configs?: ClientConfigs }): ProducerPort {
    return new KafkajsProducer({
      kafka: this.#config.createKafka(options.clientId, options.configs),
      clientId: options.clientId,
      transactionalId: options.transactionalId,
      config: this.#config,
      compression: kafkajsCompression(options.configs)
    })
  }

  admin(options: { clientId: string; configs?: ClientConfigs }): AdminPort {
    return new KafkajsAdmin({
      kafka: this.#config.createKafka(options.clientId, options.configs),
      clientId: options.clientId,
      clock: this.#config.clock,
      groupCoordinator: groupId => this.groupCoordinator({ groupId, clientId: options.clientId }),
      metadata: this.fetcher({ clientId: options.clientId })
    })
  }
}

/**
 * The kafkajs client for kstreams: `new KafkaStreams(topology, config, { client: kafkajs() })`.
 * Invalid options throw a ConfigError here; the factory is made when the instance starts.
 */
export function kafkajs(options: KafkajsOptions = {}): KafkaClient {
  validateKafkajsOptions(options)
  return settings => new KafkajsClientFactory(settings, options)
}
