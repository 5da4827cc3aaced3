/**
 * The assignment userData the leader sends to each member: Kafka Streams' own AssignmentInfo
 * bytes (written with Java's DataOutputStream), so a Java Kafka Streams leader can assign tasks to
 * kstreams members and the other way round. Versions 7 to 11 share one layout (big-endian; `utf`
 * is Java's writeUTF: uint16 length + modified UTF-8):
 *
 *   int32 version | int32 commonlySupportedVersion
 *   int32 n, n x taskId                                 active tasks, one per assigned partition
 *   int32 n, n x { taskId, int32 m, m x { utf topic, int32 partition } }   standby tasks
 *   int32 n, n x { int32 index, utf topic }             topic dictionary
 *   hosts partitionsByHost, hosts standbyPartitionsByHost
 *       hosts = int32 n, n x { utf host, int32 port, int32 m, m x { int32 topic index, int32 partition } }
 *   int32 errorCode | int64 nextRebalanceMs (Long.MAX_VALUE = none, 0 = right away)
 *   taskId = int32 subtopology, int32 partition, and from version 10 int32 0 (no named topology)
 *
 * The active task list pairs with the member's assigned partitions sorted by topic and partition:
 * the i-th task owns the i-th partition. Standby tasks carry their source partitions. A failed
 * assignment from a kstreams leader also carries the leader's message after the last field
 * (int32 length + UTF-8); Java's reader ignores trailing bytes, and kstreams falls back to the
 * error code's description when it is absent. @internal
 */
import { SerializationError, StreamsError } from '../../errors.js'
import { formatEndpoint } from '../../config/endpoint.js'
import type { TopicPartition } from '../kafka/ports.js'
import type { MemberAssignment } from '../consumer/consumer-api.js'
import { describeAssignorError, isAssignorErrorCode } from './assignor-error.js'
import type { AssignorErrorCode } from './assignor-error.js'
import { ByteReader } from './byte-reader.js'
import { ByteWriter } from './byte-writer.js'
import { sortedTaskIds, taskIdOf } from './task-ids.js'

export const ASSIGNMENT_INFO_VERSION = 11
export const LATEST_SUPPORTED_ASSIGNMENT_VERSION = 11
/** The oldest version this code reads and writes (Kafka Streams 2.6). */
export const MIN_ASSIGNMENT_VERSION = 7
const MIN_NAMED_TOPOLOGY_VERSION = 10
const NO_REBALANCE = 0x7fffffffffffffffn

export interface AssignmentInfoData {
  readonly errorCode: AssignorErrorCode
  /** Why the assignment failed; "" when errorCode is NONE. */
  readonly errorMessage: string
  /** When the member should trigger a (probing) rebalance, epoch ms (0 = right away); undefined = no follow-up. */
  readonly nextRebalanceMs: number | undefined
  /** Active task id -> the source partitions it processes. */
  readonly activeTasks: ReadonlyMap<string, readonly TopicPartition[]>
  /** Standby task id -> the source partitions of the task (its changelogs follow from the topology). */
  readonly standbyTasks: ReadonlyMap<string, readonly TopicPartition[]>
  /** "host:port" of every member with an application.server -> the source partitions of its active tasks. */
  readonly partitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
  /** "host:port" -> the source partitions of its standby tasks. */
  readonly standbyPartitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
  /** The version to write, MIN_ASSIGNMENT_VERSION..11 (the lowest any member used); default 11. */
  readonly version?: number
  /** The lowest latest-supported version of the group's members; default 11. */
  readonly commonlySupportedVersion?: number
}

export interface AssignmentInfo extends Required<AssignmentInfoData> {}

const comparePartitions = (a: TopicPartition, b: TopicPartition): number =>
  a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition

export function sortPartitions(partitions: Iterable<TopicPartition>): TopicPartition[] {
  return [...partitions].sort(comparePartitions)
}

export function encodeAssignmentInfo(info: AssignmentInfoData): Buffer {
  const version = info.version ?? ASSIGNMENT_INFO_VERSION
  if (!Number.isInteger(version) || version < MIN_ASSIGNMENT_VERSION || version > LATEST_SUPPORTED_ASSIGNMENT_VERSION)
    throw new StreamsError('ILLEGAL_ARGUMENT', `AssignmentInfo version must be ${MIN_ASSIGNMENT_VERSION}..11, got ${version}`)
  const nextRebalanceMs = info.nextRebalanceMs
  if (nextRebalanceMs !== undefined && (!Number.isSafeInteger(nextRebalanceMs) || nextRebalanceMs < 0))
    throw new StreamsError('ILLEGAL_ARGUMENT', `nextRebalanceMs must be a non-negative integer, got ${nextRebalanceMs}`)
  const writer = new ByteWriter().int32(version).int32(info.commonlySupportedVersion ?? LATEST_SUPPORTED_ASSIGNMENT_VERSION)
  const writeTask = (id: string): void => {
    const task = taskIdOf(id)
    writer.int32(task.subtopology).int32(task.partition)
    if (version >= MIN_NAMED_TOPOLOGY_VERSION) writer.int32(0)
  }

  const owned: Array<{ partition: TopicPartition; task: string }> = []
  for (const [task, partitions] of info.activeTasks) for (const partition of partitions) owned.push({ partition, task })
  owned.sort((a, b) => comparePartitions(a.partition, b.partition))
  writer.int32(owned.length)
  for (const { task } of owned) writeTask(task)

  const standbys = sortedTaskIds(info.standbyTasks.keys())
  writer.int32(standbys.length)
  for (const id of standbys) {
    writeTask(id)
    const partitions = sortPartitions(info.standbyTasks.get(id)!)
    writer.int32(partitions.length)
    for (const tp of partitions) writer.javaUtf(tp.topic).int32(tp.partition)
  }

  const names = new Set<string>()
  for (const hosts of [info.partitionsByHost, info.standbyPartitionsByHost])
    for (const partitions of hosts.values()) for (const tp of partitions) names.add(tp.topic)
  const topics = new Map([...names].sort().map((name, index) => [name, index]))
  writer.int32(topics.size)
  for (const [name, index] of topics) writer.int32(index).javaUtf(name)
  for (const hosts of [info.partitionsByHost, info.standbyPartitionsByHost]) {
    const sortedHosts = [...hosts.keys()].sort()
    writer.int32(sortedHosts.length)
    for (const endpoint of sortedHosts) {
      const { host, port } = parseEndpoint(endpoint)
      const partitions = sortPartitions(hosts.get(endpoint)!)
      writer.javaUtf(host).int32(port).int32(partitions.length)
      for (const tp of partitions) writer.int32(topics.get(tp.topic)!).int32(tp.partition)
    }
  }
  writer.int32(info.errorCode).int64Big(nextRebalanceMs === undefined ? NO_REBALANCE : BigInt(nextRebalanceMs))
  if (info.errorCode !== 0 && info.errorMessage !== '') writer.string32(info.errorMessage)
  return writer.toBuffer()
}

