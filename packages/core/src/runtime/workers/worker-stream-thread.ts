/**
 * The main thread's handle on a stream thread that runs on a worker thread
 * (KafkaStreams.onWorkerThreads): it starts the worker, mirrors the thread's state and its last
 * reported status (metadata, progress, metrics), passes its failures, assignments and listener
 * calls on, and forwards shutdown, cache resizes and rebalance requests. A worker that dies
 * without being asked is a failed thread. @internal
 */
import { Worker } from 'node:worker_threads'
import { StreamsError } from '../../errors.js'
import type { Logger } from '../../logger.js'
import type { TaskId } from '../../task-id.js'
import type { StateStore } from '../../state/state-store.js'
import type { MetricSnapshot } from '../../metrics/metric-name.js'
import type { RestoreProgress, StandbyProgress } from '../changelog-reader.js'
import type { TopicPartition } from '../kafka/ports.js'
import type { StreamThreadState } from '../stream-thread.js'
import type { ThreadMetadata } from '../thread-metadata.js'
import type { StreamThreadHooks } from '../new-stream-thread.js'
import type { StateRestoreListener } from '../state-restore-listener.js'
import type { StandbyUpdateListener } from '../standby-update-listener.js'
import type { TaskLocks } from '../state/task-locks.js'
import { fromWire } from './wire-values.js'
import { SyncCaller } from './sync-calls.js'
import { remoteStores } from './remote-stores.js'
import type { LocalTaskStore } from '../iq/queryable-store-provider.js'
import { changelogTopicName } from '../assignment/topology-metadata.js'
import { errorFromWire, type FromWorker, type ThreadStatus, type ToWorker, type WorkerThreadData } from './thread-messages.js'

