/**
 * Wires the StreamsPartitionAssignor into the stream threads of one KafkaStreams instance: what
 * the threads subscribe to, the assignor each thread's consumer offers, the local state it
 * reports (process id, owned tasks, offset sums from checkpoints) and how an assignment is
 * decoded for the task manager. @internal
 */
import type { TopologyDef } from '../topology/definitions.js'
import type { ResolvedStreamsConfig } from '../config/streams-config.js'
import { resolveClientConfigs } from '../config/client-configs.js'
import { join } from 'node:path'
import type { KafkaClientFactory } from './kafka/ports.js'
import type { GroupAssignor, MemberAssignment } from './consumer/consumer-api.js'
import { StreamsPartitionAssignor } from './assignment/streams-partition-assignor.js'
import { assignorTopologyFrom } from './assignment/topology-metadata.js'
import { decodeAssignment } from './assignment/assignment-info.js'
import { AssignorError } from './assignment/assignor-error.js'
import { LATEST_OFFSET } from './assignment/subscription-info.js'
import type { StateDirectory } from './state/state-directory.js'
import { OffsetCheckpoint } from './state/offset-checkpoint.js'
import type { DecodedAssignment } from './stream-thread.js'

export interface ThreadAssignmentOptions {
  readonly def: TopologyDef
  readonly config: ResolvedStreamsConfig
  readonly processId: string
  readonly clients: KafkaClientFactory
  readonly stateDirectory: StateDirectory
  /** Whether this instance asks the whole application to shut down (SHUTDOWN_APPLICATION). */
  readonly shutdownRequested: () => boolean
}

/** What one stream thread owns. */
export interface OwnTasks {
  /** Its tasks, active and standby, with their offset sums (TaskManager.taskOffsetSums: LATEST_OFFSET when running). */
  readonly offsetSums: ReadonlyMap<string, number>
}

const NO_TASKS: OwnTasks = { offsetSums: new Map() }

export interface ThreadAssignment {
  readonly sourceTopics: readonly string[] | RegExp
  /**
   * The assignor of one thread's consumer; `ownTasks` tells what the thread owns when it joins
   * (each thread reports its own tasks, as Kafka Streams' threads do).
   */
  assignor(ownTasks?: () => OwnTasks): GroupAssignor
  decode(assignment: MemberAssignment): DecodedAssignment
  /**
   * Reads the checkpoints of every task directory on disk (before the first join and before each
   * rejoin): a thread also reports the offset sums of the task directories no thread of its
   * instance owns, as Kafka Streams' threads do, so the leader sees the state a restarted instance
   * still has.
   */
  refreshTaskDirs(): Promise<void>
  /** Creates the repartition (and changelog) topics before the threads subscribe. */
  prepareInternalTopics(): Promise<void>
  /** Closes the admin client the assignors share. */
  close(): Promise<void>
}

export function createThreadAssignment(options: ThreadAssignmentOptions): ThreadAssignment {
  const { def, config } = options
  const topology = assignorTopologyFrom(def, config.applicationId, {
    repartitionTopics: def.internalTopics,
    copartitionGroups: def.copartitionGroups,
    windowstoreChangelogAdditionalRetentionMs: config.windowstoreChangelogAdditionalRetentionMs
  })
  const topics = new Set<string>()
  const patterns: RegExp[] = []
  for (const sub of topology.subtopologies) {
    for (const t of sub.sourceTopics) topics.add(t)
    for (const t of sub.repartitionSourceTopics) topics.add(t)
    patterns.push(...sub.sourcePatterns)
  }
  const sourceTopics: readonly string[] | RegExp =
    patterns.length === 0
      ? [...topics]
      : new RegExp([...patterns.map(p => `(?:${p.source})`), ...[...topics].map(escapeRegExp)].map(s => `^(?:${s})$`).join('|'))
  const clientConfigs = resolveClientConfigs(config, config, options.clients.clientConfigs ?? {})
  const admin = options.clients.admin({
    clientId: `${config.clientId ?? config.applicationId}-assignor-admin`,
    configs: clientConfigs.admin.adapterConfigs
  })
  const assignor = (ownTasks: () => OwnTasks = () => NO_TASKS): StreamsPartitionAssignor =>
    new StreamsPartitionAssignor({
      topology,
      admin,
      config: {
        applicationId: config.applicationId,
        numStandbyReplicas: config.numStandbyReplicas,
        acceptableRecoveryLag: config.acceptableRecoveryLag,
        maxWarmupReplicas: config.maxWarmupReplicas,
        probingRebalanceIntervalMs: config.probingRebalanceIntervalMs,
        replicationFactor: config.replicationFactor,
        topicConfigs: clientConfigs.topic
      },
      localState: () => {
        const own = ownTasks()
        // The active (not suspended) and standby tasks of every thread of this instance, on any thread.
        const owned = new Set(options.stateDirectory.ownedTasks())
        const sums = new Map([...dirSums].filter(([task]) => !owned.has(task)))
        for (const [task, sum] of own.offsetSums) sums.set(task, sum)
        return {
          processId: options.processId,
          userEndpoint: config.applicationServer ?? '',
          taskOffsetSums: sums,
          activeTasks: [...own.offsetSums].filter(([, sum]) => sum === LATEST_OFFSET).map(([task]) => task),
          errorCode: options.shutdownRequested() ? AssignorError.SHUTDOWN_REQUESTED : AssignorError.NONE
        }
      }
    })
  let dirSums = new Map<string, number>()
  return {
    sourceTopics,
    refreshTaskDirs: async () => {
      const sums = new Map<string, number>()
      for (const task of await options.stateDirectory.listTaskDirs()) {
        try {
          const offsets = await new OffsetCheckpoint(join(options.stateDirectory.taskDir(task), '.checkpoint')).read()
          let sum = 0
          for (const { offset } of offsets.values()) if (offset >= 0) sum += offset + 1
          if (offsets.size > 0) sums.set(task.toString(), sum)
        } catch {
          // A corrupted checkpoint tells nothing about the state: the task is not reported.
        }
      }
      dirSums = sums
    },
    close: async () => admin.close(),
    assignor,
    prepareInternalTopics: async () => {
      if (def.internalTopics.size === 0) return
      const counts = await admin.partitionCounts(await admin.listTopics())
      await assignor().prepareInternalTopics(counts)
    },
    decode: assignment => {
      const info = decodeAssignment(assignment)
      return {
        activeTasks: info.activeTasks,
        standbyTasks: info.standbyTasks,
        errorCode: info.errorCode,
        errorMessage: info.errorMessage,
        nextRebalanceMs: info.nextRebalanceMs,
        partitionsByHost: info.partitionsByHost,
        standbyPartitionsByHost: info.standbyPartitionsByHost
      }
    }
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
