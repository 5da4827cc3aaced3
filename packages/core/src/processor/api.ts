/**
 * The Processor API contracts (Kafka Streams' `org.apache.kafka.streams.processor.api`).
 * `process` is synchronous: one record at a time, depth-first through the graph.
 */
import type { Record } from '../record.js'
import type { StateStore } from '../state/state-store.js'
import type { TaskId } from '../task-id.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'

export enum PunctuationType {
  STREAM_TIME = 'STREAM_TIME',
  WALL_CLOCK_TIME = 'WALL_CLOCK_TIME'
}

/** Called with the current stream time or wall-clock time (not the scheduled time). */
export type Punctuator = (timestamp: number) => void

export interface Cancellable {
  cancel(): void
}

/** Where the record being processed came from. Absent inside a punctuation. */
export interface RecordMetadata {
  readonly topic: string
  readonly partition: number
  readonly offset: number
}

/** What every processor context offers (Kafka Streams' `ProcessingContext`). */
export interface ProcessingContext {
  readonly applicationId: string
  readonly taskId: TaskId
  readonly appConfigs: ResolvedStreamsConfig
  /** The state directory of this task; undefined where no state directory exists. */
  readonly stateDir: string | undefined
  recordMetadata(): RecordMetadata | undefined
  getStateStore<S extends StateStore = StateStore>(name: string): S
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable
  /** Requests a commit after the current record (or punctuation) is processed. */
  commit(): void
  currentStreamTimeMs(): number
  currentSystemTimeMs(): number
}

export interface ProcessorContext<KForward = unknown, VForward = unknown> extends ProcessingContext {
  /** Sends the record to all children, or to the named child only. Synchronous, depth-first. */
  forward<K extends KForward, V extends VForward>(record: Record<K, V>, childName?: string): void
}

export interface Processor<KIn, VIn, KOut = never, VOut = never> {
  init?(context: ProcessorContext<KOut, VOut>): void
  process(record: Record<KIn, VIn>): void
  close?(): void
}

/** Returns a new processor instance on every call (one per task). */
export type ProcessorSupplier<KIn, VIn, KOut = never, VOut = never> = () => Processor<KIn, VIn, KOut, VOut>

/** Chooses the timestamp of a consumed record. */
export interface ConsumerRecordInfo {
  readonly topic: string
  readonly partition: number
  readonly offset: number
  readonly key: unknown
  readonly value: unknown
  readonly timestamp: number
}
export type TimestampExtractor = (record: ConsumerRecordInfo, partitionTime: number) => number

/** Chooses the topic of a record sent by a dynamic sink. */
export type TopicNameExtractor<K, V> = (key: K, value: V, context: RecordContext) => string

/** The context of the record a dynamic sink is sending. */
export interface RecordContext {
  readonly topic: string | undefined
  readonly partition: number
  readonly offset: number
  readonly timestamp: number
}

/** Chooses the partition of an output record; undefined means the default (murmur2 of the key). */
export type StreamPartitioner<K, V> = (topic: string, key: K, value: V, numPartitions: number) => number | undefined

export type AutoOffsetReset = 'earliest' | 'latest' | 'none'
