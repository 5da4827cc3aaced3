/**
 * The cluster's topics: their partitions' logs, the broker nodes and each partition's leader,
 * creation (leaders spread round-robin over the nodes, as Kafka places replicas), deletion, more
 * partitions, leader moves. Every change that a waiting fetch could care about goes through the
 * ChangeSignal.
 * @internal
 */
import { StreamsError, tpKey } from '@kstreams/core'
import type { TopicPartition } from '@kstreams/core'
import type { ChangeSignal } from './change-signal.js'
import { PartitionLog } from './partition-log.js'
import type { AppendedRecord, TransactionMark } from './partition-log.js'
import { kafkaError } from './request-errors.js'

export interface TopicEntry {
  readonly name: string
  readonly logs: PartitionLog[]
  /** Leader node of each partition. */
  readonly leaders: number[]
  readonly replicationFactor: number
  readonly configs: Readonly<Record<string, string>>
  /** Where the round-robin of leaders over the nodes started for this topic. */
  readonly leaderStart: number
}

/** Kafka's legal topic names: up to 249 of [a-zA-Z0-9._-], not "." or "..". */
const LEGAL_NAME = /^[a-zA-Z0-9._-]{1,249}$/

export class TopicRegistry {
  /** Broker node ids, 1-based as KRaft node.id. */
  readonly nodes: readonly number[]
  readonly #signal: ChangeSignal
  readonly #topics = new Map<string, TopicEntry>()
  #created = 0

  constructor(nodes: readonly number[], signal: ChangeSignal) {
    this.nodes = nodes
    this.#signal = signal
  }

  /** Creates a topic; false when it exists already (left as it is). */
  create(
    name: string,
    partitions: number,
    options: { replicationFactor?: number; configs?: Readonly<Record<string, string>> } = {}
  ): boolean {
    if (!LEGAL_NAME.test(name) || name === '.' || name === '..') throw kafkaError('INVALID_TOPIC_EXCEPTION', `illegal topic name '${name}'`)
    if (!(Number.isInteger(partitions) && partitions > 0))
      throw kafkaError('INVALID_PARTITIONS', `topic ${name}: partitions must be a positive integer, got ${partitions}`)
    const replicationFactor = options.replicationFactor ?? 1
    if (!(Number.isInteger(replicationFactor) && replicationFactor > 0 && replicationFactor <= this.nodes.length)) {
      throw kafkaError(
        'INVALID_REPLICATION_FACTOR',
        `topic ${name}: replication factor ${replicationFactor} with ${this.nodes.length} broker(s)`
      )
    }
    if (this.#topics.has(name)) return false
    const topic: TopicEntry = {
      name,
      logs: [],
      leaders: [],
      replicationFactor,
      configs: { ...options.configs },
      leaderStart: this.#created++
    }
    this.#topics.set(name, topic)
    this.#grow(topic, partitions)
    this.#signal.notify()
    return true
  }

  /** CreatePartitions: grows a topic to `total` partitions. */
  addPartitions(name: string, total: number): void {
    const topic = this.require(name)
    if (!(Number.isInteger(total) && total > topic.logs.length)) {
      throw kafkaError('INVALID_PARTITIONS', `topic ${name} has ${topic.logs.length} partitions; cannot grow it to ${total}`)
    }
    this.#grow(topic, total)
    this.#signal.notify()
  }

  delete(name: string): void {
    this.require(name)
    this.#topics.delete(name)
    this.#signal.notify()
  }

  get(name: string): TopicEntry | undefined {
    return this.#topics.get(name)
  }

  /** The topic, or UNKNOWN_TOPIC_OR_PARTITION. */
  require(name: string): TopicEntry {
    const topic = this.#topics.get(name)
    if (topic === undefined) throw kafkaError('UNKNOWN_TOPIC_OR_PARTITION', `unknown topic ${name}`)
    return topic
  }

  names(): string[] {
    return [...this.#topics.keys()]
  }

  log(tp: TopicPartition): PartitionLog | undefined {
    return this.#topics.get(tp.topic)?.logs[tp.partition]
  }

  /** The partition's log, or UNKNOWN_TOPIC_OR_PARTITION. */
  requireLog(tp: TopicPartition): PartitionLog {
    const log = this.log(tp)
    if (log === undefined) throw kafkaError('UNKNOWN_TOPIC_OR_PARTITION', `unknown partition ${tpKey(tp.topic, tp.partition)}`)
    return log
  }

  leader(tp: TopicPartition): number | undefined {
    return this.#topics.get(tp.topic)?.leaders[tp.partition]
  }

  moveLeader(tp: TopicPartition, node: number): void {
    const topic = this.#topics.get(tp.topic)
    if (topic === undefined || topic.logs[tp.partition] === undefined) {
      throw new StreamsError('UNKNOWN_TOPIC', `moveLeader: unknown partition ${tpKey(tp.topic, tp.partition)}`)
    }
    if (!this.nodes.includes(node)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `moveLeader: no broker node ${node} (nodes are ${this.nodes.join(', ')})`)
    }
    topic.leaders[tp.partition] = node
    this.#signal.notify()
  }

  /** Appends to one partition and wakes waiting fetches; returns the last offset. */
  append(tp: TopicPartition, records: readonly AppendedRecord[], transaction?: TransactionMark): number {
    const offset = this.requireLog(tp).append(records, transaction)
    this.#signal.notify()
    return offset
  }

  #grow(topic: TopicEntry, total: number): void {
    for (let p = topic.logs.length; p < total; p++) {
      topic.logs.push(new PartitionLog(topic.name, p))
      topic.leaders.push(this.nodes[(topic.leaderStart + p) % this.nodes.length]!)
    }
  }
}
