/**
 * The Processor API contracts (Kafka Streams' `org.apache.kafka.streams.processor.api`).
 * `process` is synchronous: one record at a time, depth-first through the graph.
 */
import type { Record } from '../record.js'
import type { StateStore } from '../state/state-store.js'
import type { TaskId } from '../task-id.js'
import { StreamsError } from '../errors.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { Serde } from '../serialization/serde.js'
import type { StreamsMetrics } from '../metrics/streams-metrics.js'

/** What drives a punctuator scheduled with ProcessingContext.schedule (Kafka Streams' PunctuationType). */
export enum PunctuationType {
  /** Stream time: advances with the timestamps of the records the task processes, never by itself. */
  STREAM_TIME = 'STREAM_TIME',
  /** Wall-clock time: the instance's clock (the system clock unless another is given), checked as the thread runs. */
  WALL_CLOCK_TIME = 'WALL_CLOCK_TIME'
}

/** Called with the current stream time or wall-clock time (not the scheduled time). */
export type Punctuator = (timestamp: number) => void

/** A scheduled punctuation, to cancel it. */
export interface Cancellable {
  /** Stops the punctuation; it does not run again. */
  cancel(): void
}

/** Where the record being processed came from. Absent inside a punctuation. */
export interface RecordMetadata {
  /** The topic the record was read from. */
  readonly topic: string
  /** Its partition. */
  readonly partition: number
  /** Its offset. */
  readonly offset: number
}

/** What every processor context offers (Kafka Streams' `ProcessingContext`). */
export interface ProcessingContext {
  /** The application id of the config. */
  readonly applicationId: string
  /** The task the processor runs in. */
  readonly taskId: TaskId
  /** The application's resolved config. */
  readonly appConfigs: ResolvedStreamsConfig
  /** The state directory of this task; undefined where no state directory exists. */
  readonly stateDir: string | undefined
  /**
   * The config entries whose key starts with `prefix`, keyed by the rest of the key (first letter
   * in lower case: `appConfigsWithPrefix('rocksdb')` gives `blockCacheBytes`, ...), as Kafka
   * Streams' `appConfigsWithPrefix` strips the prefix.
   */
  appConfigsWithPrefix(prefix: string): { readonly [key: string]: unknown }
  /** The config's default key serde (Kafka Streams' `keySerde()`); a ConfigError naming `defaultKeySerde` when none is set. */
  keySerde(): Serde<unknown>
  /** The config's default value serde (Kafka Streams' `valueSerde()`); a ConfigError naming `defaultValueSerde` when none is set. */
  valueSerde(): Serde<unknown>
  /** The metrics of the thread that runs the processor (Kafka Streams' `metrics()`), for custom sensors. */
  metrics(): StreamsMetrics
  /** Where the record being processed came from; undefined inside a punctuation. */
  recordMetadata(): RecordMetadata | undefined
  /** A state store connected to this processor, by name; an InvalidStateStoreError when it is not. */
  getStateStore<S extends StateStore = StateStore>(name: string): S
  /**
   * Schedules `punctuator` every `intervalMs` of stream time or wall-clock time (Kafka Streams'
   * `schedule`); cancel it with the returned Cancellable.
   */
  schedule(intervalMs: number, type: PunctuationType, punctuator: Punctuator): Cancellable
  /** Requests a commit after the current record (or punctuation) is processed. */
  commit(): void
  /** The task's stream time: the largest timestamp it has processed (ms). */
  currentStreamTimeMs(): number
  /** The current wall-clock time of the task's clock (ms). */
  currentSystemTimeMs(): number
}

/** The context of a Processor: a ProcessingContext that forwards records to the processor's children. */
export interface ProcessorContext<KForward = unknown, VForward = unknown> extends ProcessingContext {
  /** Sends the record to all children, or to the named child only. Synchronous, depth-first. */
  forward<K extends KForward, V extends VForward>(record: Record<K, V>, childName?: string): void
}

/** A node of the topology that processes records one at a time (Kafka Streams' Processor). */
export interface Processor<KIn, VIn, KOut = never, VOut = never> {
  /** Called once before the first record, with the context to keep (stores, schedules, forward). */
  init?(context: ProcessorContext<KOut, VOut>): void
  /** Processes one record, synchronously; forwards output through the context. */
  process(record: Record<KIn, VIn>): void
  /** Called when the task closes; release what init acquired. */
  close?(): void
}

/** Returns a new processor instance on every call (one per task). */
export type ProcessorSupplier<KIn, VIn, KOut = never, VOut = never> = () => Processor<KIn, VIn, KOut, VOut>

