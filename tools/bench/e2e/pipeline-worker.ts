/**
 * Child process of the e2e bench: runs one contender, so every run starts from a fresh process
 * (no JIT, heap or client state shared between contenders) and can be profiled on its own
 * (node --cpu-prof). Talks to the parent over the fork IPC channel (worker-protocol.ts). The
 * parent times the run; this process only starts and stops the pipeline.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { RunningPipeline } from './pipelines.js'
import { installLinearGrouping } from './linear-grouping.js'
import { writeLoadedSourceMaps } from './profile-summary.js'
import { LINEAR_GROUPING_ARG, SOURCE_MAPS_ENV, type ParentMessage, type WorkerMessage } from './worker-protocol.js'

// Before kafkajs is loaded (pipelines.ts imports it).
if (process.argv.includes(LINEAR_GROUPING_ARG)) installLinearGrouping()
const { startPipeline } = await import('./pipelines.js')

const send = (message: WorkerMessage): void => {
  process.send?.(message)
}
const describe = (error: unknown): string =>
  error instanceof Error
    ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''}`
    : String(error)

let running: RunningPipeline | undefined
/** Event-loop delay: a blocked loop sends no heartbeats (the group drops a member after sessionTimeoutMs). */
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
const maxBlockMs = (): number => Math.round(loopDelay.max / 1e6)

async function onMessage(message: ParentMessage): Promise<void> {
  if (message.type === 'start') {
    loopDelay.enable()
    running = await startPipeline(message.spec, error => {
      send({ type: 'failed', message: `${describe(error)} [longest event-loop block so far: ${maxBlockMs()} ms]` })
    })
    send({ type: 'started' })
  } else {
    loopDelay.disable()
    const blocked = maxBlockMs()
    await running?.stop()
    const mapsPath = process.env[SOURCE_MAPS_ENV]
    if (mapsPath !== undefined && mapsPath !== '') writeLoadedSourceMaps(mapsPath)
    send({ type: 'stopped', maxBlockMs: blocked })
    // An explicit exit lets --cpu-prof write its profile, and ends kafkajs' lingering timers.
    process.exit(0)
  }
}

if (process.send === undefined) {
  process.stderr.write('pipeline-worker.ts is started by e2e-bench.ts, not by hand\n')
  process.exit(2)
}
process.on('message', (message: ParentMessage) => {
  onMessage(message).catch(error => {
    send({ type: 'failed', message: describe(error) })
    process.exitCode = 1
    setTimeout(() => process.exit(1), 100)
  })
})
process.on('disconnect', () => process.exit(1))
send({ type: 'ready' })
