/**
 * What the port contract is told about an adapter: how to make its factory, and its capabilities,
 * the places where adapters legitimately differ. Every capability is asserted both ways: the
 * contract checks what an adapter with it does and what one without it does instead, so a
 * capability is never a silent skip.
 */
import type { CommittedOffset, GroupCoordinatorPort, KafkaClient, TopicPartition } from '@kstreams/core'
import { stableOffsets, waitFor } from './contract-env.js'

export interface AdapterCapabilities {
  /**
   * Null header values are written as null (length -1, as Java's producer writes them).
   * Without: a record with one is refused with SERIALIZATION, naming topic and key, before
   * anything of that send goes out.
   */
  readonly nullHeaderValues: boolean
  /**
   * Headers come back in the order written, repeated keys included (a, b, a). Without: grouped
   * by key in first-seen order (a, a, b).
   */
  readonly interleavedHeaderOrder: boolean
  /**
   * TxnOffsetCommit carries the group's generation and member id (KIP-447): a stale generation
   * is refused and leaves only abort(). Without: the generation is not sent, and the offsets of
   * a stale generation are committed.
   */
  readonly txnOffsetCommitGeneration: boolean
  /**
   * OffsetFetch with require_stable: UNSTABLE_OFFSET_COMMIT (retriable) while a transaction holds
   * offsets of the group. Without: the option is ignored, and the pending offsets are absent.
   */
  readonly requireStable: boolean
  /**
   * AdminPort.endOffsets gives high watermarks: an open transaction's records are counted.
   * Without: the last stable offset (what a READ_COMMITTED reader sees).
   */
  readonly endOffsetsAreHighWatermarks: boolean
  /**
   * A send with a partition the topic does not have is refused (UNKNOWN_TOPIC_OR_PARTITION)
   * before anything of it goes out. Without: the records for the partitions that exist are
   * written, and then the call is refused with the same error.
   */
  readonly unknownPartitionRefusedBeforeSending: boolean
  /**
   * After a commit that failed (here: fenced), abort() still goes to the coordinator and names
   * what failed (the fencing). Without: the client's transaction is over once commit was tried
   * (kafkajs' transaction object), and abort() rejects with CLIENT_ERROR.
   */
  readonly abortAfterFailedCommit: boolean
}

export interface AdapterUnderTest {
  /** For test titles: `kafkajs`, `platformatic`. */
  readonly name: string
  /** The adapter's KafkaClient, with fast retries so a test expecting a failure does not wait long. */
  readonly client: KafkaClient
  readonly capabilities: AdapterCapabilities
}

/**
 * The group's committed offsets of `partitions` once a transaction that committed `expected` of
 * them is visible: require_stable where the adapter has it, otherwise polled until they appear
 * (the coordinator writes them after EndTxn returns).
 */
export async function offsetsAfterTransaction(
  adapter: AdapterUnderTest,
  port: GroupCoordinatorPort,
  partitions: readonly TopicPartition[],
  expected: number
): Promise<Map<string, CommittedOffset>> {
  if (adapter.capabilities.requireStable) return await stableOffsets(port, partitions)
  let committed = new Map<string, CommittedOffset>()
  await waitFor(`${expected} committed offsets`, async () => (committed = await port.fetchCommittedOffsets(partitions)).size === expected)
  return committed
}