/** A consumed record as a TimestampExtractor sees it, key and value deserialized. */
export interface ConsumerRecordInfo {
  /** The topic it was read from. */
  readonly topic: string
  /** Its partition. */
  readonly partition: number
  /** Its offset. */
  readonly offset: number
  /** The deserialized key. */
  readonly key: unknown
  /** The deserialized value. */
  readonly value: unknown
  /** The record's own timestamp (ms). */
  readonly timestamp: number
}

/**
 * Chooses the timestamp of a consumed record (Kafka Streams' TimestampExtractor), given the
 * partition's time so far (-1 when unknown). A negative result drops the record.
 */
export type TimestampExtractor = (record: ConsumerRecordInfo, partitionTime: number) => number

/** Chooses the topic of a record sent by a dynamic sink. */
export type TopicNameExtractor<K, V> = (key: K, value: V, context: RecordContext) => string

/** The context of the record a dynamic sink is sending. */
export interface RecordContext {
  /** The topic the input record came from; undefined when it has none (a punctuation). */
  readonly topic: string | undefined
  /** Its partition. */
  readonly partition: number
  /** Its offset. */
  readonly offset: number
  /** The timestamp of the record being sent (ms). */
  readonly timestamp: number
}

/**
 * Chooses the partition(s) of an output record (Kafka Streams' `StreamPartitioner.partitions`,
 * KIP-837): `undefined` means the default partitioning (murmur2 of the serialized key); a number
 * sends the record to that partition; an array or set of partitions sends a copy to each
 * (multicast), and an empty one drops the record (counted in the task's dropped records).
 * Partitions must be integers in [0, numPartitions).
 */
export type StreamPartitioner<K, V> = (topic: string, key: K, value: V, numPartitions: number) => StreamPartitions

/**
 * What a {@link StreamPartitioner} returns: `undefined` for the default partitioning, one
 * partition, or the partitions to send a copy to (empty: drop the record).
 */
export type StreamPartitions = number | readonly number[] | ReadonlySet<number> | undefined

/**
 * Where a source partition without a committed offset (or with one out of range) starts (Kafka
 * Streams' AutoOffsetReset): 'earliest', 'latest', 'none' (the thread fails), or
 * `AutoOffsetReset.byDuration(ms)`: at the first record whose timestamp is at or after now minus
 * the duration (KIP-1106), at the end when there is none.
 */
export type AutoOffsetReset = 'earliest' | 'latest' | 'none' | ByDurationOffsetReset

/** The reset policy `AutoOffsetReset.byDuration(ms)` makes. */
export interface ByDurationOffsetReset {
  /** The kind of policy. */
  readonly type: 'by_duration'
  /** How far before now the partition starts (ms, not negative). */
  readonly durationMs: number
}

/** The reset policies (Kafka Streams' AutoOffsetReset factory methods). */
export const AutoOffsetReset = Object.freeze({
  /** Starts at the earliest offset. */
  earliest: (): AutoOffsetReset => 'earliest',
  /** Starts at the latest offset (the end). */
  latest: (): AutoOffsetReset => 'latest',
  /** No reset: a partition without a committed offset fails the stream thread. */
  none: (): AutoOffsetReset => 'none',
  /**
   * Starts at the first record whose timestamp is at or after now minus `durationMs` (KIP-1106;
   * ListOffsets by timestamp), at the end of the partition when no record is that recent.
   * `durationMs` must be a non-negative integer (an ILLEGAL_ARGUMENT StreamsError otherwise).
   */
  byDuration(durationMs: number): AutoOffsetReset {
    if (!Number.isSafeInteger(durationMs)) {
      throw new StreamsError(
        'ILLEGAL_ARGUMENT',
        `AutoOffsetReset.byDuration takes a duration in whole milliseconds, got ${String(durationMs)}`
      )
    }
    if (durationMs < 0) throw new StreamsError('ILLEGAL_ARGUMENT', `Duration cannot be negative: AutoOffsetReset.byDuration(${durationMs})`)
    return Object.freeze({ type: 'by_duration', durationMs })
  }
})

/** Whether `value` is an AutoOffsetReset ('earliest', 'latest', 'none' or a valid byDuration policy). @internal */
export function isAutoOffsetReset(value: unknown): value is AutoOffsetReset {
  if (value === 'earliest' || value === 'latest' || value === 'none') return true
  if (value === null || typeof value !== 'object') return false
  const { type, durationMs } = value as Partial<ByDurationOffsetReset>
  return type === 'by_duration' && Number.isSafeInteger(durationMs) && (durationMs as number) >= 0
}

/** The policy as Kafka names it: `earliest`, `latest`, `none` or `by_duration:<ms>ms`. @internal */
export function describeOffsetReset(policy: AutoOffsetReset): string {
  return typeof policy === 'string' ? policy : `by_duration:${policy.durationMs}ms`
}
