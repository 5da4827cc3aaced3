/**
 * A sink node: chooses the topic (fixed or extracted), serializes with its serializers (or the
 * config's default serdes), picks the partition(s) with its partitioner (none: the default
 * partitioning; several: a copy to each; an empty set: the record is dropped, KIP-837), and hands
 * the record to the task's record collector. @internal
 */
import type { Serializer } from '../serialization/serde.js'
import type { StreamPartitioner, TopicNameExtractor } from '../processor/api.js'
import type { Record } from '../record.js'
import { ConfigError, SerializationError, StreamsError } from '../errors.js'
import { errorHandlerContext, productionDecision, sendDeadLetterQueueRecords } from './exception-handlers.js'
import { ProcessorNode } from './processor-node.js'
import { markHandled } from './handled-error.js'
import { isValidPartition, multicastPartitions } from '../partitioner/stream-partitions.js'
import type { ProcessorContextImpl } from './processor-context-impl.js'
import type { RecordCollector } from './record-collector.js'

export class SinkNode extends ProcessorNode {
  readonly topic: string | undefined
  readonly #topicExtractor: TopicNameExtractor<unknown, unknown> | undefined
  readonly #keySerializer: Serializer<unknown> | undefined
  readonly #valueSerializer: Serializer<unknown> | undefined
  readonly #partitioner: StreamPartitioner<unknown, unknown> | undefined
  #keySer: Serializer<unknown> | undefined
  #valueSer: Serializer<unknown> | undefined
  readonly #collector: RecordCollector

  constructor(
    name: string,
    topic: string | undefined,
    topicExtractor: TopicNameExtractor<unknown, unknown> | undefined,
    keySerializer: Serializer<unknown> | undefined,
    valueSerializer: Serializer<unknown> | undefined,
    partitioner: StreamPartitioner<unknown, unknown> | undefined,
    collector: RecordCollector
  ) {
    super(name, undefined)
    this.topic = topic
    this.#topicExtractor = topicExtractor
    this.#keySerializer = keySerializer
    this.#valueSerializer = valueSerializer
    this.#partitioner = partitioner
    this.#collector = collector
  }

  override init(context: ProcessorContextImpl): void {
    this.context = context
    const config = context.appConfigs
    this.#keySer = this.#keySerializer ?? config.defaultKeySerde?.serializer()
    this.#valueSer = this.#valueSerializer ?? config.defaultValueSerde?.serializer()
    if (this.#keySer === undefined)
      throw new ConfigError('defaultKeySerde', `Sink ${this.name} has no key serializer and no defaultKeySerde is configured`)
    if (this.#valueSer === undefined)
      throw new ConfigError('defaultValueSerde', `Sink ${this.name} has no value serializer and no defaultValueSerde is configured`)
  }

  override process(record: Record<unknown, unknown>): void {
    const context = this.context!
    const rc = context.recordContext
    const topic = this.topic ?? this.#extractTopic(record)
    let key: Buffer | null
    let value: Buffer | null
    let origin: 'KEY' | 'VALUE' = 'KEY'
    try {
      key = this.#keySer!.serialize(topic, record.key, record.headers)
      origin = 'VALUE'
      value = this.#valueSer!.serialize(topic, record.value, record.headers)
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err))
      // As Kafka's RecordCollectorImpl: the production handler decides (handleSerializationError),
      // its dead-letter records go out first.
      const decision = productionDecision(context.appConfigs, errorHandlerContext(rc, context.taskId.toString(), this.name), error, {
        topic,
        partition: undefined,
        key: record.key,
        value: record.value,
        headers: record.headers,
        timestamp: record.timestamp,
        serializationExceptionOrigin: origin
      })
      sendDeadLetterQueueRecords(this.#collector, decision.deadLetterQueueRecords, rc, this.name, context)
      if (decision.result === 'RESUME') {
        context.recordDroppedRecord()
        return
      }
      // The production exception handler decided: the processing handler does not see it again.
      throw markHandled(
        new SerializationError(
          `Failed to serialize record for topic ${topic} at sink ${this.name} (task ${context.taskId.toString()}, source topic ${rc.topic ?? ''}, partition ${rc.partition}, offset ${rc.offset}): ${error.message}`,
          { cause: err, taskId: context.taskId.toString() }
        )
      )
    }
    // One object per record, partition included: the collector keeps it as it is.
    const out = {
      topic,
      key,
      value,
      headers: record.headers,
      timestamp: record.timestamp,
      origin: context,
      source: rc,
      processorNodeId: this.name,
      partition: undefined as number | undefined
    }
    const partitioner = this.#partitioner
    if (partitioner === undefined) {
      // The default partitioning (murmur2 of the key bytes, chosen by the collector).
      this.#collector.send(out)
      return
    }
    const count = this.#collector.partitionsFor(topic)
    if (count === undefined) {
      // A topic whose partition count is not known yet (one a TopicNameExtractor chose): the
      // collector looks the count up before sending and lets the partitioner choose then.
      this.#collector.send({ ...out, partition: undefined, choosePartitions: n => this.#choosePartitions(partitioner, topic, record, n) })
      return
    }
    const partitions = this.#choosePartitions(partitioner, topic, record, count)
    if (partitions === undefined) this.#collector.send(out)
    else for (const partition of partitions) this.#collector.send({ ...out, partition })
  }

  /**
   * The partitions the partitioner chose for `record` on `topic` of `count` partitions: undefined
   * for the default partitioning; an empty list (KIP-837) drops the record, counted as dropped;
   * ILLEGAL_ARGUMENT for a partition the topic does not have.
   */
  #choosePartitions(
    partitioner: StreamPartitioner<unknown, unknown>,
    topic: string,
    record: Record<unknown, unknown>,
    count: number
  ): readonly number[] | undefined {
    const context = this.context!
    const partitions = multicastPartitions(partitioner(topic, record.key, record.value, count))
    if (partitions === undefined) return undefined
    if (partitions.length === 0) context.recordDroppedRecord()
    for (const partition of partitions) {
      if (!isValidPartition(partition, count)) {
        throw new StreamsError(
          'ILLEGAL_ARGUMENT',
          `Partitioner of sink ${this.name} returned partition ${String(partition)} for topic ${topic}, which has ${count} partitions`,
          { taskId: context.taskId.toString() }
        )
      }
    }
    return partitions
  }

  #extractTopic(record: Record<unknown, unknown>): string {
    const rc = this.context!.recordContext
    const topic = this.#topicExtractor!(record.key, record.value, {
      topic: rc.topic,
      partition: rc.partition,
      offset: rc.offset,
      timestamp: record.timestamp
    })
    if (typeof topic !== 'string' || topic.length === 0) {
      throw new StreamsError('UNKNOWN_TOPIC', `Topic name extractor of sink ${this.name} returned an invalid topic name: ${String(topic)}`)
    }
    return topic
  }
}
