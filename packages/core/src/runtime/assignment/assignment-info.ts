/**
 * The assignment userData the leader sends to each member (Kafka Streams' AssignmentInfo), and
 * `decodeAssignment`, which a member uses to read its MemberAssignment. Our own compact versioned
 * encoding. Topic names are written once in a dictionary and referenced by index. Version 1
 * layout (big-endian):
 *
 *   uint16 version | uint8 errorCode | int64 nextRebalanceMs (-1 = none)
 *   uint32 len + UTF-8 errorMessage
 *   uint32 n, n x { uint16 len + UTF-8 topic }                                (topic dictionary)
 *   tasks  activeTasks   = uint32 n, n x { uint32 subtopology, uint32 partition, partitions }
 *   tasks  standbyTasks  (partitions are the changelog partitions to keep up to date)
 *   hosts  partitionsByHost        = uint32 n, n x { uint16 len + UTF-8 "host:port", partitions }
 *   hosts  standbyPartitionsByHost
 *   partitions = uint32 n, n x { uint32 topic index, uint32 partition }
 *
 * Tasks, hosts and partitions are written in sorted order, so equal content gives equal bytes. @internal
 */
import { SerializationError, StreamsError } from '../../errors.js'
import type { TopicPartition } from '../kafka/ports.js'
import type { MemberAssignment } from '../consumer/consumer-api.js'
import { isAssignorErrorCode } from './assignor-error.js'
import type { AssignorErrorCode } from './assignor-error.js'
import { ByteReader } from './byte-reader.js'
import { ByteWriter } from './byte-writer.js'
import { sortedTaskIds, taskIdOf } from './task-ids.js'

export const ASSIGNMENT_INFO_VERSION = 1
export const LATEST_SUPPORTED_ASSIGNMENT_VERSION = 1

export interface AssignmentInfoData {
  readonly errorCode: AssignorErrorCode
  /** Why the assignment failed; "" when errorCode is NONE. */
  readonly errorMessage: string
  /** When the member should trigger a (probing) rebalance, epoch ms; undefined = no follow-up. */
  readonly nextRebalanceMs: number | undefined
  /** Active task id -> the source partitions it processes. */
  readonly activeTasks: ReadonlyMap<string, readonly TopicPartition[]>
  /** Standby task id -> the changelog partitions it keeps up to date. */
  readonly standbyTasks: ReadonlyMap<string, readonly TopicPartition[]>
  /** "host:port" of every member with an application.server -> the source partitions of its active tasks. */
  readonly partitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
  /** "host:port" -> the source partitions of its standby tasks. */
  readonly standbyPartitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
}

export interface AssignmentInfo extends AssignmentInfoData {
  readonly version: number
}

const comparePartitions = (a: TopicPartition, b: TopicPartition): number =>
  a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition

export function sortPartitions(partitions: Iterable<TopicPartition>): TopicPartition[] {
  return [...partitions].sort(comparePartitions)
}

export function encodeAssignmentInfo(info: AssignmentInfoData): Buffer {
  const nextRebalanceMs = info.nextRebalanceMs ?? -1
  if (!Number.isSafeInteger(nextRebalanceMs) || nextRebalanceMs < -1)
    throw new StreamsError('ILLEGAL_ARGUMENT', `nextRebalanceMs must be a non-negative integer, got ${nextRebalanceMs}`)
  const topics = new Map<string, number>()
  const allMaps = [info.activeTasks, info.standbyTasks, info.partitionsByHost, info.standbyPartitionsByHost]
  const names = new Set<string>()
  for (const map of allMaps) for (const partitions of map.values()) for (const tp of partitions) names.add(tp.topic)
  for (const name of [...names].sort()) topics.set(name, topics.size)

  const writer = new ByteWriter()
    .uint16(ASSIGNMENT_INFO_VERSION)
    .uint8(info.errorCode)
    .int64(nextRebalanceMs)
    .string32(info.errorMessage)
    .uint32(topics.size)
  for (const name of topics.keys()) writer.string16(name)

  const writePartitions = (partitions: readonly TopicPartition[]): void => {
    const sorted = sortPartitions(partitions)
    writer.uint32(sorted.length)
    for (const tp of sorted) writer.uint32(topics.get(tp.topic)!).uint32(tp.partition)
  }
  for (const tasks of [info.activeTasks, info.standbyTasks]) {
    const ids = sortedTaskIds(tasks.keys())
    writer.uint32(ids.length)
    for (const id of ids) {
      const task = taskIdOf(id)
      writer.uint32(task.subtopology).uint32(task.partition)
      writePartitions(tasks.get(id)!)
    }
  }
  for (const hosts of [info.partitionsByHost, info.standbyPartitionsByHost]) {
    const sortedHosts = [...hosts.keys()].sort()
    writer.uint32(sortedHosts.length)
    for (const host of sortedHosts) {
      writer.string16(host)
      writePartitions(hosts.get(host)!)
    }
  }
  return writer.toBuffer()
}