/** The worker entry next to this file: .ts when kstreams runs from source, .js when built. */
const WORKER_ENTRY = new URL(`./stream-thread-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)

export interface WorkerStreamThreadOptions {
  readonly data: WorkerThreadData
  readonly hooks: StreamThreadHooks
  readonly restoreListener: StateRestoreListener | undefined
  readonly standbyUpdateListener: StandbyUpdateListener | undefined
  readonly logger: Logger
  /** The worker's global stream thread died (the client goes to ERROR). */
  readonly onGlobalFailure: (error: StreamsError) => void
  /** The instance's task locks: those of a worker that ended are let go. */
  readonly taskLocks: TaskLocks
}

/** How long an interactive query waits for the worker to answer. */
const STORE_QUERY_TIMEOUT_MS = 10_000

/** How long a worker that reported its end (closed, or its start failed) may take to exit before it is terminated. */
const EXIT_GRACE_MS = 2000

export class WorkerStreamThread {
  readonly name: string
  readonly #o: WorkerStreamThreadOptions
  #state: StreamThreadState = 'CREATED'
  #status: ThreadStatus | undefined
  #worker: Worker | undefined
  #shutdown: Promise<void> | undefined
  #shuttingDown = false
  /** The worker reported that its thread could not start: start() rejected, its exit is no failure. */
  #startFailed = false
  #exited: Promise<void> | undefined
  #queries: SyncCaller | undefined
  #closeError: StreamsError | undefined

  constructor(options: WorkerStreamThreadOptions) {
    this.#o = options
    this.name = `StreamThread-${options.data.index}`
  }

  get state(): StreamThreadState {
    return this.#state
  }

  /** The read side of the thread's tasks: as of its last report, and its stores through synchronous calls to the worker. */
  get taskManager() {
    const status = this.#status
    return {
      activeTaskIds: (status?.activeTaskIds ?? []) as TaskId[],
      standbyOffsetSums: (): ReadonlyMap<string, number> => status?.standbyOffsetSums ?? new Map<string, number>(),
      restoreProgress: (): RestoreProgress[] => [...(status?.restoreProgress ?? [])],
      standbyProgress: (): StandbyProgress[] => [...(status?.standbyProgress ?? [])],
      changelogPositions: (): Array<{ storeName: string; changelog: TopicPartition; position: number | 'latest' }> => [
        ...(status?.changelogPositions ?? [])
      ],
      queryableStores: (storeName: string, stale: boolean): LocalTaskStore[] => this.#remoteStores(storeName, stale, false)
    }
  }

  /** The worker's copy of the global store `storeName`; undefined while the worker cannot answer (not started, or ended). */
  globalStore(storeName: string): StateStore | undefined {
    if (this.#state === 'CREATED' || this.#state === 'PENDING_SHUTDOWN') return undefined
    return this.#remoteStores(storeName, false, true)[0]?.store
  }

  #remoteStores(storeName: string, stale: boolean, global: boolean): LocalTaskStore[] {
    if (this.#worker === undefined || this.#queries === undefined || this.#state === 'DEAD') return []
    const options = {
      caller: this.#queries,
      timeoutMs: STORE_QUERY_TIMEOUT_MS,
      prefixTopic: (name: string) => changelogTopicName(this.#o.data.applicationId, name)
    }
    return remoteStores(options, storeName, stale, global)
  }

  /** The thread's metrics as of its last report. */
  get metrics(): { metrics(): MetricSnapshot[] } {
    return { metrics: () => [...(this.#status?.metrics ?? [])] }
  }

  metadata(): ThreadMetadata {
    const reported = this.#status?.metadata
    if (reported !== undefined) return { ...reported, threadState: this.#state }
    return {
      threadName: this.name,
      threadState: this.#state,
      activeTasks: [],
      standbyTasks: [],
      mainConsumerClientId: '',
      restoreConsumerClientId: '',
      producerClientIds: [],
      adminClientId: ''
    }
  }

  /** Starts the worker; resolves once its thread runs (it joins the group at its first poll). */
  async start(): Promise<void> {
    const queries = new SyncCaller(this.name)
    this.#queries = queries
    const worker = new Worker(WORKER_ENTRY, {
      workerData: { ...this.#o.data, queries: queries.workerEnd } satisfies WorkerThreadData,
      transferList: [queries.workerEnd.port],
      name: this.name
    })
    this.#worker = worker
    // Read now: an ended worker's threadId is -1.
    const workerThreadId = worker.threadId
    let settle: ((error?: StreamsError) => void) | undefined
    const started = new Promise<void>((resolve, reject) => {
      settle = error => (error === undefined ? resolve() : reject(error))
    })
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'started') settle?.()
      else if (message.type === 'startFailed') {
        this.#startFailed = true
        settle?.(errorFromWire(message.error, this.name))
        this.#terminateLater()
      } else this.#onMessage(message)
    })
    let crash: Error | undefined
    worker.on('error', error => {
      crash = error
    })
    this.#exited = new Promise<void>(resolve => {
      worker.on('exit', code => {
        // Whatever the worker's thread held is free now (it closed its stores, or died with them),
        // the task lock table's lock too if it was terminated holding it (terminate() skips `finally`).
        this.#o.taskLocks.unlockThread(workerThreadId)
        queries.close()
        const reason = crash ?? (code === 0 ? undefined : new Error(`exit code ${code}`))
        const why = String(reason?.message ?? 'it exited')
        settle?.(new StreamsError('ILLEGAL_STATE', `The worker thread of ${this.name} stopped before its thread ran: ${why}`))
        // A worker that ends before its thread started fails start() (above), nothing else.
        if (settle === undefined && !this.#shuttingDown && !this.#startFailed && this.#state !== 'DEAD') {
          // The failure first: the handler decides (REPLACE_THREAD) while the thread is not yet DEAD.
          this.#o.hooks.onFailure(new StreamsError('ILLEGAL_STATE', `The worker thread of ${this.name} died: ${why}`, { cause: reason }))
        } else if (this.#shuttingDown && crash !== undefined) {
          this.#closeError ??= new StreamsError('ILLEGAL_STATE', `The worker thread of ${this.name} crashed while closing: ${why}`, {
            cause: crash
          })
        }
        this.#setState('DEAD')
        resolve()
      })
    })
    await started
    settle = undefined
  }

  #onMessage(message: FromWorker): void {
    switch (message.type) {
      case 'state':
        this.#status = fromWire(message.status) as ThreadStatus
        // Once shutting down, earlier states still in the queue do not bring the thread back.
        if (!this.#shuttingDown || message.to === 'DEAD') this.#setState(message.to)
        break
      case 'status':
        this.#status = fromWire(message.status) as ThreadStatus
        break
      case 'failure':
        this.#o.hooks.onFailure(errorFromWire(message.error, this.name))
        break
      case 'globalFailure':
        this.#o.onGlobalFailure(errorFromWire(message.error, this.name))
        break
      case 'shutdownRequested':
        this.#o.hooks.onShutdownRequested()
        break
      case 'assignment':
        this.#o.hooks.onAssignment(message.partitionsByHost, message.standbyPartitionsByHost)
        break
      case 'listener':
        this.#relay(message.listener, message.method, fromWire(message.args) as unknown[])
        break
      case 'closed':
        if (message.error !== undefined) this.#closeError = errorFromWire(message.error, this.name)
        this.#terminateLater()
        break
    }
  }

  #relay(listener: 'restore' | 'standby', method: string, args: unknown[]): void {
    const target = (listener === 'restore' ? this.#o.restoreListener : this.#o.standbyUpdateListener) as
      | Record<string, ((...a: unknown[]) => void) | undefined>
      | undefined
    try {
      target?.[method]?.(...args)
    } catch (err) {
      this.#o.logger.error(`The ${listener} listener threw in ${method}: ${String(err)}`)
    }
  }

  /** A worker whose app left something running (a timer, a socket) is stopped after a grace period. */
  #terminateLater(): void {
    const worker = this.#worker
    setTimeout(() => void worker?.terminate(), EXIT_GRACE_MS).unref()
  }

  #setState(to: StreamThreadState): void {
    const from = this.#state
    if (from === to && (to === 'DEAD' || to === 'PENDING_SHUTDOWN')) return
    this.#state = to
    this.#o.hooks.onStateChange(from, to)
  }

  #send(message: ToWorker): void {
    this.#worker?.postMessage(message)
  }

  resizeCache(bytes: number): void {
    this.#send({ type: 'resizeCache', bytes })
  }

  requestRebalance(): void {
    this.#send({ type: 'requestRebalance' })
  }

  /** Stops the thread (commits when `clean`) and waits for its worker to end; once, whoever asks. */
  async shutdown(clean: boolean, leaveGroup = true): Promise<void> {
    this.#shutdown ??= (async () => {
      this.#shuttingDown = true
      if (this.#worker === undefined) {
        this.#setState('DEAD')
        return
      }
      if (this.#state !== 'DEAD') this.#setState('PENDING_SHUTDOWN')
      this.#send({ type: 'shutdown', clean, leaveGroup })
      await this.#exited
      if (this.#closeError !== undefined) throw this.#closeError
    })()
    await this.#shutdown
  }
}
