/**
 * The data work of `bench:java` around the timed runs: writing the changelog a restore run
 * restores (the same records for every contender), and reading a count topic back to check it.
 */
import type { Kafka } from 'kafkajs'
import { partitionFor } from '@kstreams/core'
import { xorshift } from './input-data.js'

const CHUNK = 10_000
const CONCURRENT_CHUNKS = 3
const READ_TIMEOUT_MS = 300_000

export interface ChangelogOptions {
  readonly kafka: Kafka
  readonly topic: string
  readonly records: number
  readonly partitions: number
  readonly vocabulary: readonly string[]
  /** The seed of the words input (input-data.ts), so the changelog is what counting it would log. */
  readonly seed: number
}

/**
 * Writes the changelog of the count-papi store as counting the words input would: one record per
 * input record, key the word (String serde), value its running count (Long serde: 8 bytes, big
 * endian), in the partition of the word (murmur2, as the input). kafkajs sendBatch of CHUNK
 * records (CONCURRENT_CHUNKS in flight, acks -1), so the batches are the same for every run.
 */
export async function writeChangelog(options: ChangelogOptions): Promise<void> {
  const { kafka, topic, records, partitions, vocabulary } = options
  const random = xorshift(options.seed)
  const keys = vocabulary.map(w => Buffer.from(w))
  const keyPartitions = keys.map(k => partitionFor(k, partitions))
  const counts = new Array<number>(vocabulary.length).fill(0)
  const producer = kafka.producer({ allowAutoTopicCreation: false })
  await producer.connect()
  try {
    let next = 0
    const chunk = (): { key: Buffer; value: Buffer; partition: number; timestamp: string }[] => {
      const end = Math.min(records, next + CHUNK)
      const timestamp = String(Date.now())
      const messages = []
      for (; next < end; next++) {
        const w = Math.floor(random() * vocabulary.length)
        const value = Buffer.alloc(8)
        value.writeBigInt64BE(BigInt(++counts[w]!))
        messages.push({ key: keys[w]!, value, partition: keyPartitions[w]!, timestamp })
      }
      return messages
    }
    const worker = async (): Promise<void> => {
      while (next < records) await producer.sendBatch({ topicMessages: [{ topic, messages: chunk() }], acks: -1 })
    }
    await Promise.all(Array.from({ length: CONCURRENT_CHUNKS }, worker))
  } finally {
    await producer.disconnect()
  }
}

/**
 * Reads a (String word, Long count) topic from the beginning to its current end and returns the
 * sum over the words of the last count seen: the number of input records counted, when the
 * output is complete. `groupId` is a fresh consumer group (deleted by the caller).
 */
export async function sumOfLastCounts(kafka: Kafka, topic: string, groupId: string): Promise<number> {
  const admin = kafka.admin()
  await admin.connect()
  let ends: Map<number, number>
  try {
    ends = new Map((await admin.fetchTopicOffsets(topic)).map(p => [p.partition, Number(p.high)]))
  } finally {
    await admin.disconnect()
  }
  const positions = new Map([...ends.keys()].map(partition => [partition, 0]))
  const last = new Map<string, bigint>()
  const done = (): boolean => [...ends].every(([partition, end]) => positions.get(partition)! >= end)
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 })
  try {
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await new Promise<void>((resolve, reject) => {
      if (done()) {
        resolve()
        return
      }
      const timer = setTimeout(() => {
        reject(new Error(`reading ${topic} took more than ${READ_TIMEOUT_MS} ms`))
      }, READ_TIMEOUT_MS)
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            for (const m of batch.messages) {
              if (m.key !== null && m.value !== null && m.value.length === 8) last.set(m.key.toString('utf8'), m.value.readBigInt64BE())
            }
            positions.set(batch.partition, Number(batch.lastOffset()) + 1)
            if (done()) {
              clearTimeout(timer)
              resolve()
            }
          }
        })
        .catch(reject)
    })
  } finally {
    await consumer.disconnect()
  }
  let sum = 0n
  for (const count of last.values()) sum += count
  return Number(sum)
}
