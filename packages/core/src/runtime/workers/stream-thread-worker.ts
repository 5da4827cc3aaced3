/**
 * The entry of a worker thread that runs one stream thread of a KafkaStreams instance
 * (KafkaStreams.onWorkerThreads). It imports the application module, builds the topology, config
 * and client from it, and runs a StreamThread with its own clients, tasks and stores; the task
 * locks and the pause / shutdown-requested flags are shared memory of the instance. It tells the
 * main thread its state changes, failures, assignments and listener calls, and its status
 * (metadata, progress, metrics) every statusIntervalMs. @internal
 */
import { parentPort, workerData } from 'node:worker_threads'
import { TOPOLOGY_DEF } from '../../topology/internal.js'
import { resolveStreamsConfig, type ResolvedStreamsConfig } from '../../config/streams-config.js'
import { systemClock } from '../../clock.js'
import { childLogger, silentLogger } from '../../logger.js'
import type { StateStore } from '../../state/state-store.js'
import { GlobalStreamThread, globalThreadName } from '../global-stream-thread.js'
import { configuredDeserializationHandler } from '../deserialization-handler.js'
import { ConfigError, StreamsError } from '../../errors.js'
import { createClients } from '../kafka-streams.js'
import { StateDirectory } from '../state/state-directory.js'
import { TaskLocks } from '../state/task-locks.js'
import { createThreadAssignment } from '../thread-assignment.js'
import { newStreamThread } from '../new-stream-thread.js'
import type { StreamThread } from '../stream-thread.js'
import type { StateRestoreListener } from '../state-restore-listener.js'
import type { StandbyUpdateListener } from '../standby-update-listener.js'
import { loadStreamsApp } from './streams-app.js'
import { waitAsync } from '../wait-async.js'
import { toWire } from './wire-values.js'
import { serveSyncCalls } from './sync-calls.js'
import { answerStoreRequest, type StoreRequest } from './remote-stores.js'
import {
  CONTROL_PAUSED,
  CONTROL_SHUTDOWN_REQUESTED,
  CONTROL_START_GATE,
  errorToWire,
  type FromWorker,
  type ThreadStatus,
  type ToWorker,
  type WorkerThreadData
} from './thread-messages.js'

const data = workerData as WorkerThreadData
const port = parentPort!
const post = (message: FromWorker): void => port.postMessage(message)
const control = new Int32Array(data.control)
/** The thread, once built: interactive queries read its stores (none before). */
let queried: StreamThread | undefined
/** This worker's copy of the global stores (filled by its global thread's bootstrap). */
const globalStores = new Map<string, StateStore>()
if (data.queries !== undefined) {
  serveSyncCalls(data.queries, request =>
    answerStoreRequest((name, stale, global) => {
      if (!global) return queried?.taskManager.queryableStores(name, stale) ?? []
      const store = globalStores.get(name)
      return store === undefined ? [] : [{ partition: -1, store }]
    }, request as StoreRequest)
  )
}

/**
 * Messages from the main thread. Until the thread runs they wait here, except a shutdown, which
 * stops the start at its next step (a global bootstrap at once) and is carried out after it.
 */
let handle: (message: ToWorker) => void
const waiting: ToWorker[] = []
/** The shutdown asked for while starting, if any. */
let shutdownWhileStarting: Extract<ToWorker, { type: 'shutdown' }> | undefined
/** The global thread bootstrapping now, if any: a shutdown while starting stops it. */
let bootstrapping: GlobalStreamThread | undefined
handle = message => {
  if (message.type === 'shutdown') {
    shutdownWhileStarting ??= message
    void bootstrapping?.shutdown().catch(() => undefined)
  } else waiting.push(message)
}
port.on('message', (message: ToWorker) => handle(message))

/** Fails the start once a shutdown was asked for. */
function checkNotShutDown(): void {
  if (shutdownWhileStarting !== undefined)
    throw new StreamsError('ILLEGAL_STATE', `StreamThread-${data.index} was shut down while it started`)
}

const LISTENER_METHODS = {
  restore: ['onRestoreStart', 'onBatchRestored', 'onRestoreEnd', 'onRestoreSuspended'],
  standby: ['onUpdateStart', 'onBatchLoaded', 'onUpdateSuspended']
} as const

/** A listener that hands every call to the main thread's listener. */
function relay<T extends object>(listener: 'restore' | 'standby'): T {
  return Object.fromEntries(
    LISTENER_METHODS[listener].map(method => [
      method,
      (...args: unknown[]) => post({ type: 'listener', listener, method, args: toWire(args) })
    ])
  ) as T
}

function status(thread: StreamThread, global: GlobalStreamThread | undefined): unknown {
  const tasks = thread.taskManager
  const s: ThreadStatus = {
    state: thread.state,
    metadata: thread.metadata(),
    activeTaskIds: tasks.activeTaskIds,
    standbyOffsetSums: tasks.standbyOffsetSums(),
    restoreProgress: tasks.restoreProgress(),
    standbyProgress: tasks.standbyProgress(),
    changelogPositions: tasks.changelogPositions(),
    metrics: [...thread.metrics.metrics(), ...(global?.metrics.metrics() ?? [])]
  }
  return toWire(s)
}

/** How long a ready worker waits for the threads started with it before it joins the group anyway. */
const START_GATE_TIMEOUT_MS = 60_000

