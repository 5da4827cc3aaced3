/**
 * The processing of one stream thread's RUNNING active tasks (Kafka's TaskExecutor): processes
 * up to N records of every task that is processable (max.task.idle.ms), punctuates on stream
 * time and wall-clock time, resumes input partitions whose buffer drained, and runs the commit
 * protocol: tasks prepare (flush stores -> changelog sends), the collector flushes
 * (acknowledged), offsets are committed, tasks post-commit (changelog offsets -> checkpoint). It
 * remembers the offsets it committed. Under exactly_once_v2 the offsets go into the thread's
 * transaction, which then commits: one transaction for every task, and no checkpoint for a
 * running task. Which tasks exist and in which state is the TaskManager's business. @internal
 */
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { Clock } from '../clock.js'
import type { KafkaRecordCollector } from './kafka-record-collector.js'
import { tpKey, type TopicPartition, type TopicPartitionOffset } from './kafka/ports.js'
import type { MainConsumer } from './consumer/consumer-api.js'
import { encodePartitionTime } from './partition-time-metadata.js'
import type { ManagedTask } from './managed-task.js'
import type { GroupMetadata, StreamsProducer } from './streams-producer.js'

/** exactly_once_v2: the thread's transactional producer and the group (with its generation) the offsets are committed for. */
export interface TransactionalCommit {
  readonly producer: Pick<StreamsProducer, 'commitTransaction' | 'transactionInFlight'>
  readonly group: () => GroupMetadata
}

export interface TaskExecutorOptions {
  readonly config: Pick<ResolvedStreamsConfig, 'maxTaskIdleMs' | 'bufferedRecordsPerPartition'>
  readonly clock: Clock
  readonly collector: Pick<KafkaRecordCollector, 'flush' | 'ackedOffset'>
  readonly consumer: Pick<MainConsumer, 'resume' | 'commit'>
  /** How far the consumer is behind the end of an input partition, as last fetched; undefined when not known yet. */
  readonly currentLag: (tp: TopicPartition) => number | undefined
  /** The thread's active tasks by id (the TaskManager's); only the RUNNING ones are executed. */
  readonly tasks: ReadonlyMap<string, ManagedTask>
  readonly transactions?: TransactionalCommit | undefined
}

export class TaskExecutor {
  readonly #o: TaskExecutorOptions
  /** The offsets last committed per input partition. */
  readonly #committed = new Map<string, number>()

  constructor(options: TaskExecutorOptions) {
    this.#o = options
  }

  /** The offsets last committed per input partition, keyed by `topic-partition`. */
  get committedOffsets(): ReadonlyMap<string, number> {
    return this.#committed
  }

  /** Forgets the committed offsets of the partitions of a task that closes. */
  forgetCommitted(partitions: readonly TopicPartition[]): void {
    for (const p of partitions) this.#committed.delete(tpKey(p.topic, p.partition))
  }

  /** Whether a running task has records buffered (the thread polls without waiting then). */
  get hasProcessableRecords(): boolean {
    for (const t of this.#o.tasks.values()) if (t.state === 'RUNNING' && t.task.hasRecordsQueued()) return true
    return false
  }

  /** Processes up to `maxPerTask` records of every processable running task; returns how many. */
  process(maxPerTask: number): number {
    let processed = 0
    const now = this.#o.clock.milliseconds()
    for (const t of this.#o.tasks.values()) {
      if (t.state !== 'RUNNING') continue
      for (let i = 0; i < maxPerTask && this.#isProcessable(t, now); i++) {
        if (!t.task.process()) break
        processed++
      }
      t.task.maybePunctuateStreamTime()
      this.#resumeDrained(t)
    }
    return processed
  }

  /**
   * Kafka's PartitionGroup.readyToProcess: a task with an empty input partition waits for its
   * data while the partition is known to have more (lag > 0) or its lag is not known yet; when
   * every empty partition is caught up it waits maxTaskIdleMs (0: not at all) for data to show up.
   */
  #isProcessable(t: ManagedTask, now: number): boolean {
    if (!t.task.hasRecordsQueued()) return false
    const idleMs = this.#o.config.maxTaskIdleMs
    if (idleMs < 0) return true
    const empty = t.task.emptyPartitions()
    if (empty.length === 0) {
      t.idleSince = undefined
      return true
    }
    for (const p of empty) {
      const lag = this.#o.currentLag(p)
      if (lag === undefined || lag > 0) {
        t.idleSince = undefined
        return false
      }
    }
    t.idleSince ??= now
    return now - t.idleSince >= idleMs
  }

  #resumeDrained(t: ManagedTask): void {
    const limit = this.#o.config.bufferedRecordsPerPartition
    const resume = t.partitions.filter(p => t.task.bufferedFor(p.topic, p.partition) <= limit / 2)
    if (resume.length > 0) this.#o.consumer.resume(resume)
  }

  /** Wall-clock punctuation of every running task; returns how many tasks punctuated. */
  punctuateWallClock(): number {
    let punctuated = 0
    for (const t of this.#o.tasks.values()) if (t.state === 'RUNNING' && t.task.maybePunctuateSystemTime()) punctuated++
    return punctuated
  }

  /** Whether a task asked for a commit (context.commit()). */
  get commitRequested(): boolean {
    return [...this.#o.tasks.values()].some(t => t.state === 'RUNNING' && t.task.commitRequested)
  }

  /** The commit protocol over all running tasks that need it (all when `force`); returns how many committed. */
  async commit(force: boolean): Promise<number> {
    const eos = this.#o.transactions
    const tasks = [...this.#o.tasks.values()].filter(t => t.state === 'RUNNING' && (force || t.task.commitNeeded || t.task.commitRequested))
    if (tasks.length === 0 && eos?.producer.transactionInFlight !== true) {
      await this.#o.collector.flush()
      return 0
    }
    const offsets: Array<TopicPartitionOffset & { metadata?: string }> = []
    for (const t of tasks) {
      const times = t.task.partitionTimes()
      const processorMetadata = t.task.processorMetadata()
      for (const o of t.task.prepareCommit())
        offsets.push({ ...o, metadata: encodePartitionTime(times.get(tpKey(o.topic, o.partition)) ?? -1, processorMetadata) })
    }
    await this.#o.collector.flush()
    if (eos !== undefined) await eos.producer.commitTransaction(offsets, eos.group())
    else if (offsets.length > 0) await this.#o.consumer.commit(offsets)
    for (const o of offsets) this.#committed.set(tpKey(o.topic, o.partition), o.offset)
    // A source topic serving as a changelog is applied up to the committed offset.
    const consumed = new Map(offsets.map(o => [tpKey(o.topic, o.partition), o.offset - 1]))
    for (const t of tasks) {
      t.task.postCommit()
      t.stateManager.updateChangelogOffsets(
        (topic, partition) => consumed.get(tpKey(topic, partition)) ?? this.#o.collector.ackedOffset(topic, partition)
      )
      // Under exactly-once a running task's stores hold uncommitted writes between commits: no checkpoint.
      if (eos === undefined) await t.stateManager.maybeCheckpoint(false)
    }
    return tasks.length
  }
}
