/**
 * The pipelines, as run inside a pipeline worker process, each on either Kafka client: the raw
 * loop (consume a batch, send it unchanged to the same partition of the output topic;
 * kafkajs-loop.ts, platformatic-loop.ts), and two kstreams applications on KafkaStreams with the
 * client's adapter: (a) source -> sink of the raw bytes, (b) WordCount-shaped source -> count in
 * a RocksDB store with its changelog -> sink of (word, count). Each start function returns a
 * handle whose stop() commits and closes like a clean shutdown.
 */
import { consoleLogger, KafkaStreams, type Record, Serdes, Topology } from '@kstreams/core'
import type { KeyValueStore, ProcessingGuarantee, Processor, ProcessorContext, StreamsApp } from '@kstreams/core'
import { Stores } from '@kstreams/stores'
import { RocksDBStores } from '@kstreams/rocksdb'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { startKafkajsLoop } from './kafkajs-loop.js'
import { startPlatformaticLoop } from './platformatic-loop.js'

export type PipelineKind = 'baseline' | 'passthrough' | 'count'
/** The Kafka client: of the raw loop, or the adapter kstreams runs on. */
export type ClientKind = 'kafkajs' | 'platformatic'

export interface PipelineSpec {
  readonly pipeline: PipelineKind
  readonly client: ClientKind
  /** kstreams only (the raw loops commit offsets after sending, at least once). */
  readonly processingGuarantee: ProcessingGuarantee
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
   * Raw loops only: most messages per send (kafkajs sendBatch, platformatic send; a fetched
   * batch goes out in slices, in order), 0 for the whole batch at once. kafkajs groups a send's
   * messages by partition in O(n^2), so sending a 1 MB fetch of small records at once costs
   * seconds; the platformatic loop slices the same way so that both loops have one shape.
   */
  readonly baselineSlice: number
  /**
   * kstreams only: stream threads (numStreamThreads); above 1, each on its own worker thread
   * (KafkaStreams.onWorkerThreads).
   */
  readonly threads: number
}

export interface RunningPipeline {
  /** Commits (kstreams: a clean close; baseline: the consumed offsets) and disconnects. */
  stop: () => Promise<void>
}

export const STORE_NAME = 'Counts'

/** Starts a contender; `onFailure` hears of an error that stops it while it runs. */
export async function startPipeline(spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  if (spec.pipeline !== 'baseline') return await startStreams(spec, onFailure)
  return spec.client === 'kafkajs' ? await startKafkajsLoop(spec, onFailure) : await startPlatformaticLoop(spec, onFailure)
}

async function startStreams(spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  const streams =
    spec.threads > 1
      ? await KafkaStreams.onWorkerThreads(pipelineAppModule(spec))
      : new KafkaStreams(pipelineApp(spec).topology, pipelineApp(spec).config, pipelineApp(spec).options)
  streams.setUncaughtExceptionHandler(error => {
    onFailure(error)
    return 'SHUTDOWN_CLIENT'
  })
  await streams.start()
  return {
    stop: async () => {
      await streams.close()
    }
  }
}

/** A kstreams pipeline as an application (KafkaStreams.onWorkerThreads builds it on every worker from pipeline-app.ts). */
export function pipelineApp(spec: PipelineSpec): StreamsApp {
  return {
    topology: spec.pipeline === 'passthrough' ? passThroughTopology(spec) : countTopology(spec, spec.maxMessageBytes),
    config: {
      applicationId: spec.groupId,
      bootstrapServers: spec.bootstrapServers,
      stateDir: spec.stateDir,
      commitIntervalMs: spec.commitIntervalMs,
      processingGuarantee: spec.processingGuarantee,
      numStreamThreads: spec.threads
    },
    options: {
      client: spec.client === 'kafkajs' ? kafkajs() : platformatic(),
      // BENCH_LOG_LEVEL=info (or debug): kstreams' log on stderr, to see what a slow run did.
      ...(process.env.BENCH_LOG_LEVEL === undefined ? {} : { logger: consoleLogger(process.env.BENCH_LOG_LEVEL as 'info') })
    }
  }
}

/** The module URL of pipeline-app.ts for `spec` (its `spec` query parameter). */
export function pipelineAppModule(spec: PipelineSpec): URL {
  const url = new URL(`./pipeline-app${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)
  url.searchParams.set('spec', JSON.stringify(spec))
  return url
}

/** (a) Bytes in, the same bytes out. */
export function passThroughTopology(spec: Pick<PipelineSpec, 'inputTopic' | 'outputTopic'>): Topology {
  const bytes = Serdes.ByteArray()
  return new Topology()
    .addSource('Source', spec.inputTopic, { keyDeserializer: bytes, valueDeserializer: bytes })
    .addSink('Sink', spec.outputTopic, { keySerializer: bytes, valueSerializer: bytes }, 'Source')
}

/** (b) WordCount's counting half: (word, word) in, (word, count) out, one update per record. */
export function countTopology(spec: Pick<PipelineSpec, 'inputTopic' | 'outputTopic'>, maxMessageBytes: number): Topology {
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

  init(context: ProcessorContext<string, number>): void {
    this.#context = context
    this.#store = context.getStateStore<KeyValueStore<string, number>>(STORE_NAME)
  }

  process(record: Record<string, string>): void {
    const count = (this.#store.get(record.key) ?? 0) + 1
    this.#store.put(record.key, count)
    this.#context.forward(record.withValue(count))
  }
}
