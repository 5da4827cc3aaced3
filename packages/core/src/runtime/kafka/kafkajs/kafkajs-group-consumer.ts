/**
 * GroupConsumerPort on a (patched) kafkajs consumer: owns the consumer's lifecycle and its wiring
 * to kafkajs (assigner bridge, awaited rebalance callbacks, eachBatch, crash handling); handler
 * ordering and assignment state live in GroupHandlerDispatcher. Offsets are committed only by
 * commit(); after each batch the fetch position moves past it (resolveOffset is not a commit).
 * See README.md for what kafkajs can and cannot do here.
 */
import type { Consumer, EachBatchPayload, Kafka, Admin } from 'kafkajs'
import { IllegalStateError, StreamsError } from '../../../errors.js'
import type { Logger } from '../../../logger.js'
import type { FetchedBatch, GroupAssignor, GroupConsumerHandlers, GroupConsumerPort, TopicPartition, TopicPartitionOffset } from '../ports.js'
import { createPartitionAssigner, flattenTopicPartitions, groupByTopic } from './kafkajs-assignor-bridge.js'
import type { ResolvedKafkajsConfig } from './kafkajs-client-config.js'
import { GROUP_MIGRATED_TYPES, toStreamsError } from './kafkajs-errors.js'
import { nextOffsetAfter, type RawMessage } from './kafkajs-internals.js'
import { GroupHandlerDispatcher } from './group-handler-dispatcher.js'
import { fetchCommittedOffsets } from './committed-offsets.js'
import { toFetchedRecord } from './record-conversion.js'

type State = 'created' | 'starting' | 'running' | 'failed' | 'stopping' | 'stopped'

const TRANSITIONS: Readonly<Record<State, readonly State[]>> = {
  created: ['starting', 'stopped'],
  starting: ['running', 'failed', 'stopping'],
  running: ['failed', 'stopping'],
  failed: ['stopping'],
  stopping: ['stopped'],
  stopped: []
}

/** What kafkajs' Batch has beyond its typings (rawMessages: unfiltered, control records included). */
interface BatchInternals {
  readonly fetchedOffset: string
  readonly rawMessages: RawMessage[]
  readonly lastStableOffset: string
}

export class KafkajsGroupConsumer implements GroupConsumerPort {
  readonly #kafka: Kafka
  readonly #groupId: string
  readonly #config: ResolvedKafkajsConfig
  readonly #logger: Logger
  #state: State = 'created'
  #consumer: Consumer | undefined
  #admin: Admin | undefined
  #dispatcher: GroupHandlerDispatcher | undefined
  #memberId: string | undefined
  #rejoinRequested = false
  #startError: unknown
  #stopped: Promise<void> | undefined

  constructor (options: { kafka: Kafka, groupId: string, config: ResolvedKafkajsConfig }) {
    this.#kafka = options.kafka
    this.#groupId = options.groupId
    this.#config = options.config
    this.#logger = options.config.logger
  }

  get memberId (): string | undefined {
    return this.#memberId
  }

