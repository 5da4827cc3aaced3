/**
 * One timed run of one contender: forks a pipeline worker, waits until it has loaded its modules,
 * then starts the clock, tells it to start, and polls the output topic's end offsets every
 * POLL_MS until they add up to the target (or the run times out; an exactly-once run polls the
 * committed input offsets instead, RunOptions.progress). Stops the worker untimed
 * (a clean close that commits) and reports records/s. The clock covers everything an
 * application does from start() on: client connections, the group join and assignment, task and
 * store creation, changelog topic creation, processing, and the acknowledged writes.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { readdir, rename, rm } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import type { BenchCluster } from './bench-cluster.js'
import type { PipelineSpec } from './pipelines.js'
import { LINEAR_GROUPING_ARG, SOURCE_MAPS_ENV, type ParentMessage, type WorkerMessage } from './worker-protocol.js'
import { mapsPathOf } from './profile-summary.js'
import { ChildInbox } from './child-inbox.js'

export const POLL_MS = 250
const WORKER = fileURLToPath(new URL('./pipeline-worker.ts', import.meta.url))
const STOP_TIMEOUT_MS = 120_000

export interface RunOptions {
  readonly cluster: BenchCluster
  readonly spec: PipelineSpec
  /** Output records that end the run. */
  readonly records: number
  readonly timeoutMs: number
  /** Write a CPU profile (node --cpu-prof) of the worker to this file. */
  readonly profilePath?: string | undefined
  /** Replace kafkajs' quadratic message grouping in the worker (linear-grouping.ts). */
  readonly linearGrouping?: boolean
  /** Aborts the run (Ctrl-C): the worker is killed and timePipeline rejects. */
  readonly signal?: AbortSignal
  /**
   * Counts the output so far, polled during the run (default: the
   * output topic's end offsets, which under exactly_once_v2 would count uncommitted records and
   * transaction markers too).
   */
  readonly progress?: () => Promise<number>
  /** Counts the output after the close (default: progress). */
  readonly finalCount?: () => Promise<number>
}

export interface RunResult {
  readonly records: number
  /** Output records seen when the clock stopped (>= records unless timedOut). */
  readonly reached: number
  readonly elapsedMs: number
  readonly recordsPerSecond: number
  readonly timedOut: boolean
  /** Time from start to the first poll that saw output (start-up: connections, group join, tasks). */
  readonly firstOutputMs: number
  /** Longest event-loop block in the worker while the pipeline ran (until stop). */
  readonly maxBlockMs: number
  /** Highest 1-minute load average seen during the run (other work on the machine). */
  readonly maxLoad: number
  /** Output records after the worker closed. */
  readonly finalCount: number
}

export async function timePipeline(options: RunOptions): Promise<RunResult> {
  const { cluster, spec, records } = options
  const progress = options.progress ?? (async () => await cluster.count(spec.outputTopic))
  const finalCount = options.finalCount ?? progress
  const env = { ...process.env, [SOURCE_MAPS_ENV]: options.profilePath === undefined ? '' : mapsPathOf(options.profilePath) }
  const worker = new WorkerHandle(
    fork(WORKER, options.linearGrouping === true ? [LINEAR_GROUPING_ARG] : [], {
      execArgv: workerExecArgv(options.profilePath),
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc']
    })
  )
  try {
    await worker.next('ready')
    const start = performance.now()
    worker.send({ type: 'start', spec })
    let reached = 0
    let timedOut = false
    let elapsedMs = 0
    let firstOutputMs = Number.NaN
    let maxLoad = loadavg()[0]!
    for (;;) {
      await worker.sleepOrFail(POLL_MS)
      options.signal?.throwIfAborted()
      reached = await progress()
      elapsedMs = performance.now() - start
      if (reached > 0 && Number.isNaN(firstOutputMs)) firstOutputMs = elapsedMs
      maxLoad = Math.max(maxLoad, loadavg()[0]!)
      if (reached >= records) break
      if (elapsedMs > options.timeoutMs) {
        timedOut = true
        break
      }
    }
    worker.send({ type: 'stop' })
    const { maxBlockMs } = await worker.stopped(STOP_TIMEOUT_MS)
    await worker.exited()
    if (options.profilePath !== undefined) await keepMainThreadProfile(options.profilePath)
    return {
      records,
      reached,
      elapsedMs,
      recordsPerSecond: reached / (elapsedMs / 1000),
      timedOut,
      firstOutputMs,
      maxBlockMs,
      maxLoad,
      finalCount: await finalCount()
    }
  } finally {
    worker.kill()
  }
}

function workerExecArgv(profilePath: string | undefined): string[] {
  const args = ['--conditions=@kstreams/source', '--import', 'tsx']
  if (profilePath === undefined) return args
  return [...args, '--enable-source-maps', '--cpu-prof', `--cpu-prof-dir=${profileTempDir(profilePath)}`]
}

const profileTempDir = (profilePath: string): string => `${profilePath}.d`

/**
 * Every thread writes a profile (tsx's module hooks run in a worker thread); keeps the main
 * thread's (CPU.<date>.<time>.<pid>.<thread id 0>.<seq>.cpuprofile) as `profilePath`.
 */
async function keepMainThreadProfile(profilePath: string): Promise<void> {
  const dir = profileTempDir(profilePath)
  const main = (await readdir(dir)).find(f => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f))
  if (main === undefined) throw new Error(`no main-thread CPU profile in ${dir}`)
  await rename(join(dir, main), profilePath)
  await rm(dir, { recursive: true, force: true })
}

/** The parent's side of the IPC protocol with one worker. */
class WorkerHandle {
  readonly #child: ChildProcess
  readonly #inbox: ChildInbox<WorkerMessage>
  readonly #exit: Promise<void>

  constructor(child: ChildProcess) {
    this.#child = child
    this.#inbox = new ChildInbox('pipeline worker', () => child.exitCode !== null)
    child.on('message', (message: WorkerMessage) => {
      if (message.type === 'failed') this.#inbox.fail(new Error(`pipeline worker failed: ${message.message}`))
      else this.#inbox.push(message)
    })
    this.#exit = new Promise(resolve => {
      child.on('exit', (code, signal) => {
        this.#inbox.fail(code !== 0 ? new Error(`pipeline worker exited with ${signal ?? `code ${String(code)}`}`) : undefined)
        resolve()
      })
    })
  }

  send(message: ParentMessage): void {
    this.#child.send(message)
  }

  async stopped(timeoutMs: number): Promise<{ maxBlockMs: number }> {
    const message = await this.next('stopped', timeoutMs)
    return { maxBlockMs: message.type === 'stopped' ? message.maxBlockMs : Number.NaN }
  }

  /** Waits for a message of this type and takes it; throws if the worker failed or exited first. */
  async next(type: WorkerMessage['type'], timeoutMs = 300_000): Promise<WorkerMessage> {
    return await this.#inbox.waitFor(type, timeoutMs, true)
  }

  /** Sleeps (woken early by a message or the exit); throws if the worker failed. */
  async sleepOrFail(ms: number): Promise<void> {
    await this.#inbox.sleepOrFail(ms)
  }

  async exited(): Promise<void> {
    await this.#exit
  }

  kill(): void {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL')
  }
}
