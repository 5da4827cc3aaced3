/**
 * Builds a stream thread of a KafkaStreams instance, the same way on the main thread and on a
 * worker thread: its name and transactional id from its index, the assignor that reports its own
 * tasks, and the hooks its owner listens on. @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import type { Clock } from '../clock.js'
import { childLogger, type Logger } from '../logger.js'
import type { StreamsError } from '../errors.js'
import type { StateStore } from '../state/state-store.js'
import type { KafkaClientFactory, TopicPartition } from './kafka/ports.js'
import type { StateDirectory } from './state/state-directory.js'
import type { ThreadAssignment } from './thread-assignment.js'
import type { StateRestoreListener } from './state-restore-listener.js'
import type { StandbyUpdateListener } from './standby-update-listener.js'
import { configuredDeserializationHandler } from './deserialization-handler.js'
import { StreamThread, type StreamThreadState } from './stream-thread.js'

/** What every stream thread of one instance shares. */
export interface StreamThreadEnvironment {
  readonly def: TopologyDef
  readonly config: ResolvedStreamsConfig
  readonly processId: string
  readonly clients: KafkaClientFactory
  readonly stateDirectory: StateDirectory
  readonly assignment: ThreadAssignment
  readonly clock: Clock
  readonly logger: Logger
  readonly globalStores: ReadonlyMap<string, StateStore>
  readonly restoreListener: StateRestoreListener | undefined
  readonly standbyUpdateListener: StandbyUpdateListener | undefined
  readonly isPaused: () => boolean
}

/** What the owner of a stream thread hears from it. */
export interface StreamThreadHooks {
  /** A new assignment: what every instance with an applicationServer hosts. */
  readonly onAssignment: (
    partitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>,
    standbyPartitionsByHost: ReadonlyMap<string, readonly TopicPartition[]>
  ) => void
  readonly onStateChange: (from: StreamThreadState, to: StreamThreadState) => void
  readonly onFailure: (error: StreamsError) => void
  readonly onShutdownRequested: () => void
}

/** The stream thread `StreamThread-<index>`, not started. */
export function newStreamThread(
  env: StreamThreadEnvironment,
  index: number,
  cacheSizeBytes: number | undefined,
  hooks: StreamThreadHooks
): StreamThread {
  const { config, assignment } = env
  const thread: StreamThread = new StreamThread({
    name: `StreamThread-${index}`,
    // Kafka Streams' EOS v2 transactional id: the same process and thread index fence their predecessor.
    transactionalId: config.processingGuarantee === 'exactly_once_v2' ? `${config.applicationId}-${env.processId}-${index}` : undefined,
    cacheSizeBytes,
    topology: env.def,
    sourceTopics: assignment.sourceTopics,
    config,
    clock: env.clock,
    logger: childLogger(env.logger, { thread: `${config.clientId ?? config.applicationId}-StreamThread-${index}` }),
    clients: env.clients,
    stateDirectory: env.stateDirectory,
    assignor: assignment.assignor(() => ({ offsetSums: thread.taskManager.taskOffsetSums() })),
    beforeRejoin: async () => await assignment.refreshTaskDirs(),
    decodeAssignment: a => {
      const decoded = assignment.decode(a)
      if (decoded.errorCode === 0 && decoded.partitionsByHost !== undefined)
        hooks.onAssignment(decoded.partitionsByHost, decoded.standbyPartitionsByHost ?? new Map())
      return decoded
    },
    globalStores: env.globalStores,
    restoreListener: env.restoreListener,
    standbyUpdateListener: env.standbyUpdateListener,
    isPaused: env.isPaused,
    onStateChange: (_t, from, to) => hooks.onStateChange(from, to),
    onFailure: (_t, error) => hooks.onFailure(error),
    deserializationErrorHandler: configuredDeserializationHandler(config, env.logger),
    onShutdownRequested: () => hooks.onShutdownRequested()
  })
  return thread
}
