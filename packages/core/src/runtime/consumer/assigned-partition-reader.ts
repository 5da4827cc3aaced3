/**
 * The PartitionReader of restoration, standby tasks and the global thread (Kafka Streams' restore
 * and global consumers): a Fetcher without a group. Partitions start where `assign` says or at
 * the earliest offset; a position out of range is reset to the earliest offset and reported as
 * an empty batch whose nextOffset is the new position, so whoever tracks positions sees the jump.
 * @internal
 */
import type { Logger } from '../../logger.js'
import type { ResolvedStreamsConfig } from '../../config/streams-config.js'
import { resolveClientConfigs } from '../../config/client-configs.js'
import type { FetchedBatch, FetchPort, IsolationLevel, KafkaClientFactory, TopicPartition } from '../kafka/ports.js'
import type { PartitionReader } from './consumer-api.js'
import { Fetcher } from './fetcher.js'

export interface AssignedPartitionReaderOptions {
  readonly port: FetchPort
  readonly clientId: string
  readonly isolationLevel: IsolationLevel
  readonly fetchMaxWaitMs: number
  readonly fetchMaxBytes: number
  readonly maxPartitionFetchBytes: number
  /** `fetch.min.bytes`; default 1. */
  readonly fetchMinBytes?: number
  /** Most records one poll hands out (`max.poll.records`); default unbounded. */
  readonly maxPollRecords?: number
  readonly retryBackoffMs: number
  readonly logger: Logger
}

export class AssignedPartitionReader implements PartitionReader {
  readonly #fetcher: Fetcher

  /**
   * A reader on its own fetch client, set up from the streams config: the restore or the global
   * consumer's client configs (isolation level, fetch sizes, max.poll.records).
   */
  static create(
    clients: KafkaClientFactory,
    clientId: string,
    config: ResolvedStreamsConfig,
    logger: Logger,
    role: 'restoreConsumer' | 'globalConsumer'
  ): AssignedPartitionReader {
    const client = resolveClientConfigs(config, config, clients.clientConfigs ?? {})[role]
    return new AssignedPartitionReader({
      port: clients.fetcher({ clientId, configs: client.adapterConfigs }),
      clientId,
      isolationLevel: client.isolationLevel,
      fetchMaxWaitMs: client.fetchMaxWaitMs,
      fetchMaxBytes: client.fetchMaxBytes,
      maxPartitionFetchBytes: client.maxPartitionFetchBytes,
      fetchMinBytes: client.fetchMinBytes,
      maxPollRecords: client.maxPollRecords,
      retryBackoffMs: client.retryBackoffMs,
      logger
    })
  }

  constructor(options: AssignedPartitionReaderOptions) {
    this.#fetcher = new Fetcher({
      port: options.port,
      clientId: options.clientId,
      isolationLevel: options.isolationLevel,
      maxWaitMs: options.fetchMaxWaitMs,
      maxBytes: options.fetchMaxBytes,
      maxPartitionBytes: options.maxPartitionFetchBytes,
      ...(options.fetchMinBytes === undefined ? {} : { minBytes: options.fetchMinBytes }),
      ...(options.maxPollRecords === undefined ? {} : { maxPollRecords: options.maxPollRecords }),
      retryBackoffMs: options.retryBackoffMs,
      resetPolicy: () => 'earliest',
      onOutOfRange: (tp, _requested, reset) => ({ ...tp, records: [], highWatermark: reset, nextOffset: reset, logStartOffset: reset }),
      logger: options.logger
    })
  }

  assign(partitions: ReadonlyArray<TopicPartition & { offset: number | undefined; endOffset?: number | undefined }>): void {
    this.#fetcher.assign(partitions)
  }

  async poll(maxWaitMs: number): Promise<FetchedBatch[]> {
    return await this.#fetcher.poll(maxWaitMs)
  }

  async close(): Promise<void> {
    await this.#fetcher.close()
  }
}
