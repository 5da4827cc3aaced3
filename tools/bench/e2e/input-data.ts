/**
 * The bench's input: a deterministic vocabulary of words and the two input topics it writes once
 * per run, untimed. "bytes" records have a word as key and a ~100-byte value; "words" records
 * have the same word as key and value (WordCount-shaped). Each record goes to the partition the
 * Java default partitioner (murmur2) picks for its key, so a keyed sink writes it back to the
 * same partition number.
 */
import type { Kafka } from 'kafkajs'
import { partitionFor } from '@kstreams/core'

export type InputKind = 'bytes' | 'words'

/** Length of the values of the "bytes" input. */
export const VALUE_BYTES = 100

/** xorshift32: the same sequence on every run. */
export function xorshift(seed: number): () => number {
  let x = seed | 0
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

/** Distinct lower-case words of 3 to 10 letters. */
export function makeVocabulary(size: number, random: () => number): string[] {
  const words = new Set<string>()
  while (words.size < size) {
    const length = 3 + Math.floor(random() * 8)
    let word = ''
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(random() * 26))
    words.add(word)
  }
  return [...words]
}

export interface ProduceInputOptions {
  readonly kafka: Kafka
  readonly topic: string
  readonly kind: InputKind
  readonly records: number
  readonly partitions: number
  readonly vocabulary: readonly string[]
  readonly seed: number
}

const CHUNK = 10_000
const CONCURRENT_CHUNKS = 3
const FILLER = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(4)

interface Message {
  key: Buffer
  value: Buffer
  partition: number
  timestamp: string
}

/** Writes `records` records to `topic` (acks -1), CONCURRENT_CHUNKS batches of CHUNK in flight. */
export async function produceInput(options: ProduceInputOptions): Promise<void> {
  const { kafka, topic, kind, records, partitions, vocabulary } = options
  const random = xorshift(options.seed)
  const keys = vocabulary.map(w => Buffer.from(w))
  const keyPartitions = keys.map(k => partitionFor(k, partitions))
  const producer = kafka.producer({ allowAutoTopicCreation: false })
  await producer.connect()
  try {
    let next = 0
    const chunk = (): Message[] => {
      const end = Math.min(records, next + CHUNK)
      const timestamp = String(Date.now())
      const messages: Message[] = []
      for (; next < end; next++) {
        const w = Math.floor(random() * vocabulary.length)
        const value = kind === 'words' ? keys[w]! : Buffer.from(`${vocabulary[w]!}:${next}:${FILLER}`.slice(0, VALUE_BYTES))
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
