/**
 * The subscription userData each stream thread's consumer sends when it (re)joins the group: what
 * the leader needs to assign tasks. Kafka Streams' own SubscriptionInfo bytes (the generated
 * SubscriptionInfoData message, not flexible), so Java Kafka Streams members and kstreams members
 * read each other's subscriptions. We write version 11, the latest of Kafka Streams 2.8 to 4.x:
 *
 *   int32 version | int32 latestSupportedVersion | 16 bytes processId (UUID)
 *   int32 len + UTF-8 userEndPoint ("" = none)
 *   int32 n, n x { int32 subtopology, int32 partition, int64 offsetSum, int16 -1 (no named topology) }
 *   int8 uniqueField | int32 errorCode
 *   int32 n, n x { int32 len + key bytes, int32 len + value bytes }                 (client tags)
 *
 * and read versions 1 to 11 (fields by version as in Kafka's SubscriptionInfoData.json). A
 * subscription of a newer version is a member running newer code (version probing): only its
 * version and latest supported version are read, as Kafka Streams does. Since version 7 the
 * previous tasks are not listed: a task whose offset sum is LATEST_OFFSET was active on the
 * member, any other task with an offset sum has state there (a standby, or a task directory). @internal
 */
import { SerializationError, StreamsError } from '../../errors.js'
import { ByteReader } from './byte-reader.js'
import { ByteWriter } from './byte-writer.js'
import { sortedTaskIds, taskIdOf } from './task-ids.js'

/** The version this code writes and the newest it reads (Kafka Streams' LATEST_SUPPORTED_VERSION). */
export const SUBSCRIPTION_INFO_VERSION = 11
export const LATEST_SUPPORTED_SUBSCRIPTION_VERSION = 11
/** Versions below this encode prev/standby task lists instead of offset sums. */
const MIN_OFFSET_SUM_VERSION = 7
/** Versions from this one write each task offset sum flat, with a (nullable) named topology. */
const MIN_NAMED_TOPOLOGY_VERSION = 10

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
  /** An AssignorError code; SHUTDOWN_REQUESTED asks the group to shut down. */
  readonly errorCode: number
  /** Changes on every subscription so re-joins always carry fresh metadata (int8). */
  readonly uniqueField: number
  /** Rack-aware assignment tags (`client.tag.*`); none by default. */
  readonly clientTags?: ReadonlyMap<string, string>
}

