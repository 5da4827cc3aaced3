/**
 * What a stream thread on a worker thread and its handle on the main thread tell each other
 * (values in them cross through wire-values.ts). @internal
 */
import type { TaskId } from '../../task-id.js'
import {
  ConfigError,
  IllegalStateError,
  InvalidStateStoreError,
  ProcessingError,
  SerializationError,
  StreamsError,
  TopologyError,
  type StreamsErrorCode,
  type StreamsErrorOptions
} from '../../errors.js'
import type { MetricSnapshot } from '../../metrics/metric-name.js'
import type { RestoreProgress, StandbyProgress } from '../changelog-reader.js'
import type { ThreadMetadata } from '../thread-metadata.js'
import type { StreamThreadState } from '../stream-thread.js'
import type { TopicPartition } from '../kafka/ports.js'
import type { SyncCallEnd } from './sync-calls.js'

/** Given to each worker. */
export interface WorkerThreadData {
  readonly module: string
  /** The main thread's applicationId and stateDir: the worker's app must have the same. */
  readonly applicationId: string
  readonly stateDir: string
  /** The thread is StreamThread-<index>. */
  readonly index: number
  readonly processId: string
  readonly cacheSizeBytes: number | undefined
  /** The instance's TaskLocks memory. */
  readonly taskLocks: SharedArrayBuffer
  /** The instance's flags (CONTROL_PAUSED, CONTROL_SHUTDOWN_REQUESTED, CONTROL_START_GATE), an Int32Array. */
  readonly control: SharedArrayBuffer
  /** The main thread has a restore / standby-update listener: relay their calls. */
  readonly relayRestore: boolean
  readonly relayStandby: boolean
  /** How often the worker reports its status (metadata, progress, metrics), ms. */
  readonly statusIntervalMs: number
  /** Where the worker answers interactive queries of its stores (set by WorkerStreamThread). */
  readonly queries?: SyncCallEnd
}

export const CONTROL_PAUSED = 0
export const CONTROL_SHUTDOWN_REQUESTED = 1
/**
 * The start gate: how many of the threads started together have yet to be ready. Each worker
 * counts itself off once its thread is built and waits for 0 before its first poll, so that the
 * threads join the group together, in one rebalance, however long each took to load the app.
 */
export const CONTROL_START_GATE = 2
export const CONTROL_INTS = 3

/** What the main thread shows of a worker's thread between reports. */
export interface ThreadStatus {
  readonly state: StreamThreadState
  readonly metadata: ThreadMetadata
  readonly activeTaskIds: readonly TaskId[]
  readonly standbyOffsetSums: ReadonlyMap<string, number>
  readonly restoreProgress: readonly RestoreProgress[]
  readonly standbyProgress: readonly StandbyProgress[]
  readonly changelogPositions: ReadonlyArray<{ storeName: string; changelog: TopicPartition; position: number | 'latest' }>
  readonly metrics: readonly MetricSnapshot[]
}

export interface WireError {
  readonly code: StreamsErrorCode
  readonly message: string
  readonly taskId: string | undefined
  readonly retriable: boolean
  readonly stack: string | undefined
  /** The kstreams error class (errorFromWire builds it again), StreamsError for any other error. */
  readonly kind: ErrorKind
  /** The message of the error's cause, if it had one. */
  readonly cause: string | undefined
  /** A ConfigError's key. */
  readonly key: string | undefined
}

export type FromWorker =
  | { readonly type: 'started' }
  | { readonly type: 'startFailed'; readonly error: WireError }
  | { readonly type: 'state'; readonly from: StreamThreadState; readonly to: StreamThreadState; readonly status: unknown }
  | { readonly type: 'status'; readonly status: unknown }
  | { readonly type: 'failure'; readonly error: WireError }
  /** The worker's global stream thread died: the client goes to ERROR, as with one thread. */
  | { readonly type: 'globalFailure'; readonly error: WireError }
  | { readonly type: 'shutdownRequested' }
  | {
      readonly type: 'assignment'
      readonly partitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
      readonly standbyPartitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
    }
  | { readonly type: 'listener'; readonly listener: 'restore' | 'standby'; readonly method: string; readonly args: unknown }
  | { readonly type: 'closed'; readonly error: WireError | undefined }

export type ToWorker =
  | { readonly type: 'shutdown'; readonly clean: boolean; readonly leaveGroup: boolean }
  | { readonly type: 'resizeCache'; readonly bytes: number }
  | { readonly type: 'requestRebalance' }

/** The kstreams error classes that cross as themselves. */
const ERROR_KINDS = {
  StreamsError: (code: StreamsErrorCode, message: string, o: StreamsErrorOptions) => new StreamsError(code, message, o),
  TopologyError: (code: StreamsErrorCode, message: string, o: StreamsErrorOptions) => new TopologyError(code, message, o),
  SerializationError: (_code: StreamsErrorCode, message: string, o: StreamsErrorOptions) => new SerializationError(message, o),
  IllegalStateError: (_code: StreamsErrorCode, message: string, o: StreamsErrorOptions) => new IllegalStateError(message, o),
  InvalidStateStoreError: (code: StreamsErrorCode, message: string, o: StreamsErrorOptions) => new InvalidStateStoreError(code, message, o),
  ProcessingError: (_code: StreamsErrorCode, message: string, o: StreamsErrorOptions) => new ProcessingError(message, o)
} as const
type ErrorKind = keyof typeof ERROR_KINDS | 'ConfigError'

export function errorToWire(error: unknown): WireError {
  const streams = error instanceof StreamsError ? error : undefined
  const kind = streams?.constructor.name
  const cause = error instanceof Error ? error.cause : undefined
  return {
    code: streams?.code ?? 'ILLEGAL_STATE',
    message: error instanceof Error ? error.message : String(error),
    taskId: streams?.taskId,
    retriable: streams?.retriable ?? false,
    stack: error instanceof Error ? error.stack : undefined,
    kind: kind !== undefined && (kind in ERROR_KINDS || kind === 'ConfigError') ? (kind as ErrorKind) : 'StreamsError',
    cause: cause === undefined ? undefined : cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
    key: error instanceof ConfigError ? error.key : undefined
  }
}

export function errorFromWire(wire: WireError, thread: string): StreamsError {
  const options: StreamsErrorOptions = {
    taskId: wire.taskId,
    retriable: wire.retriable,
    cause: wire.cause === undefined ? undefined : new Error(wire.cause)
  }
  const error =
    wire.kind === 'ConfigError' ? new ConfigError(wire.key ?? '', wire.message) : ERROR_KINDS[wire.kind](wire.code, wire.message, options)
  if (wire.stack !== undefined) error.stack = `${wire.stack}\n    (on the worker thread of ${thread})`
  return error
}
