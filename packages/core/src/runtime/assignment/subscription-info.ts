/**
 * The subscription userData each stream thread's consumer sends when it (re)joins the group: what
 * the leader needs to assign tasks (Kafka Streams' SubscriptionInfo). Our own compact versioned
 * encoding, not Kafka's bytes. Version 1 layout (big-endian):
 *
 *   uint16 version | uint16 latestSupportedVersion | 16 bytes processId (UUID)
 *   uint16 len + UTF-8 userEndpoint ("" = none) | uint8 errorCode | uint8 uniqueField
 *   uint32 n, n x { uint32 subtopology, uint32 partition, int64 offsetSum }   (task offset sums)
 *   uint32 n, n x { uint32 subtopology, uint32 partition }                    (previous active tasks)
 *   uint32 n, n x { uint32 subtopology, uint32 partition }                    (previous standby tasks)
 *
 * Task lists are written in task order, so equal content gives equal bytes. @internal
 */
import { SerializationError, StreamsError } from '../../errors.js'
import { ByteReader } from './byte-reader.js'
import { ByteWriter } from './byte-writer.js'
import { sortedTaskIds, taskIdOf } from './task-ids.js'

export const SUBSCRIPTION_INFO_VERSION = 1
/** The newest subscription version this code can decode. */
export const LATEST_SUPPORTED_SUBSCRIPTION_VERSION = 1

/** Offset sum of a task that is running as an active task on the reporting process (caught up by definition). */
export const LATEST_OFFSET = -2
/** Offset sum of a task whose local offsets are unknown. */
export const UNKNOWN_OFFSET_SUM = -3

export interface SubscriptionInfoData {
  /** The process (KafkaStreams instance) id, a UUID; shared by all threads of the process. */
  readonly processId: string
  /** `application.server` as "host:port", or "" when not configured. */
  readonly userEndpoint: string
  /**
   * Per task id (`<sub>_<partition>`): the sum of the changelog offsets of the task's state on
   * this process, LATEST_OFFSET for tasks running as active here, UNKNOWN_OFFSET_SUM when unknown.
   */
  readonly taskOffsetSums: ReadonlyMap<string, number>
  /** Active tasks this consumer (thread) owned before the rebalance. */
  readonly activeTasks: readonly string[]
  /** Standby tasks this consumer (thread) owned before the rebalance. */
  readonly standbyTasks: readonly string[]
  /** An AssignorError code; SHUTDOWN_REQUESTED asks the group to shut down. */
  readonly errorCode: number
  /** Changes on every subscription so re-joins always carry fresh metadata. */
  readonly uniqueField: number
}

export interface SubscriptionInfo extends SubscriptionInfoData {
  readonly version: number
  readonly latestSupportedVersion: number
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function encodeSubscriptionInfo(info: SubscriptionInfoData): Buffer {
  if (!UUID_PATTERN.test(info.processId)) throw new StreamsError('ILLEGAL_ARGUMENT', `processId must be a UUID, got "${info.processId}"`)
  if (!Number.isInteger(info.errorCode) || info.errorCode < 0 || info.errorCode > 255)
    throw new StreamsError('ILLEGAL_ARGUMENT', `errorCode must be 0..255, got ${info.errorCode}`)
  const writer = new ByteWriter()
    .uint16(SUBSCRIPTION_INFO_VERSION)
    .uint16(LATEST_SUPPORTED_SUBSCRIPTION_VERSION)
    .bytes(Buffer.from(info.processId.replaceAll('-', ''), 'hex'))
    .string16(info.userEndpoint)
    .uint8(info.errorCode)
    .uint8(info.uniqueField & 0xff)

  const offsetTasks = sortedTaskIds(info.taskOffsetSums.keys())
  writer.uint32(offsetTasks.length)
  for (const id of offsetTasks) {
    const sum = info.taskOffsetSums.get(id)!
    if (!Number.isSafeInteger(sum) || (sum < 0 && sum !== LATEST_OFFSET && sum !== UNKNOWN_OFFSET_SUM)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Offset sum of task ${id} must be >= 0, LATEST_OFFSET or UNKNOWN_OFFSET_SUM, got ${sum}`)
    }
    writeTaskId(writer, id).int64(sum)
  }
  for (const list of [info.activeTasks, info.standbyTasks]) {
    const ids = sortedTaskIds(new Set(list))
    writer.uint32(ids.length)
    for (const id of ids) writeTaskId(writer, id)
  }
  return writer.toBuffer()
}

export function decodeSubscriptionInfo(data: Buffer): SubscriptionInfo {
  const reader = new ByteReader(data, 'subscription userData')
  const version = reader.uint16()
  if (version < 1 || version > LATEST_SUPPORTED_SUBSCRIPTION_VERSION) {
    throw new SerializationError(
      `Unsupported subscription userData version ${version} (this code supports up to ${LATEST_SUPPORTED_SUBSCRIPTION_VERSION})`
    )
  }
  const latestSupportedVersion = reader.uint16()
  const hex = reader.bytes(16).toString('hex')
  const processId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  const userEndpoint = reader.string16()
  const errorCode = reader.uint8()
  const uniqueField = reader.uint8()

  const taskOffsetSums = new Map<string, number>()
  const offsetCount = reader.count(16)
  for (let i = 0; i < offsetCount; i++) {
    const id = readTaskId(reader)
    const sum = reader.int64()
    if (sum < 0 && sum !== LATEST_OFFSET && sum !== UNKNOWN_OFFSET_SUM)
      throw new SerializationError(`Corrupt subscription userData: offset sum ${sum} of task ${id}`)
    taskOffsetSums.set(id, sum)
  }
  const readList = (): string[] => {
    const n = reader.count(8)
    const ids: string[] = []
    for (let i = 0; i < n; i++) ids.push(readTaskId(reader))
    return ids
  }
  const activeTasks = readList()
  const standbyTasks = readList()
  reader.end()
  return { version, latestSupportedVersion, processId, userEndpoint, taskOffsetSums, activeTasks, standbyTasks, errorCode, uniqueField }
}

function writeTaskId(writer: ByteWriter, id: string): ByteWriter {
  const task = taskIdOf(id)
  return writer.uint32(task.subtopology).uint32(task.partition)
}

function readTaskId(reader: ByteReader): string {
  const subtopology = reader.uint32()
  const partition = reader.uint32()
  return `${subtopology}_${partition}`
}