/**
 * Member side: reads the assignment this member received. Its active tasks pair with its
 * partitions sorted by topic and partition, as Kafka Streams' StreamsPartitionAssignor pairs them.
 */
export function decodeAssignment(assignment: MemberAssignment): AssignmentInfo {
  const reader = new ByteReader(assignment.userData, 'assignment userData')
  const version = reader.int32()
  if (version < MIN_ASSIGNMENT_VERSION || version > LATEST_SUPPORTED_ASSIGNMENT_VERSION) {
    throw new SerializationError(
      `Unsupported assignment userData version ${version} (this code reads versions ${MIN_ASSIGNMENT_VERSION} to ${LATEST_SUPPORTED_ASSIGNMENT_VERSION})`
    )
  }
  const commonlySupportedVersion = reader.int32()
  const readTask = (): string => {
    const id = `${reader.int32()}_${reader.int32()}`
    if (version >= MIN_NAMED_TOPOLOGY_VERSION) {
      const chars = reader.int32()
      if (chars !== 0)
        throw new SerializationError(`Assignment userData names a topology for task ${id}: named topologies are not supported`)
    }
    return id
  }

  const activeList: string[] = []
  for (let n = reader.count(8); n > 0; n--) activeList.push(readTask())
  const partitions = sortPartitions(assignment.partitions)
  if (partitions.length !== activeList.length) {
    throw new SerializationError(
      `Corrupt assignment: ${partitions.length} assigned partitions but ${activeList.length} active task entries (they must pair one to one)`
    )
  }
  const activeTasks = new Map<string, TopicPartition[]>()
  for (const [i, id] of activeList.entries()) {
    let list = activeTasks.get(id)
    if (list === undefined) activeTasks.set(id, (list = []))
    list.push(partitions[i]!)
  }

  const standbyTasks = new Map<string, TopicPartition[]>()
  for (let n = reader.count(12); n > 0; n--) {
    const id = readTask()
    const list: TopicPartition[] = []
    for (let m = reader.count(6); m > 0; m--) list.push({ topic: reader.javaUtf(), partition: reader.int32() })
    standbyTasks.set(id, sortPartitions(list))
  }

  const topics = new Map<number, string>()
  for (let n = reader.count(6); n > 0; n--) topics.set(reader.int32(), reader.javaUtf())
  const readHosts = (): Map<string, TopicPartition[]> => {
    const hosts = new Map<string, TopicPartition[]>()
    for (let n = reader.count(10); n > 0; n--) {
      const host = reader.javaUtf()
      const port = reader.int32()
      const list: TopicPartition[] = []
      for (let m = reader.count(8); m > 0; m--) {
        const index = reader.int32()
        const topic = topics.get(index)
        if (topic === undefined) throw new SerializationError(`Corrupt assignment userData: topic index ${index} of ${topics.size}`)
        list.push({ topic, partition: reader.int32() })
      }
      hosts.set(formatEndpoint(host, port), sortPartitions(list))
    }
    return hosts
  }
  const partitionsByHost = readHosts()
  const standbyPartitionsByHost = readHosts()
  const errorCode = reader.int32()
  if (!isAssignorErrorCode(errorCode)) throw new SerializationError(`Corrupt assignment userData: unknown error code ${errorCode}`)
  const next = reader.int64Big()
  if (next < 0n) throw new SerializationError(`Corrupt assignment userData: next rebalance time ${next}`)
  let errorMessage = ''
  if (errorCode !== 0) errorMessage = reader.remaining >= 4 ? reader.string32() : describeAssignorError(errorCode)
  return {
    version,
    commonlySupportedVersion,
    errorCode,
    errorMessage,
    nextRebalanceMs: next === NO_REBALANCE ? undefined : Number(next),
    activeTasks,
    standbyTasks,
    partitionsByHost,
    standbyPartitionsByHost
  }
}

/** "host:port" (IPv6 hosts in brackets) as Kafka's HostInfo: the host without brackets and the port. */
function parseEndpoint(endpoint: string): { host: string; port: number } {
  const colon = endpoint.lastIndexOf(':')
  const port = Number(endpoint.slice(colon + 1))
  if (colon <= 0 || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new StreamsError('ILLEGAL_ARGUMENT', `Endpoint "${endpoint}" is not host:port`)
  return { host: endpoint.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port }
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
