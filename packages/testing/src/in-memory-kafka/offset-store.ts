/**
 * Committed group offsets (what Kafka keeps in __consumer_offsets): OffsetCommit and OffsetFetch
 * after the coordinator's membership checks, transactional offsets held pending until their
 * transaction ends (KIP-447's requireStable waits for them), and the offsets of every group for
 * inspection.
 * @internal
 */
import { tpKey } from '@kstreams/core'
import type { CommittedOffset, GroupGeneration, TopicPartition, TopicPartitionOffset } from '@kstreams/core'
import type { ChangeSignal } from './change-signal.js'
import type { GroupCoordinator } from './group-coordinator.js'
import { kafkaError } from './request-errors.js'
import type { TopicRegistry } from './topic-registry.js'

export type OffsetCommitEntry = TopicPartitionOffset & { readonly metadata?: string | undefined }

/** offset.metadata.max.bytes. */
const MAX_METADATA_LENGTH = 4096

export class OffsetStore {
  readonly #coordinator: GroupCoordinator
  readonly #topics: TopicRegistry
  readonly #signal: ChangeSignal
  readonly #committed = new Map<string, Map<string, CommittedOffset>>()
  /** Pending transactional offsets: group -> producer id -> partition -> offset. */
  readonly #pending = new Map<string, Map<number, Map<string, CommittedOffset>>>()

  constructor(options: { coordinator: GroupCoordinator; topics: TopicRegistry; signal: ChangeSignal }) {
    this.#coordinator = options.coordinator
    this.#topics = options.topics
    this.#signal = options.signal
  }

  /** OffsetCommit: commits every valid partition, then rejects with the first partition error, if any. */
  commit(groupId: string, generation: GroupGeneration, offsets: readonly OffsetCommitEntry[]): void {
    this.#coordinator.validateOffsetCommit(groupId, generation, false)
    const committed = this.#committedOf(groupId)
    this.#store(offsets, (key, value) => committed.set(key, value))
  }

  /** TxnOffsetCommit: the offsets wait in the transaction until it commits (or vanish on abort). */
  commitTransactional(groupId: string, producerId: number, generation: GroupGeneration, offsets: readonly OffsetCommitEntry[]): void {
    this.#coordinator.validateOffsetCommit(groupId, generation, true)
    const byProducer = this.#pendingOf(groupId)
    let pending = byProducer.get(producerId)
    if (pending === undefined) byProducer.set(producerId, (pending = new Map()))
    const target = pending
    this.#store(offsets, (key, value) => target.set(key, value))
  }

  /** The transaction of `producerId` ended: its pending offsets of `groupIds` become committed, or are dropped. */
  completeTransaction(producerId: number, groupIds: Iterable<string>, commit: boolean): void {
    for (const groupId of groupIds) {
      const pending = this.#pending.get(groupId)?.get(producerId)
      if (pending === undefined) continue
      this.#pending.get(groupId)!.delete(producerId)
      if (commit) {
        const committed = this.#committedOf(groupId)
        for (const [key, value] of pending) committed.set(key, value)
      }
    }
    this.#signal.notify()
  }

  /** OffsetFetch: committed offsets of `partitions`, keyed by topic-partition; `requireStable` waits out pending transactional ones. */
  async fetch(groupId: string, partitions: readonly TopicPartition[], requireStable: boolean): Promise<Map<string, CommittedOffset>> {
    while (requireStable && partitions.some(tp => this.#hasPending(groupId, tpKey(tp.topic, tp.partition)))) {
      await this.#signal.wait()
    }
    const committed = this.#committed.get(groupId)
    const result = new Map<string, CommittedOffset>()
    for (const tp of partitions) {
      const key = tpKey(tp.topic, tp.partition)
      const offset = committed?.get(key)
      if (offset !== undefined) result.set(key, offset)
    }
    return result
  }

  /** Every committed offset of a group, keyed by topic-partition. */
  committed(groupId: string): Map<string, CommittedOffset> {
    return new Map(this.#committed.get(groupId))
  }

  #hasPending(groupId: string, key: string): boolean {
    for (const pending of this.#pending.get(groupId)?.values() ?? []) if (pending.has(key)) return true
    return false
  }

  #store(offsets: readonly OffsetCommitEntry[], put: (key: string, value: CommittedOffset) => void): void {
    let firstError: Error | undefined
    for (const o of offsets) {
      const key = tpKey(o.topic, o.partition)
      if (this.#topics.get(o.topic) === undefined) {
        firstError ??= kafkaError('UNKNOWN_TOPIC_OR_PARTITION', `cannot commit ${key}: unknown topic`)
      } else if ((o.metadata?.length ?? 0) > MAX_METADATA_LENGTH) {
        firstError ??= kafkaError('OFFSET_METADATA_TOO_LARGE', `metadata of ${key} is longer than ${MAX_METADATA_LENGTH}`)
      } else {
        // Kafka stores a missing metadata string as "".
        put(key, { offset: o.offset, metadata: o.metadata ?? '' })
      }
    }
    if (firstError !== undefined) throw firstError
  }

  #committedOf(groupId: string): Map<string, CommittedOffset> {
    let offsets = this.#committed.get(groupId)
    if (offsets === undefined) this.#committed.set(groupId, (offsets = new Map()))
    return offsets
  }

  #pendingOf(groupId: string): Map<number, Map<string, CommittedOffset>> {
    let offsets = this.#pending.get(groupId)
    if (offsets === undefined) this.#pending.set(groupId, (offsets = new Map()))
    return offsets
  }
}
