/**
 * The kstreams side of the workloads `bench:java` runs that the e2e pipelines (pipelines.ts) do
 * not have, written as tools/bench/java/KStreamsBench.java writes them for Kafka Streams:
 *   count-dsl: stream.peek(count processed).groupByKey().count(Materialized.as('Counts'))
 *       .toStream().to(output) with RocksDBDslStoreSuppliers and the default record cache; says
 *       when the peek (just before the count) has seen the target number of records, since the
 *       cache holds the output back until a commit.
 *   restore: the count-papi topology (pipelines.ts countTopology) on an empty input topic with an
 *       empty state directory while its changelog holds the target number of records; says when
 *       the instance is RUNNING and onRestoreEnd has counted them all.
 *   raw read (the restore row's raw kafkajs baseline): a kafkajs consumer reading that changelog
 *       from the beginning, doing nothing with the records, until it has read them all.
 * Each start function returns a handle whose stop() closes cleanly.
 */
import { KafkaStreams, Serdes } from '@kstreams/core'
import { Consumed, Grouped, Materialized, Produced, StreamsBuilder } from '@kstreams/dsl'
import { RocksDBDslStoreSuppliers } from '@kstreams/rocksdb'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { Kafka, logLevel } from 'kafkajs'
import { countTopology, pipelineAppModule, STORE_NAME, type ClientKind, type PipelineSpec, type RunningPipeline } from './pipelines.js'

/** What a workload tells the bench besides start and stop (the "first" and end-of-run events). */
export interface WorkloadEvents {
  /** count-dsl: first record processed; restore: first onRestoreStart (raw read: the group join, its assignment). */
  first: () => void
  /** count-dsl, restore: half the target processed / restored (onBatchRestored), raw read: read. */
  half: (records: number) => void
  /** count-dsl: the target number of records processed. */
  processed: (records: number) => void
  /** restore: RUNNING, with this many records restored. */
  restored: (records: number) => void
  failed: (error: unknown) => void
}

export type WorkloadSpec = Pick<
  PipelineSpec,
  'client' | 'bootstrapServers' | 'inputTopic' | 'outputTopic' | 'groupId' | 'stateDir' | 'commitIntervalMs' | 'maxMessageBytes'
> & {
  /** Records that end the timed part. */
  readonly records: number
  /** Stream threads; above 1, each on its own worker thread (KafkaStreams.onWorkerThreads; not count-dsl). */
  readonly threads: number
}

/** The half-way mark of a run (the bench also times the second half: a warmed-up rate). */
export const halfOf = (records: number): number => Math.floor((records + 1) / 2)

function newStreams(
  spec: WorkloadSpec,
  topology: ConstructorParameters<typeof KafkaStreams>[0],
  client: ClientKind,
  events: WorkloadEvents
): KafkaStreams {
  const streams = new KafkaStreams(
    topology,
    {
      applicationId: spec.groupId,
      bootstrapServers: spec.bootstrapServers,
      stateDir: spec.stateDir,
      commitIntervalMs: spec.commitIntervalMs
    },
    { client: client === 'kafkajs' ? kafkajs() : platformatic() }
  )
  streams.setUncaughtExceptionHandler(error => {
    events.failed(error)
    return 'SHUTDOWN_CLIENT'
  })
  return streams
}

/** The count pipeline's application with its stream threads on worker threads. */
async function onWorkerThreads(spec: WorkloadSpec, events: WorkloadEvents): Promise<KafkaStreams> {
  const streams = await KafkaStreams.onWorkerThreads(
    pipelineAppModule({ ...spec, pipeline: 'count', processingGuarantee: 'at_least_once', baselineSlice: 0 })
  )
  streams.setUncaughtExceptionHandler(error => {
    events.failed(error)
    return 'SHUTDOWN_CLIENT'
  })
  return streams
}

export async function startCountDsl(spec: WorkloadSpec, events: WorkloadEvents): Promise<RunningPipeline> {
  if (spec.threads > 1) throw new Error('count-dsl runs kstreams on one thread only: its progress comes from a peek on the main thread')
  const S = Serdes.String()
  const builder = new StreamsBuilder({ dslStoreSuppliers: RocksDBDslStoreSuppliers })
  let processed = 0
  const target = spec.records
  let store = Materialized.as<string, number>(STORE_NAME)
  if (spec.maxMessageBytes > 0) store = store.withLoggingEnabled({ 'max.message.bytes': String(spec.maxMessageBytes) })
  builder
    .stream(spec.inputTopic, Consumed.with(S, S))
    .peek(() => {
      const n = ++processed
      if (n === 1) events.first()
      if (n === halfOf(target)) events.half(n)
      if (n === target) events.processed(n)
    })
    .groupByKey(Grouped.with(S, S))
    .count(store)
    .toStream()
    .to(spec.outputTopic, Produced.with(S, Serdes.Long()))
  const streams = newStreams(spec, builder.build(), spec.client, events)
  await streams.start()
  return {
    stop: async () => {
      await streams.close()
    }
  }
}

export async function startRestore(spec: WorkloadSpec, events: WorkloadEvents): Promise<RunningPipeline> {
  const streams =
    spec.threads > 1
      ? await onWorkerThreads(spec, events)
      : newStreams(spec, countTopology(spec, spec.maxMessageBytes), spec.client, events)
  let restored = 0
  let batchesRestored = 0
  let running = false
  let first = false
  let reported = false
  const check = (): void => {
    if (running && restored >= spec.records && !reported) {
      reported = true
      events.restored(restored)
    }
  }
  streams.setGlobalStateRestoreListener({
    onRestoreStart: () => {
      if (first) return
      first = true
      events.first()
    },
    onBatchRestored: (_partition, _store, _batchEndOffset, numRestored) => {
      const before = batchesRestored
      batchesRestored += numRestored
      if (before < halfOf(spec.records) && batchesRestored >= halfOf(spec.records)) events.half(batchesRestored)
    },
    onRestoreEnd: (_partition, _store, totalRestored) => {
      restored += totalRestored
      check()
    },
    // With several stream threads a rebalance can suspend a restore; it goes on from its checkpoint.
    onRestoreSuspended: (_partition, _store, totalRestored) => {
      restored += totalRestored
    }
  })
  streams.setStateListener(state => {
    running = state === 'RUNNING'
    check()
  })
  await streams.start()
  return {
    stop: async () => {
      await streams.close()
    }
  }
}

/** The restore row's raw baseline: read the changelog (spec.inputTopic) once, from the beginning. */
export async function startRawRead(spec: WorkloadSpec, events: WorkloadEvents): Promise<RunningPipeline> {
  const kafka = new Kafka({ clientId: spec.groupId, brokers: spec.bootstrapServers.split(','), logLevel: logLevel.NOTHING })
  // The kafkajs loop's consumer settings (kafkajs-loop.ts); nothing is committed.
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
  consumer.on(consumer.events.CRASH, event => {
    if (!event.payload.restart) events.failed(event.payload.error)
  })
  consumer.on(consumer.events.GROUP_JOIN, () => {
    events.first()
  })
  let read = 0
  await consumer.connect()
  await consumer.subscribe({ topics: [spec.inputTopic], fromBeginning: true })
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      const before = read
      read += batch.messages.length
      if (before < halfOf(spec.records) && read >= halfOf(spec.records)) events.half(read)
      if (before < spec.records && read >= spec.records) events.restored(read)
    }
  })
  return {
    stop: async () => {
      await consumer.disconnect()
    }
  }
}
