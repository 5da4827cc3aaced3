/**
 * Typed access to the kafkajs 2.2.4 internals the partition reader is built on (kafkajs has no
 * manual-assignment consumer): a Cluster made by the Kafka client's private cluster factory (same
 * brokers, TLS, SASL, timeouts, retry and logger as every other client) and the Batch class that
 * filters aborted and control records. Only the members used here are typed. kafkajs is pinned
 * exactly, so these internals cannot move under us.
 */
import { createRequire } from 'node:module'
import type { Kafka } from 'kafkajs'

const require = createRequire(import.meta.url)

export const ISOLATION_READ_UNCOMMITTED = 0
export const ISOLATION_READ_COMMITTED = 1
export const EARLIEST_OFFSET = -2

/** A record as kafkajs' fetch response decoder returns it (strings for 64-bit numbers). */
export interface RawMessage {
  readonly offset: string
  readonly timestamp: string
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Record<string, Buffer | string | null | Array<Buffer | string | null> | undefined>
  readonly isControlRecord: boolean
  readonly batchContext?: { readonly firstOffset: string, readonly lastOffsetDelta: number }
}

export interface FetchPartitionResponse {
  readonly partition: number
  readonly highWatermark: string
  readonly lastStableOffset?: string
  readonly abortedTransactions?: ReadonlyArray<{ producerId: string, firstOffset: string }>
  readonly messages: RawMessage[]
}

export interface InternalBroker {
  fetch (request: {
    maxWaitTime: number
    minBytes: number
    maxBytes: number
    isolationLevel: number
    topics: Array<{ topic: string, partitions: Array<{ partition: number, fetchOffset: string, maxBytes: number }> }>
  }): Promise<{ responses: Array<{ topicName: string, partitions: FetchPartitionResponse[] }> }>
}

export interface InternalCluster {
  connect (): Promise<void>
  disconnect (): Promise<void>
  isConnected (): boolean
  refreshMetadata (): Promise<void>
  refreshMetadataIfNecessary (): Promise<void>
  addMultipleTargetTopics (topics: string[]): Promise<void>
  findTopicPartitionMetadata (topic: string): Array<{ partitionId: number, leader: number }>
  findLeaderForPartitions (topic: string, partitions: number[]): Record<string, number[]>
  findBroker (options: { nodeId: string }): Promise<InternalBroker>
  removeBroker (options: { host: string, port: number }): void
  fetchTopicsOffset (topics: Array<{ topic: string, partitions: Array<{ partition: number }>, fromBeginning?: boolean }>): Promise<Array<{ topic: string, partitions: Array<{ partition: number, offset: string }> }>>
}

/** kafkajs' consumer Batch: `messages` without aborted, control or below-fetch-offset records. */
export interface InternalBatch {
  readonly messages: RawMessage[]
  readonly rawMessages: RawMessage[]
}

type BatchConstructor = new (topic: string, fetchedOffset: string, partitionData: FetchPartitionResponse) => InternalBatch
type CreateCluster = (options: { metadataMaxAge?: number, allowAutoTopicCreation: boolean, isolationLevel: number }) => InternalCluster

const Batch = require('kafkajs/src/consumer/batch.js') as BatchConstructor

export function createBatch (topic: string, fetchedOffset: number, partitionData: FetchPartitionResponse): InternalBatch {
  return new Batch(topic, String(fetchedOffset), partitionData)
}

/**
 * A new Cluster (its own connections) from the client's private factory, the one kafkajs' own
 * producer, consumer and admin are made by.
 */
export function createCluster (kafka: Kafka, options: { metadataMaxAge?: number, isolationLevel: number }): InternalCluster {
  const symbol = Object.getOwnPropertySymbols(kafka).find(s => s.description === 'private:Kafka:createCluster')
  const factory = symbol === undefined ? undefined : (kafka as unknown as Record<symbol, unknown>)[symbol]
  if (typeof factory !== 'function') {
    throw new Error('kafkajs internals changed: Kafka has no private cluster factory (kafkajs must be exactly 2.2.4)')
  }
  return (factory as CreateCluster)({ ...options, allowAutoTopicCreation: false })
}

/**
 * Where the next fetch starts after these raw (unfiltered) records: past the end of the last
 * record batch, which also covers trailing control records, aborted data and offsets removed by
 * compaction (Java's `batch.nextOffset()`); the fetch offset when nothing came back.
 */
export function nextOffsetAfter (rawMessages: readonly RawMessage[], fetchedOffset: number): number {
  let next = fetchedOffset
  for (const message of rawMessages) {
    const context = message.batchContext
    const end = context === undefined
      ? Number(message.offset) + 1
      : Number(context.firstOffset) + context.lastOffsetDelta + 1
    if (end > next) next = end
  }
  return next
}
