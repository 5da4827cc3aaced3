/**
 * The KafkaClientFactory of one KafkaStreams instance on @platformatic/kafka: resolves the
 * settings once, then gives every port connections of its own. `platformatic(options)` is how
 * an application picks this adapter. It has what exactly-once v2 needs: TxnOffsetCommit v4
 * with the group's generation and member id (KIP-447) and OffsetFetch with require_stable.
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
import { PlatformaticAdmin } from './platformatic-admin.js'
import {
  PLATFORMATIC_CLIENT_CONFIGS,
  portConfig,
  redact,
  resolvePlatformaticConfig,
  validatePlatformaticOptions,
  type PlatformaticClientConfig,
  type PlatformaticOptions
} from './platformatic-client-config.js'
import { PlatformaticFetcher } from './platformatic-fetcher.js'
import { PlatformaticGroupCoordinator } from './platformatic-group-coordinator.js'
import { PlatformaticProducer } from './platformatic-producer.js'

/** The Kafka client factory of one KafkaStreams instance on `@platformatic/kafka` (with exactly_once_v2); `platformatic()` makes it. */
export class PlatformaticClientFactory implements KafkaClientFactory {
  readonly name = '@kstreams/platformatic'
  readonly exactlyOnceV2 = true
  readonly clientConfigs = PLATFORMATIC_CLIENT_CONFIGS
  readonly #config: PlatformaticClientConfig

  /** Throws a ConfigError for invalid settings or options. */
  constructor(settings: KafkaClientSettings, options: PlatformaticOptions = {}) {
    this.#config = resolvePlatformaticConfig(settings, options)
    const { logger: _logger, ...logged } = settings
    settings.logger.debug(
      {
        settings: redact(logged) as Record<string, unknown>,
        options: redact(options) as Record<string, unknown>
      },
      'platformatic client factory created'
    )
  }

  groupCoordinator(options: { groupId: string; clientId: string; configs?: ClientConfigs }): GroupCoordinatorPort {
    return new PlatformaticGroupCoordinator({
      config: portConfig(this.#config, options.configs),
      groupId: options.groupId,
      clientId: this.#clientId(options.clientId)
    })
  }

  fetcher(options: { clientId: string; configs?: ClientConfigs }): FetchPort {
    return new PlatformaticFetcher({ config: portConfig(this.#config, options.configs), clientId: this.#clientId(options.clientId) })
  }

  producer(options: { clientId: string; transactionalId?: string; configs?: ClientConfigs }): ProducerPort {
    return new PlatformaticProducer({
      config: portConfig(this.#config, options.configs),
      clientId: this.#clientId(options.clientId),
      transactionalId: options.transactionalId
    })
  }

  admin(options: { clientId: string; configs?: ClientConfigs }): AdminPort {
    return new PlatformaticAdmin({ config: portConfig(this.#config, options.configs), clientId: this.#clientId(options.clientId) })
  }

  /** A port's client id, the settings' one when empty. */
  #clientId(clientId: string): string {
    return clientId === '' ? this.#config.clientId : clientId
  }
}

/**
 * The @platformatic/kafka client for kstreams: `new KafkaStreams(topology, config, { client: platformatic() })`.
 * Invalid options throw a ConfigError here; the factory is made when the instance starts.
 */
export function platformatic(options: PlatformaticOptions = {}): KafkaClient {
  validatePlatformaticOptions(options)
  return settings => new PlatformaticClientFactory(settings, options)
}
