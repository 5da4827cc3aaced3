/**
 * The three contenders, as run inside a pipeline worker process: the raw kafkajs loop (consume a
 * batch, send it unchanged to the same partition of the output topic), and two kstreams
 * applications on KafkaStreams: (a) source -> sink of the raw bytes, (b) WordCount-shaped
 * source -> count in a RocksDB store with its changelog -> sink of (word, count). Each start
 * function returns a handle whose stop() commits and closes like a clean shutdown.
 */
import { Kafka, logLevel, Partitioners, type EachBatchPayload } from 'kafkajs'
import { KafkaStreams, Record, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, Processor, ProcessorContext } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { RocksDBStores } from '@kstreams/rocksdb'
import { kafkajs } from '@kstreams/kafkajs'

export type PipelineKind = 'baseline' | 'passthrough' | 'count'

export interface PipelineSpec {
  readonly pipeline: PipelineKind
  readonly bootstrapServers: string
  readonly inputTopic: string
  readonly outputTopic: string
  /** Group id of the baseline, application id of kstreams. */
  readonly groupId: string
  readonly stateDir: string
  readonly commitIntervalMs: number
  /**
   * max.message.bytes of the changelog topic (a store logging override), 0 for the broker
   * default. The bench raises it (and that of the output topics it creates) because the runtime's
   * record collector sends everything it buffered during the previous send as one record batch
   * per partition, which outgrows the default 1 MB (MESSAGE_TOO_LARGE).
   */
  readonly maxMessageBytes: number
  /**
   * Baseline only: most messages per sendBatch (a fetched batch goes out in slices, in order),
   * 0 for the whole batch at once. kafkajs groups a send's messages by partition in O(n^2), so
   * sending a 1 MB fetch of small records at once costs seconds.
   */
  readonly baselineSlice: number
}

export interface RunningPipeline {
  /** Commits (kstreams: a clean close; baseline: the consumed offsets) and disconnects. */
  stop: () => Promise<void>
}

export const STORE_NAME = 'Counts'

/** Starts a contender; `onFailure` hears of an error that stops it while it runs. */
export async function startPipeline (spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  return spec.pipeline === 'baseline' ? await startBaseline(spec, onFailure) : await startStreams(spec, onFailure)
}

/**
 * The raw loop: eachBatch -> producer.sendBatch of the same keys, values and timestamps to the
 * same partition (in slices of baselineSlice messages), awaited before the next batch. Client settings mirror the kstreams kafkajs
 * adapter (fetch sizes and wait, read_committed, idempotent producer with one request in flight,
 * acks -1). Offsets are committed every commitIntervalMs (checked after each batch) and at stop.
 */
async function startBaseline (spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  const kafka = new Kafka({ clientId: spec.groupId, brokers: spec.bootstrapServers.split(','), logLevel: logLevel.NOTHING })
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false, createPartitioner: Partitioners.DefaultPartitioner })
  const consumer = kafka.consumer({
    groupId: spec.groupId,
    sessionTimeout: 45_000,
    heartbeatInterval: 3000,
    rebalanceTimeout: 300_000,
    maxWaitTimeInMs: 500,
    maxBytes: 52_428_800,
    maxBytesPerPartition: 1_048_576,
    allowAutoTopicCreation: false
  })
  consumer.on(consumer.events.CRASH, event => { if (!event.payload.restart) onFailure(event.payload.error) })
  const positions = new Map<number, string>()
  let lastCommit = Date.now()
  const commit = async (): Promise<void> => {
    lastCommit = Date.now()
    if (positions.size === 0) return
    await consumer.commitOffsets([...positions].map(([partition, offset]) => ({ topic: spec.inputTopic, partition, offset })))
  }
  await producer.connect()
  await consumer.connect()
  await consumer.subscribe({ topics: [spec.inputTopic], fromBeginning: true })
  const forward = async ({ batch }: EachBatchPayload): Promise<void> => {
    if (batch.messages.length === 0) return
    const partition = batch.partition
    const messages = batch.messages.map(m => ({ key: m.key, value: m.value, partition, timestamp: m.timestamp }))
    const slice = spec.baselineSlice > 0 ? spec.baselineSlice : messages.length
    for (let i = 0; i < messages.length; i += slice) {
      await producer.sendBatch({ topicMessages: [{ topic: spec.outputTopic, messages: messages.slice(i, i + slice) }], acks: -1 })
    }
    positions.set(partition, String(Number(batch.lastOffset()) + 1))
    if (Date.now() - lastCommit >= spec.commitIntervalMs) await commit()
  }
  let inflight: Promise<void> = Promise.resolve()
  await consumer.run({
    autoCommit: false,
    partitionsConsumedConcurrently: 1,
    eachBatch: async payload => { inflight = forward(payload); await inflight }
  })
  return {
    // Pause, let the batch in hand finish, commit while still a member, then leave.
    stop: async () => {
      consumer.pause([{ topic: spec.inputTopic }])
      await inflight.catch(() => undefined)
      await commit()
      await consumer.disconnect()
      await producer.disconnect()
    }
  }
}

async function startStreams (spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  const topology = spec.pipeline === 'passthrough' ? passThroughTopology(spec) : countTopology(spec, spec.maxMessageBytes)
  const streams = new KafkaStreams(topology, {
    applicationId: spec.groupId,
    bootstrapServers: spec.bootstrapServers,
    stateDir: spec.stateDir,
    commitIntervalMs: spec.commitIntervalMs
  }, { client: kafkajs() })
  streams.setUncaughtExceptionHandler(error => { onFailure(error); return 'SHUTDOWN_CLIENT' })
  await streams.start()
  return { stop: async () => { await streams.close() } }
}

/** (a) Bytes in, the same bytes out. */
export function passThroughTopology (spec: Pick<PipelineSpec, 'inputTopic' | 'outputTopic'>): Topology {
  const bytes = Serdes.ByteArray()
  return new Topology()
    .addSource('Source', spec.inputTopic, { keyDeserializer: bytes, valueDeserializer: bytes })
    .addSink('Sink', spec.outputTopic, { keySerializer: bytes, valueSerializer: bytes }, 'Source')
}

/** (b) WordCount's counting half: (word, word) in, (word, count) out, one update per record. */
export function countTopology (spec: Pick<PipelineSpec, 'inputTopic' | 'outputTopic'>, maxMessageBytes: number): Topology {
  const S = Serdes.String()
  const store = Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore(STORE_NAME), S, Serdes.Long())
  if (maxMessageBytes > 0) store.withLoggingEnabled({ 'max.message.bytes': String(maxMessageBytes) })
  return new Topology()
    .addSource('Words', spec.inputTopic, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountProcessor(), 'Words')
    .addStateStore(store, 'Count')
    .addSink('Counts', spec.outputTopic, { keySerializer: S, valueSerializer: Serdes.Long() }, 'Count')
}

class CountProcessor implements Processor<string, string, string, number> {
  #context!: ProcessorContext<string, number>
  #store!: KeyValueStore<string, number>

  init (context: ProcessorContext<string, number>): void {
    this.#context = context
    this.#store = context.getStateStore<KeyValueStore<string, number>>(STORE_NAME)
  }

  process (record: Record<string, string>): void {
    const count = (this.#store.get(record.key) ?? 0) + 1
    this.#store.put(record.key, count)
    this.#context.forward(record.withValue(count))
  }
}
