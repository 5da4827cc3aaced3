/**
 * Kafka's ConsumerProtocol envelopes, the bytes a consumer group's members exchange through
 * JoinGroup (subscription: topics + userData) and SyncGroup (assignment: partitions + userData),
 * as Java's ConsumerProtocol writes them. We write version 0 (what every reader accepts: kstreams
 * members rebalance eagerly and own nothing when they join) and read versions 0 to 3: the owned
 * partitions of cooperative (Java) members from version 1; their generation and rack, and any
 * bytes after the fields we know, are ignored, as Java's reader does. @internal
 */
import { ByteReader } from '../assignment/byte-reader.js'
import { ByteWriter } from '../assignment/byte-writer.js'
import type { TopicPartition } from '../kafka/ports.js'
import type { MemberAssignment } from './consumer-api.js'

const WRITE_VERSION = 0
const EMPTY = Buffer.alloc(0)

export interface Subscription {
  readonly topics: readonly string[]
  readonly userData: Buffer
  /** Partitions a cooperative member still owns (version 1+); empty for eager members. */
  readonly ownedPartitions?: readonly TopicPartition[]
}

export function encodeSubscription(subscription: Subscription): Buffer {
  const w = new ByteWriter().uint16(WRITE_VERSION).uint32(subscription.topics.length)
  for (const topic of subscription.topics) w.string16(topic)
  return writeBytes(w, subscription.userData).toBuffer()
}

export function decodeSubscription(bytes: Buffer): Subscription {
  const r = new ByteReader(bytes, 'consumer protocol subscription')
  const version = r.uint16() // every version starts with the fields read here
  const topics: string[] = []
  for (let i = r.count(2); i > 0; i--) topics.push(r.string16())
  const userData = readBytes(r)
  if (version < 1 || r.remaining === 0) return { topics, userData }
  return { topics, userData, ownedPartitions: readPartitions(r) }
}

export function encodeAssignment(assignment: MemberAssignment | undefined): Buffer {
  const byTopic = new Map<string, number[]>()
  for (const { topic, partition } of assignment?.partitions ?? []) {
    const list = byTopic.get(topic) ?? []
    list.push(partition)
    byTopic.set(topic, list)
  }
  const w = new ByteWriter().uint16(WRITE_VERSION).uint32(byTopic.size)
  for (const [topic, partitions] of byTopic) {
    w.string16(topic).uint32(partitions.length)
    for (const p of partitions.sort((a, b) => a - b)) w.int32(p)
  }
  return writeBytes(w, assignment?.userData ?? EMPTY).toBuffer()
}

/** An empty buffer (a member the leader gave nothing, or an older coordinator) is an empty assignment. */
export function decodeAssignment(bytes: Buffer): MemberAssignment {
  if (bytes.length === 0) return { partitions: [], userData: EMPTY }
  const r = new ByteReader(bytes, 'consumer protocol assignment')
  r.uint16() // version
  const partitions = readPartitions(r)
  return { partitions, userData: readBytes(r) }
}

/** Kafka's [TopicPartition]: per topic its name and its partition numbers. */
function readPartitions(r: ByteReader): TopicPartition[] {
  const partitions: TopicPartition[] = []
  for (let i = r.count(6); i > 0; i--) {
    const topic = r.string16()
    for (let j = r.count(4); j > 0; j--) partitions.push({ topic, partition: r.int32() })
  }
  return partitions
}

function writeBytes(w: ByteWriter, bytes: Buffer): ByteWriter {
  return w.int32(bytes.length).bytes(bytes)
}

/** Nullable bytes (length -1 = null, read as empty). */
function readBytes(r: ByteReader): Buffer {
  const length = r.int32()
  return length < 0 ? EMPTY : Buffer.from(r.bytes(length))
}
