/**
 * The transaction coordinator: one producer id per transactional id, its epoch (a new
 * InitProducerId bumps it, aborting an open transaction and fencing the older producer), the open
 * transaction's partitions and groups, its timeout (the coordinator aborts and bumps the epoch),
 * and EndTxn: markers on every partition, pending group offsets committed or dropped.
 * @internal
 */
import { tpKey } from '@kstreams/core'
import type { GroupGeneration, TopicPartition } from '@kstreams/core'
import type { BrokerTimers } from './broker-timers.js'
import type { OffsetCommitEntry, OffsetStore } from './offset-store.js'
import type { AppendedRecord, PartitionLog, TransactionMark } from './partition-log.js'
import { kafkaError } from './request-errors.js'
import type { TopicRegistry } from './topic-registry.js'

/** What InitProducerId gave a producer. */
export interface ProducerIdentity {
  readonly transactionalId: string
  readonly producerId: number
  readonly epoch: number
}

interface OpenTransaction {
  readonly mark: TransactionMark
  readonly logs: Map<string, PartitionLog>
  readonly groups: Set<string>
}

interface TransactionalIdEntry {
  readonly producerId: number
  epoch: number
  timeoutMs: number
  open: OpenTransaction | undefined
}

export class TransactionCoordinator {
  readonly #topics: TopicRegistry
  readonly #offsets: OffsetStore
  readonly #timers: BrokerTimers
  readonly #ids = new Map<string, TransactionalIdEntry>()
  #nextProducerId = 1000

  constructor(options: { topics: TopicRegistry; offsets: OffsetStore; timers: BrokerTimers }) {
    this.#topics = options.topics
    this.#offsets = options.offsets
    this.#timers = options.timers
  }

  /** InitProducerId: aborts the transactional id's open transaction and fences its older producers. */
  initProducerId(transactionalId: string, transactionTimeoutMs: number): ProducerIdentity {
    let entry = this.#ids.get(transactionalId)
    if (entry === undefined) {
      entry = { producerId: this.#nextProducerId++, epoch: 0, timeoutMs: transactionTimeoutMs, open: undefined }
      this.#ids.set(transactionalId, entry)
    } else {
      this.#end(transactionalId, entry, false)
      entry.epoch++
      entry.timeoutMs = transactionTimeoutMs
    }
    return { transactionalId, producerId: entry.producerId, epoch: entry.epoch }
  }

  /** Every transactional id the coordinator knows, with its producer id and current epoch. */
  identities(): ProducerIdentity[] {
    return [...this.#ids].map(([transactionalId, e]) => ({ transactionalId, producerId: e.producerId, epoch: e.epoch }))
  }

  /** Produce within the transaction (AddPartitionsToTxn + Produce); returns the last offset. */
  append(producer: ProducerIdentity, tp: TopicPartition, records: readonly AppendedRecord[]): number {
    const entry = this.#check(producer, 'INVALID_PRODUCER_EPOCH')
    const log = this.#topics.requireLog(tp)
    const open = this.#open(producer.transactionalId, entry)
    open.logs.set(tpKey(tp.topic, tp.partition), log)
    return this.#topics.append(tp, records, open.mark)
  }

  /** AddOffsetsToTxn + TxnOffsetCommit: group offsets that commit with the transaction. */
  addOffsets(producer: ProducerIdentity, groupId: string, generation: GroupGeneration, offsets: readonly OffsetCommitEntry[]): void {
    const entry = this.#check(producer, 'PRODUCER_FENCED')
    const open = this.#open(producer.transactionalId, entry)
    open.groups.add(groupId)
    this.#offsets.commitTransactional(groupId, entry.producerId, generation, offsets)
  }

  /** EndTxn: commits or aborts the open transaction (nothing to do when none is open). */
  endTransaction(producer: ProducerIdentity, commit: boolean): void {
    const entry = this.#check(producer, 'PRODUCER_FENCED')
    this.#end(producer.transactionalId, entry, commit)
  }

  #check(producer: ProducerIdentity, fencedError: 'PRODUCER_FENCED' | 'INVALID_PRODUCER_EPOCH'): TransactionalIdEntry {
    const entry = this.#ids.get(producer.transactionalId)
    if (entry === undefined || entry.epoch !== producer.epoch) {
      throw kafkaError(
        fencedError,
        `producer epoch ${producer.epoch} of transactional id ${producer.transactionalId} is fenced (current epoch ${entry?.epoch ?? 'none'})`
      )
    }
    return entry
  }

  #open(transactionalId: string, entry: TransactionalIdEntry): OpenTransaction {
    if (entry.open === undefined) {
      entry.open = { mark: { producerId: entry.producerId, status: 'ongoing' }, logs: new Map(), groups: new Set() }
      const epoch = entry.epoch
      this.#timers.schedule(timeoutKey(transactionalId), entry.timeoutMs, () => {
        // transaction.timeout.ms passed: the coordinator aborts and bumps the epoch (the producer is fenced).
        if (entry.epoch !== epoch) return
        this.#end(transactionalId, entry, false)
        entry.epoch++
      })
    }
    return entry.open
  }

  #end(transactionalId: string, entry: TransactionalIdEntry, commit: boolean): void {
    const open = entry.open
    if (open === undefined) return
    entry.open = undefined
    this.#timers.cancel(timeoutKey(transactionalId))
    open.mark.status = commit ? 'committed' : 'aborted'
    const now = this.#timers.now()
    for (const log of open.logs.values()) log.writeMarker(open.mark, commit ? 'COMMIT' : 'ABORT', now)
    // completeTransaction notifies waiting fetches and OffsetFetch(requireStable) alike.
    this.#offsets.completeTransaction(entry.producerId, open.groups, commit)
  }
}

const timeoutKey = (transactionalId: string): string => `transaction|${transactionalId}`
