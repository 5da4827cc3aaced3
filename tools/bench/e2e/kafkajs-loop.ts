/**
 * The raw kafkajs baseline of the e2e bench: a consume -> produce loop doing no processing.
 * eachBatch -> producer.sendBatch of the same keys, values and timestamps to the same partition
 * of the output topic (in slices of baselineSlice messages), awaited before the next batch.
 * Client settings mirror the kstreams kafkajs adapter (fetch sizes and wait, read_committed,
 * idempotent producer with one request in flight, acks -1). Offsets are committed every
 * commitIntervalMs (checked after each batch) and at stop.
 */
import { Kafka, logLevel, Partitioners, type EachBatchPayload } from 'kafkajs'
import type { PipelineSpec, RunningPipeline } from './pipelines.js'

export async function startKafkajsLoop(spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  const kafka = new Kafka({ clientId: spec.groupId, brokers: spec.bootstrapServers.split(','), logLevel: logLevel.NOTHING })
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner
  })
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
    if (!event.payload.restart) onFailure(event.payload.error)
  })
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
    eachBatch: async payload => {
      inflight = forward(payload)
      await inflight
    }
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