export interface SubscriptionInfo extends Required<SubscriptionInfoData> {
  readonly version: number
  readonly latestSupportedVersion: number
  /** Tasks that were active on the member (offset sum LATEST_OFFSET). */
  readonly activeTasks: readonly string[]
  /** Tasks with other state on the member (standbys, task directories). */
  readonly standbyTasks: readonly string[]
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const NO_TAGS: ReadonlyMap<string, string> = new Map()

export function encodeSubscriptionInfo(info: SubscriptionInfoData): Buffer {
  if (!UUID_PATTERN.test(info.processId)) throw new StreamsError('ILLEGAL_ARGUMENT', `processId must be a UUID, got "${info.processId}"`)
  if (!Number.isInteger(info.errorCode) || info.errorCode < 0 || info.errorCode > 0x7fffffff)
    throw new StreamsError('ILLEGAL_ARGUMENT', `errorCode must be a non-negative int32, got ${info.errorCode}`)
  const endpoint = Buffer.from(info.userEndpoint, 'utf8')
  const writer = new ByteWriter()
    .int32(SUBSCRIPTION_INFO_VERSION)
    .int32(LATEST_SUPPORTED_SUBSCRIPTION_VERSION)
    .bytes(Buffer.from(info.processId.replaceAll('-', ''), 'hex'))
    .int32(endpoint.length)
    .bytes(endpoint)

  const offsetTasks = sortedTaskIds(info.taskOffsetSums.keys())
  writer.int32(offsetTasks.length)
  for (const id of offsetTasks) {
    const sum = info.taskOffsetSums.get(id)!
    if (!Number.isSafeInteger(sum) || (sum < 0 && sum !== LATEST_OFFSET && sum !== UNKNOWN_OFFSET_SUM)) {
      throw new StreamsError('ILLEGAL_ARGUMENT', `Offset sum of task ${id} must be >= 0, LATEST_OFFSET or UNKNOWN_OFFSET_SUM, got ${sum}`)
    }
    const task = taskIdOf(id)
    writer.int32(task.subtopology).int32(task.partition).int64(sum).int16(-1)
  }
  writer.int8((info.uniqueField << 24) >> 24).int32(info.errorCode)
  const tags = info.clientTags ?? NO_TAGS
  writer.int32(tags.size)
  for (const [key, value] of tags) {
    for (const text of [key, value]) {
      const bytes = Buffer.from(text, 'utf8')
      writer.int32(bytes.length).bytes(bytes)
    }
  }
  return writer.toBuffer()
}

/** Whether the subscription came from a member speaking a newer version than this code reads. */
export function isFutureSubscription(info: SubscriptionInfo): boolean {
  return info.version > LATEST_SUPPORTED_SUBSCRIPTION_VERSION
}

export function decodeSubscriptionInfo(data: Buffer): SubscriptionInfo {
  const reader = new ByteReader(data, 'subscription userData')
  const version = reader.int32()
  if (version < 1) throw new SerializationError(`Corrupt subscription userData: version ${version}`)
  if (version > LATEST_SUPPORTED_SUBSCRIPTION_VERSION) {
    // Version probing: a newer member; only its version and latest supported version are readable.
    const latestSupportedVersion = reader.int32()
    return {
      version,
      latestSupportedVersion,
      processId: '',
      userEndpoint: '',
      taskOffsetSums: new Map(),
      activeTasks: [],
      standbyTasks: [],
      errorCode: 0,
      uniqueField: 0,
      clientTags: NO_TAGS
    }
  }
  const latestSupportedVersion = version >= 3 ? reader.int32() : -1
  const hex = reader.bytes(16).toString('hex')
  const processId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`

  const taskOffsetSums = new Map<string, number>()
  if (version < MIN_OFFSET_SUM_VERSION) {
    for (const id of readTaskList(reader)) taskOffsetSums.set(id, LATEST_OFFSET)
    for (const id of readTaskList(reader)) if (!taskOffsetSums.has(id)) taskOffsetSums.set(id, UNKNOWN_OFFSET_SUM)
  }
  const userEndpoint = version >= 2 ? readBytes(reader).toString('utf8') : ''
  if (version >= MIN_OFFSET_SUM_VERSION) {
    for (let i = reader.count(version >= MIN_NAMED_TOPOLOGY_VERSION ? 18 : 8); i > 0; i--) {
      const subtopology = reader.int32()
      if (version >= MIN_NAMED_TOPOLOGY_VERSION) {
        const id = `${subtopology}_${reader.int32()}`
        const sum = reader.int64()
        const named = reader.int16()
        if (named >= 0) {
          throw new SerializationError(
            `Subscription userData names topology "${reader.bytes(named).toString('utf8')}" for task ${id}: named topologies are not supported`
          )
        }
        taskOffsetSums.set(id, knownSum(sum))
      } else {
        for (let j = reader.count(12); j > 0; j--) taskOffsetSums.set(`${subtopology}_${reader.int32()}`, knownSum(reader.int64()))
      }
    }
  }
  const uniqueField = version >= 8 ? reader.int8() : 0
  const errorCode = version >= 9 ? reader.int32() : 0
  const clientTags = new Map<string, string>()
  if (version >= 11) {
    for (let i = reader.count(8); i > 0; i--) clientTags.set(readBytes(reader).toString('utf8'), readBytes(reader).toString('utf8'))
  }
  const ids = sortedTaskIds(taskOffsetSums.keys())
  return {
    version,
    latestSupportedVersion,
    processId,
    userEndpoint,
    taskOffsetSums: new Map(ids.map(id => [id, taskOffsetSums.get(id)!])),
    activeTasks: ids.filter(id => taskOffsetSums.get(id) === LATEST_OFFSET),
    standbyTasks: ids.filter(id => taskOffsetSums.get(id) !== LATEST_OFFSET),
    errorCode,
    uniqueField,
    clientTags
  }
}

/** A negative sum other than LATEST_OFFSET says nothing usable about the state: UNKNOWN_OFFSET_SUM. */
function knownSum(sum: number): number {
  return sum < 0 && sum !== LATEST_OFFSET ? UNKNOWN_OFFSET_SUM : sum
}

function readTaskList(reader: ByteReader): string[] {
  const ids: string[] = []
  for (let n = reader.count(8); n > 0; n--) ids.push(`${reader.int32()}_${reader.int32()}`)
  return ids
}

/** Kafka's `bytes`: int32 length, then the bytes. */
function readBytes(reader: ByteReader): Buffer {
  const length = reader.int32()
  if (length < 0) throw new SerializationError(`Corrupt subscription userData: byte length ${length}`)
  return reader.bytes(length)
}