/** Counts this worker off at the start gate and waits until every thread started with it is ready (or the gate opens). */
async function passStartGate(): Promise<void> {
  let left = Atomics.load(control, CONTROL_START_GATE)
  while (left > 0) {
    const seen = Atomics.compareExchange(control, CONTROL_START_GATE, left, left - 1)
    if (seen === left) break
    left = seen
  }
  if (left <= 1) {
    Atomics.notify(control, CONTROL_START_GATE)
    return
  }
  const deadline = Date.now() + START_GATE_TIMEOUT_MS
  for (;;) {
    const now = Atomics.load(control, CONTROL_START_GATE)
    const wait = deadline - Date.now()
    if (now <= 0 || wait <= 0) return
    await waitAsync(control, CONTROL_START_GATE, now, wait)
  }
}

/**
 * The worker's config, with its share of the instance's RocksDB memory budget: the stores of one
 * worker cannot draw on another's, so each gets rocksdbBlockCacheBytes / numStreamThreads (and so
 * rocksdbWriteBufferBytes), and the instance as a whole stays within what was configured.
 */
function withRocksDBShare(config: ResolvedStreamsConfig): ResolvedStreamsConfig {
  const threads = Math.max(1, config.numStreamThreads)
  return Object.freeze({
    ...config,
    rocksdbBlockCacheBytes: Math.floor(config.rocksdbBlockCacheBytes / threads),
    rocksdbWriteBufferBytes: Math.floor(config.rocksdbWriteBufferBytes / threads)
  })
}

async function main(): Promise<void> {
  const app = await loadStreamsApp(data.module)
  const config = withRocksDBShare(resolveStreamsConfig(app.config))
  for (const key of ['applicationId', 'stateDir'] as const) {
    if (config[key] !== data[key])
      throw new ConfigError(
        'workerModule',
        `The module ${data.module} built ${key} "${config[key]}" on the worker thread of StreamThread-${data.index}, but "${data[key]}" on the main thread: it must build the same application every time`
      )
  }
  const logger = app.options.logger ?? silentLogger
  const def = app.topology[TOPOLOGY_DEF]()
  const clients = createClients(config, app.options.client!, logger)
  const stateDirectory = new StateDirectory(config.stateDir, config.applicationId, new TaskLocks(data.taskLocks))
  const assignment = createThreadAssignment({
    def,
    config,
    processId: data.processId,
    clients,
    stateDirectory,
    shutdownRequested: () => Atomics.load(control, CONTROL_SHUTDOWN_REQUESTED) === 1
  })
  let thread: StreamThread | undefined
  let globalThread: GlobalStreamThread | undefined
  const restoreListener = data.relayRestore ? relay<StateRestoreListener>('restore') : undefined
  try {
    await assignment.refreshTaskDirs()
    if (def.globalStores.length > 0) {
      // This worker's own copy of the global stores, complete before its stream thread processes.
      globalThread = new GlobalStreamThread({
        topology: def,
        config,
        clock: systemClock,
        logger: childLogger(logger, { thread: `${config.clientId ?? config.applicationId}-${globalThreadName(data.index)}` }),
        clients,
        stateDirectory,
        restoreListener,
        deserializationErrorHandler: configuredDeserializationHandler(config, logger),
        onFailure: error => post({ type: 'globalFailure', error: errorToWire(error) }),
        copy: data.index
      })
      bootstrapping = globalThread
      await globalThread.start()
      bootstrapping = undefined
      checkNotShutDown()
      for (const [name, store] of globalThread.stores) globalStores.set(name, store)
    }
    thread = newStreamThread(
      {
        def,
        config,
        processId: data.processId,
        clients,
        stateDirectory,
        assignment,
        clock: systemClock,
        logger,
        globalStores,
        restoreListener,
        standbyUpdateListener: data.relayStandby ? relay<StandbyUpdateListener>('standby') : undefined,
        isPaused: () => Atomics.load(control, CONTROL_PAUSED) === 1
      },
      data.index,
      data.cacheSizeBytes,
      {
        onAssignment: (partitionsByHost, standbyPartitionsByHost) =>
          post({ type: 'assignment', partitionsByHost, standbyPartitionsByHost }),
        onStateChange: (from, to) => post({ type: 'state', from, to, status: status(thread!, globalThread) }),
        onFailure: error => post({ type: 'failure', error: errorToWire(error) }),
        onShutdownRequested: () => post({ type: 'shutdownRequested' })
      }
    )
    await passStartGate()
    checkNotShutDown()
    await thread.start()
  } catch (err) {
    await thread?.shutdown(false).catch(() => undefined)
    await globalThread?.shutdown().catch(() => undefined)
    await assignment.close().catch(() => undefined)
    post({ type: 'startFailed', error: errorToWire(err) })
    port.close()
    return
  }
  const running = thread
  queried = thread
  const timer = setInterval(() => post({ type: 'status', status: status(running, globalThread) }), data.statusIntervalMs)
  post({ type: 'started' })
  handle = message => {
    if (message.type === 'resizeCache') running.resizeCache(message.bytes)
    else if (message.type === 'requestRebalance') running.requestRebalance()
    else if (message.type === 'shutdown') {
      clearInterval(timer)
      void (async () => {
        let error: unknown
        await running.shutdown(message.clean, message.leaveGroup).catch(err => {
          error = err
        })
        await globalThread?.shutdown().catch(err => {
          error ??= err
        })
        await assignment.close().catch(err => logger.error(`Error while closing the assignor's admin client: ${String(err)}`))
        post({ type: 'status', status: status(running, globalThread) })
        post({ type: 'closed', error: error === undefined ? undefined : errorToWire(error) })
        port.close()
      })()
    }
  }
  for (const message of waiting.splice(0)) handle(message)
  if (shutdownWhileStarting !== undefined) handle(shutdownWhileStarting)
}

void main().catch(err => {
  post({ type: 'startFailed', error: errorToWire(err) })
  port.close()
})