export function decodeAssignmentInfo(data: Buffer): AssignmentInfo {
  const reader = new ByteReader(data, 'assignment userData')
  const version = reader.uint16()
  if (version < 1 || version > LATEST_SUPPORTED_ASSIGNMENT_VERSION) {
    throw new SerializationError(
      `Unsupported assignment userData version ${version} (this code supports up to ${LATEST_SUPPORTED_ASSIGNMENT_VERSION})`
    )
  }
  const errorCode = reader.uint8()
  if (!isAssignorErrorCode(errorCode)) throw new SerializationError(`Corrupt assignment userData: unknown error code ${errorCode}`)
  const next = reader.int64()
  const errorMessage = reader.string32()
  const topics: string[] = []
  const topicCount = reader.count(2)
  for (let i = 0; i < topicCount; i++) topics.push(reader.string16())

  const readPartitions = (): TopicPartition[] => {
    const n = reader.count(8)
    const partitions: TopicPartition[] = []
    for (let i = 0; i < n; i++) {
      const index = reader.uint32()
      const topic = topics[index]
      if (topic === undefined) throw new SerializationError(`Corrupt assignment userData: topic index ${index} of ${topics.length}`)
      partitions.push({ topic, partition: reader.uint32() })
    }
    return partitions
  }
  const readTasks = (): Map<string, TopicPartition[]> => {
    const tasks = new Map<string, TopicPartition[]>()
    const n = reader.count(12)
    for (let i = 0; i < n; i++) {
      const id = `${reader.uint32()}_${reader.uint32()}`
      tasks.set(id, readPartitions())
    }
    return tasks
  }
  const readHosts = (): Map<string, TopicPartition[]> => {
    const hosts = new Map<string, TopicPartition[]>()
    const n = reader.count(6)
    for (let i = 0; i < n; i++) {
      const host = reader.string16()
      hosts.set(host, readPartitions())
    }
    return hosts
  }
  const activeTasks = readTasks()
  const standbyTasks = readTasks()
  const partitionsByHost = readHosts()
  const standbyPartitionsByHost = readHosts()
  reader.end()
  return {
    version,
    errorCode,
    errorMessage,
    nextRebalanceMs: next === -1 ? undefined : next,
    activeTasks,
    standbyTasks,
    partitionsByHost,
    standbyPartitionsByHost
  }
}

/** Member side: reads the assignment this member received (its partitions are those of its active tasks). */
export function decodeAssignment(assignment: MemberAssignment): AssignmentInfo {
  return decodeAssignmentInfo(assignment.userData)
}

/** An assignment that carries only an error, for every member. */
export function errorAssignmentInfo(errorCode: AssignorErrorCode, errorMessage: string): AssignmentInfoData {
  const empty = new Map<string, TopicPartition[]>()
  return {
    errorCode,
    errorMessage,
    nextRebalanceMs: undefined,
    activeTasks: empty,
    standbyTasks: empty,
    partitionsByHost: empty,
    standbyPartitionsByHost: empty
  }
}
