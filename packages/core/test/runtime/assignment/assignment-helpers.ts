/**
 * Test helpers for the assignor: an in-memory AdminPort, member subscriptions, process ids, a
 * seeded random generator, and a way to feed an assignment back as the next subscriptions.
 */
import type { AdminPort, NewTopic, TopicPartition, TopicPartitionOffset } from '../../../src/runtime/kafka/ports.js'
import type { GroupMemberSubscription, MemberAssignment } from '../../../src/runtime/consumer/consumer-api.js'
import { tpKey } from '../../../src/runtime/kafka/ports.js'
import { decodeAssignment } from '../../../src/runtime/assignment/assignment-info.js'
import type { AssignmentInfo } from '../../../src/runtime/assignment/assignment-info.js'
import { encodeSubscriptionInfo, LATEST_OFFSET } from '../../../src/runtime/assignment/subscription-info.js'
import { StreamsPartitionAssignor } from '../../../src/runtime/assignment/streams-partition-assignor.js'
import type { StreamsPartitionAssignorConfig } from '../../../src/runtime/assignment/streams-partition-assignor.js'
import type { AssignorSubtopology, AssignorTopology } from '../../../src/runtime/assignment/topology-metadata.js'
import { ManualClock } from '../../../src/clock.js'

/** An AdminPort over a map of topics; records what it was asked to do. */
export class InMemoryAdmin implements AdminPort {
  readonly topics = new Map<string, number>()
  readonly created: NewTopic[] = []
  readonly endOffsetsByPartition = new Map<string, number>()
  readonly committedByPartition = new Map<string, number>()
  failEndOffsets = false
  endOffsetCalls = 0

  constructor(topics: Record<string, number> = {}) {
    for (const [topic, count] of Object.entries(topics)) this.topics.set(topic, count)
  }

  setEndOffset(topic: string, partition: number, offset: number): this {
    this.endOffsetsByPartition.set(tpKey(topic, partition), offset)
    return this
  }

  async partitionCounts(topics: readonly string[]): Promise<Map<string, number>> {
    return new Map(topics.filter(topic => this.topics.has(topic)).map(topic => [topic, this.topics.get(topic)!]))
  }

  async createTopics(topics: readonly NewTopic[]): Promise<void> {
    for (const topic of topics) {
      if (this.topics.has(topic.topic)) continue
      this.topics.set(topic.topic, topic.numPartitions)
      this.created.push(topic)
    }
  }

  async endOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    this.endOffsetCalls++
    if (this.failEndOffsets) throw new Error('end offsets unavailable')
    return new Map(
      partitions.map(tp => [tpKey(tp.topic, tp.partition), this.endOffsetsByPartition.get(tpKey(tp.topic, tp.partition)) ?? 0])
    )
  }

  async committedOffsets(_groupId: string, partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    const found = new Map<string, number>()
    for (const tp of partitions) {
      const offset = this.committedByPartition.get(tpKey(tp.topic, tp.partition))
      if (offset !== undefined) found.set(tpKey(tp.topic, tp.partition), offset)
    }
    return found
  }

  async beginningOffsets(partitions: readonly TopicPartition[]): Promise<Map<string, number>> {
    return new Map(partitions.map(tp => [tpKey(tp.topic, tp.partition), 0]))
  }

  async deleteRecords(_offsets: readonly TopicPartitionOffset[]): Promise<void> {}

  async listTopics(): Promise<string[]> {
    return [...this.topics.keys()]
  }

  async close(): Promise<void> {}
}