  async start (topics: readonly string[] | RegExp, assignor: GroupAssignor, handlers: GroupConsumerHandlers, idleIntervalMs: number): Promise<void> {
    this.#transition('starting')
    const dispatcher = new GroupHandlerDispatcher({
      handlers,
      idleIntervalMs,
      clock: this.#config.clock,
      onFailure: error => { this.#onFailure(error, handlers) }
    })
    this.#dispatcher = dispatcher
    try {
      const consumer = this.#createConsumer(assignor, dispatcher)
      await consumer.connect()
      await consumer.subscribe({ topics: topics instanceof RegExp ? [topics] : [...topics], fromBeginning: true })
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 1,
        eachBatch: async payload => { await this.#eachBatch(payload, dispatcher) }
      })
    } catch (error) {
      this.#startError ??= error
    }
    if (this.#state === 'stopping' || this.#state === 'stopped') return
    if (this.#startError !== undefined) {
      // A handler's own error is rethrown as it is; a client error is wrapped.
      const error = dispatcher.failed ? this.#startError : toStreamsError(this.#startError, `Group consumer ${this.#groupId} start`)
      await this.stop({ leaveGroup: true })
      throw error
    }
    if (this.#state === 'starting') this.#transition('running')
  }

  #createConsumer (assignor: GroupAssignor, dispatcher: GroupHandlerDispatcher): Consumer {
    const c = this.#config
    const consumer = this.#kafka.consumer({
      groupId: this.#groupId,
      partitionAssigners: [createPartitionAssigner(assignor)],
      sessionTimeout: c.sessionTimeoutMs,
      rebalanceTimeout: c.rebalanceTimeoutMs,
      heartbeatInterval: c.heartbeatIntervalMs,
      maxWaitTimeInMs: c.fetchMaxWaitMs,
      maxBytes: c.fetchMaxBytes,
      maxBytesPerPartition: c.fetchMaxBytesPerPartition,
      metadataMaxAge: c.metadataMaxAgeMs,
      allowAutoTopicCreation: false,
      readUncommitted: !c.groupReadCommitted,
      retry: { ...c.retry, restartOnFailure: async () => this.#state === 'starting' || this.#state === 'running' },
      onPartitionsRevoked: async revoked => { await this.#onRevoked(flattenTopicPartitions(revoked)) },
      onPartitionsAssigned: async ({ assignment, userData }) => {
        await dispatcher.assigned({ partitions: flattenTopicPartitions(assignment), userData })
      }
    })
    this.#consumer = consumer
    consumer.on(consumer.events.GROUP_JOIN, event => { this.#memberId = event.payload.memberId })
    consumer.on(consumer.events.CRASH, event => { this.#onCrash(event.payload.error, event.payload.restart) })
    consumer.on(consumer.events.END_BATCH_PROCESS, event => { this.#onBatchProcessed(event.payload, dispatcher) })
    return consumer
  }

  pause (partitions: readonly TopicPartition[]): void {
    const dispatcher = this.#assignedOnly(partitions, 'pause')
    for (const tp of partitions) dispatcher.markPaused(tp, true)
    this.#consumer!.pause(groupByTopic(partitions))
  }

  resume (partitions: readonly TopicPartition[]): void {
    const dispatcher = this.#assignedOnly(partitions, 'resume')
    for (const tp of partitions) dispatcher.markPaused(tp, false)
    this.#consumer!.resume(groupByTopic(partitions))
  }

  seek (partition: TopicPartitionOffset): void {
    this.#assignedOnly([partition], 'seek')
    if (!Number.isSafeInteger(partition.offset) || partition.offset < 0) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `seek(): invalid offset ${partition.offset} for ${partition.topic}-${partition.partition}`)
    }
    this.#consumer!.seek({ topic: partition.topic, partition: partition.partition, offset: String(partition.offset) })
  }

  async commit (offsets: ReadonlyArray<TopicPartitionOffset & { metadata?: string }>): Promise<void> {
    const consumer = this.#requireConsumer('commit')
    if (offsets.length === 0) return
    try {
      await consumer.commitOffsets(offsets.map(o => ({
        topic: o.topic,
        partition: o.partition,
        offset: String(o.offset),
        ...(o.metadata === undefined ? {} : { metadata: o.metadata })
      })))
    } catch (error) {
      throw toStreamsError(error, `Offset commit of group ${this.#groupId}`, GROUP_MIGRATED_TYPES)
    }
  }

  async committed (partitions: readonly TopicPartition[]): Promise<Map<string, { offset: number, metadata: string | undefined }>> {
    this.#requireConsumer('committed')
    if (partitions.length === 0) return new Map()
    try {
      this.#admin ??= this.#kafka.admin()
      await this.#admin.connect()
      return await fetchCommittedOffsets(this.#admin, this.#groupId, partitions)
    } catch (error) {
      throw toStreamsError(error, `Fetching committed offsets of group ${this.#groupId}`)
    }
  }

  requestRebalance (): void {
    const consumer = this.#requireConsumer('requestRebalance')
    this.#rejoinRequested = true
    consumer.requestRejoin()
  }

  async stop (options: { leaveGroup: boolean }): Promise<void> {
    if (this.#stopped !== undefined) return await this.#stopped
    if (this.#state === 'created') {
      this.#transition('stopped')
      return
    }
    this.#transition('stopping')
    this.#stopped = this.#stop(options.leaveGroup)
    await this.#stopped
  }

  async #stop (leaveGroup: boolean): Promise<void> {
    const errors: unknown[] = []
    await this.#dispatcher?.close()
    try {
      await this.#consumer?.disconnect({ leaveGroup })
    } catch (error) {
      errors.push(error)
    }
    await this.#dispatcher?.drain()
    try {
      await this.#admin?.disconnect()
    } catch (error) {
      errors.push(error)
    }
    this.#memberId = undefined
    this.#transition('stopped')
    if (errors.length > 0) this.#logger.warn(`Group consumer ${this.#groupId}: error while stopping`, { error: errors[0] })
  }

  async #onRevoked (revoked: TopicPartition[]): Promise<void> {
    this.#rejoinRequested = false
    const dispatcher = this.#dispatcher!
    const paused = await dispatcher.revoked(revoked)
    if (paused.length > 0 && this.#consumer !== undefined) this.#consumer.resume(groupByTopic(paused))
  }

  async #eachBatch (payload: EachBatchPayload, dispatcher: GroupHandlerDispatcher): Promise<void> {
    if (!dispatcher.active) return
    const { batch } = payload
    const tp = { topic: batch.topic, partition: batch.partition }
    const internals = batch as unknown as BatchInternals
    const nextOffset = nextOffsetAfter(internals.rawMessages, Number(internals.fetchedOffset))
    // kafkajs heartbeats only between batches; keep the session alive while this one waits and runs.
    const keepAlive = setInterval(() => {
      if (!this.#rejoinRequested) payload.heartbeat().catch(() => undefined)
    }, this.#config.heartbeatIntervalMs)
    try {
      const delivered = await dispatcher.batch(tp, () => payload.isRunning() && !payload.isStale(), (): FetchedBatch => ({
        topic: batch.topic,
        partition: batch.partition,
        records: batch.messages.map(m => toFetchedRecord(batch.topic, batch.partition, m as unknown as RawMessage)),
        highWatermark: this.#endOffset(batch.highWatermark, internals.lastStableOffset),
        nextOffset
      }))
      if (delivered) payload.resolveOffset(String(nextOffset - 1))
    } finally {
      clearInterval(keepAlive)
    }
  }

  /**
   * kafkajs skips eachBatch for a batch of only control records or aborted data (and moves the
   * position past it itself); report it as an empty batch so the runtime learns the position.
   */
  #onBatchProcessed (event: { topic: string, partition: number, batchSize: number, lastOffset: string, highWatermark: string, lastStableOffset?: string }, dispatcher: GroupHandlerDispatcher): void {
    if (event.batchSize !== 0 || !dispatcher.active) return
    const tp = { topic: event.topic, partition: event.partition }
    void dispatcher.batch(tp, () => true, () => ({
      ...tp,
      records: [],
      highWatermark: this.#endOffset(event.highWatermark, event.lastStableOffset),
      nextOffset: Number(event.lastOffset) + 1
    }))
  }

  /** The end offset as this member's isolation level sees it (Java's currentLag reference). */
  #endOffset (highWatermark: string, lastStableOffset: string | undefined): number {
    const lso = Number(lastStableOffset ?? -1)
    return this.#config.groupReadCommitted && lso >= 0 ? lso : Number(highWatermark)
  }

  #onCrash (error: Error, restart: boolean): void {
    if (this.#state !== 'starting' && this.#state !== 'running') return
    this.#memberId = undefined
    const dispatcher = this.#dispatcher!
    this.#logger.error(`Group consumer ${this.#groupId} crashed${restart ? ', kafkajs restarts it' : ''}`, { error })
    // Set now: consumer.run() inside start() resolves right after this event.
    if (!restart && this.#state === 'starting') this.#startError ??= error
    void dispatcher.lost().then(() => {
      if (!restart && this.#state === 'running') dispatcher.fail(toStreamsError(error, `Group consumer ${this.#groupId}`))
    })
  }

  #onFailure (error: unknown, handlers: GroupConsumerHandlers): void {
    if (this.#state === 'starting') {
      this.#startError ??= error
      return
    }
    if (this.#state !== 'running') return
    this.#transition('failed')
    // Stop fetching what nobody will process; the runtime calls stop().
    try {
      const topics = [...new Set(this.#dispatcher!.assignment().map(tp => tp.topic))]
      if (topics.length > 0) this.#consumer!.pause(topics.map(topic => ({ topic })))
    } catch {}
    try {
      handlers.onFatal(error instanceof Error ? error : new StreamsError('KAFKA', String(error), { cause: error }))
    } catch (e) {
      this.#logger.error(`Group consumer ${this.#groupId}: onFatal threw`, { error: e })
    }
  }

  #assignedOnly (partitions: readonly TopicPartition[], what: string): GroupHandlerDispatcher {
    this.#requireConsumer(what)
    const dispatcher = this.#dispatcher!
    for (const tp of partitions) {
      if (!dispatcher.isAssigned(tp)) throw new IllegalStateError(`${what}(): ${tp.topic}-${tp.partition} is not assigned to this member`)
    }
    return dispatcher
  }

  #requireConsumer (what: string): Consumer {
    if ((this.#state !== 'starting' && this.#state !== 'running') || this.#consumer === undefined) {
      throw new IllegalStateError(`${what}() on group consumer ${this.#groupId} in state ${this.#state}`)
    }
    return this.#consumer
  }

  #transition (to: State): void {
    if (!TRANSITIONS[this.#state].includes(to)) {
      throw new IllegalStateError(`Group consumer ${this.#groupId}: invalid transition ${this.#state} -> ${to}`)
    }
    this.#state = to
  }
}
