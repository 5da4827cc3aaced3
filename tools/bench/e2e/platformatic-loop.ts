/**
 * The raw @platformatic/kafka baseline of the e2e bench: the kafkajs loop's shape on
 * platformatic's public Consumer and Producer, doing no processing. The consumer's messages
 * stream is read in paused mode: on 'readable' everything buffered (what the fetches so far
 * returned, all partitions) is taken as one batch and sent with producer.send (same keys,
 * values, timestamps and partition numbers, in slices of baselineSlice messages), awaited before
 * the next batch; the stream keeps fetching meanwhile, as kafkajs prefetches. Client settings as
 * the kafkajs loop's: fetch max 50 MB / 1 MB per partition / 500 ms wait, read_committed,
 * idempotent producer (platformatic then forces one request in flight and acks all; acks -1 is
 * also set explicitly). Offsets are committed every commitIntervalMs (checked after each batch)
 * and at stop. Uses platformatic's promise API, so it needs Node >= 22 (Promise.withResolvers).
 */
import {
  Consumer,
  FetchIsolationLevels,
  MessagesStreamFallbackModes,
  MessagesStreamModes,
  ProduceAcks,
  Producer,
  type Message,
  type MessageToProduce
} from '@platformatic/kafka'
import type { PipelineSpec, RunningPipeline } from './pipelines.js'

interface Position {
  readonly offset: bigint
  readonly leaderEpoch: number
}

export async function startPlatformaticLoop(spec: PipelineSpec, onFailure: (error: unknown) => void): Promise<RunningPipeline> {
  const bootstrapBrokers = spec.bootstrapServers.split(',')
  const producer = new Producer({
    clientId: spec.groupId,
    bootstrapBrokers,
    idempotent: true,
    acks: ProduceAcks.ALL,
    autocreateTopics: false
  })
  const consumer = new Consumer({
    clientId: spec.groupId,
    groupId: spec.groupId,
    bootstrapBrokers,
    sessionTimeout: 45_000,
    heartbeatInterval: 3000,
    rebalanceTimeout: 300_000,
    minBytes: 1,
    maxWaitTime: 500,
    maxBytes: 52_428_800,
    maxBytesPerPartition: 1_048_576,
    isolationLevel: FetchIsolationLevels.READ_COMMITTED,
    autocommit: false
  })
  const positions = new Map<number, Position>()
  let lastCommit = Date.now()
  const commit = async (): Promise<void> => {
    lastCommit = Date.now()
    if (positions.size === 0) return
    await consumer.commit({
      offsets: [...positions].map(([partition, p]) => ({ topic: spec.inputTopic, partition, offset: p.offset, leaderEpoch: p.leaderEpoch }))
    })
  }
  const forward = async (batch: readonly Message[]): Promise<void> => {
    const messages = batch.map(
      (m): MessageToProduce => ({ topic: spec.outputTopic, key: m.key, value: m.value, partition: m.partition, timestamp: m.timestamp })
    )
    const slice = spec.baselineSlice > 0 ? spec.baselineSlice : messages.length
    for (let i = 0; i < messages.length; i += slice) {
      await producer.send({ messages: messages.slice(i, i + slice) })
    }
    for (const m of batch) positions.set(m.partition, { offset: m.offset + 1n, leaderEpoch: m.leaderEpoch })
    if (Date.now() - lastCommit >= spec.commitIntervalMs) await commit()
  }

  const stream = await consumer.consume({
    topics: [spec.inputTopic],
    mode: MessagesStreamModes.COMMITTED,
    fallbackMode: MessagesStreamFallbackModes.EARLIEST
  })
  stream.on('error', onFailure)
  let stopping = false
  let pumping = false
  let inflight: Promise<void> = Promise.resolve()
  /** Takes whatever the stream holds as one batch and forwards it, until the stream is empty. */
  const pump = async (): Promise<void> => {
    while (!stopping) {
      const batch: Message[] = []
      for (let m: Message | null = stream.read(); m !== null; m = stream.read()) batch.push(m)
      if (batch.length === 0) return
      await forward(batch)
    }
  }
  stream.on('readable', () => {
    if (pumping || stopping) return
    pumping = true
    inflight = pump()
      .catch(onFailure)
      .finally(() => {
        pumping = false
      })
  })
  return {
    // Stop fetching, let the batch in hand finish, commit while still a member, then leave.
    stop: async () => {
      stopping = true
      stream.pause()
      await inflight
      await commit()
      await stream.close()
      await consumer.close()
      await producer.close()
    }
  }
}