/** A deterministic process id (UUID) for process number n. */
export function pid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`
}

export interface MemberSpec {
  readonly memberId: string
  readonly process: number
  readonly endpoint?: string
  readonly offsets?: Record<string, number>
  readonly active?: readonly string[]
  readonly standby?: readonly string[]
  readonly errorCode?: number
  /** Partitions a cooperative (Java) member still owns when it joins. */
  readonly owned?: readonly TopicPartition[]
}

export function subscription(spec: MemberSpec): GroupMemberSubscription {
  return {
    memberId: spec.memberId,
    topics: [],
    userData: encodeSubscriptionInfo({
      processId: pid(spec.process),
      userEndpoint: spec.endpoint ?? '',
      taskOffsetSums: offsetSums(spec),
      errorCode: spec.errorCode ?? 0,
      uniqueField: 0
    }),
    ...(spec.owned === undefined ? {} : { ownedPartitions: spec.owned })
  }
}

/**
 * What the member reports (Kafka Streams' encoding since version 7): its offsets for the tasks it
 * has state of; LATEST_OFFSET for its active tasks; its standby tasks (0 unless in `offsets`).
 * A task in `offsets` whose sum is LATEST_OFFSET but not in `active` is active on another thread
 * of the process and not reported by this one.
 */
function offsetSums(spec: MemberSpec): Map<string, number> {
  const active = new Set(spec.active ?? [])
  const sums = new Map(Object.entries(spec.offsets ?? {}).filter(([task, sum]) => sum !== LATEST_OFFSET || active.has(task)))
  for (const task of spec.standby ?? []) if (!sums.has(task)) sums.set(task, 0)
  for (const task of active) sums.set(task, LATEST_OFFSET)
  return sums
}

/** `processes[i]` threads for process i+1, members named `p<process>-t<thread>`. */
export function members(threadsPerProcess: readonly number[]): MemberSpec[] {
  return threadsPerProcess.flatMap((threads, i) =>
    Array.from({ length: threads }, (_, t) => ({ memberId: `p${i + 1}-t${t + 1}`, process: i + 1 }))
  )
}

export function decodeAll(assignments: ReadonlyMap<string, MemberAssignment>): Map<string, AssignmentInfo> {
  return new Map([...assignments].map(([memberId, assignment]) => [memberId, decodeAssignment(assignment)]))
}

/**
 * The subscriptions members send after receiving `previous`: each its own tasks, LATEST_OFFSET
 * for actives and `standbyOffset(task)` for standbys (as Kafka Streams' threads report them).
 */
export function nextSubscriptions(
  specs: readonly MemberSpec[],
  previous: ReadonlyMap<string, AssignmentInfo>,
  standbyOffset: (task: string) => number = () => 0
): GroupMemberSubscription[] {
  return specs.map(spec => {
    const info = previous.get(spec.memberId)
    const offsets: Record<string, number> = { ...spec.offsets }
    for (const task of info?.standbyTasks.keys() ?? []) offsets[task] = standbyOffset(task)
    return subscription({
      ...spec,
      offsets,
      active: info === undefined ? [] : [...info.activeTasks.keys()],
      standby: info === undefined ? [] : [...info.standbyTasks.keys()]
    })
  })
}

/** mulberry32: a small seeded PRNG, so randomized checks are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Bytes from hex text where `#` starts a comment running to the end of the line. */
export function hexLines(text: string): Buffer {
  return Buffer.from(
    text
      .split('\n')
      .map(line => line.split('#')[0]!)
      .join('')
      .replace(/\s+/g, ''),
    'hex'
  )
}

/** A sub-topology with only the given parts set. */
export function sub(id: number, parts: Partial<AssignorSubtopology>): AssignorSubtopology {
  return { id, sourceTopics: [], sourcePatterns: [], changelogTopics: [], repartitionSourceTopics: [], repartitionSinkTopics: [], ...parts }
}

export function topologyOf(subtopologies: AssignorSubtopology[], extras: Partial<AssignorTopology> = {}): AssignorTopology {
  return { subtopologies, repartitionTopics: new Map(), copartitionGroups: [], ...extras }
}

/** An assignor for application "app" with a manual clock at 1000 ms. */
export function assignorFor(
  topology: AssignorTopology,
  admin: InMemoryAdmin,
  config: Partial<StreamsPartitionAssignorConfig> = {},
  clock = new ManualClock(1000)
): StreamsPartitionAssignor {
  return new StreamsPartitionAssignor({
    topology,
    admin,
    config: { applicationId: 'app', ...config },
    clock,
    localState: () => ({ processId: pid(1), taskOffsetSums: new Map(), activeTasks: [] })
  })
}
