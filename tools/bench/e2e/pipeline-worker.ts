/**
 * Child process of the e2e bench: runs one contender, so every run starts from a fresh process
 * (no JIT, heap or client state shared between contenders) and can be profiled on its own
 * (node --cpu-prof). Talks to the parent over the fork IPC channel (worker-protocol.ts). The
 * parent times the run; this process only starts and stops the pipeline.
 */
import { startPipeline, type RunningPipeline } from './pipelines.js'
import { writeLoadedSourceMaps } from './profile-summary.js'
import { SOURCE_MAPS_ENV, type ParentMessage, type WorkerMessage } from './worker-protocol.js'

const send = (message: WorkerMessage): void => { process.send?.(message) }
const describe = (error: unknown): string => error instanceof Error ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''}` : String(error)

let running: RunningPipeline | undefined

async function onMessage (message: ParentMessage): Promise<void> {
  if (message.type === 'start') {
    running = await startPipeline(message.spec, error => { send({ type: 'failed', message: describe(error) }) })
    send({ type: 'started' })
  } else {
    await running?.stop()
    const mapsPath = process.env[SOURCE_MAPS_ENV]
    if (mapsPath !== undefined && mapsPath !== '') writeLoadedSourceMaps(mapsPath)
    send({ type: 'stopped' })
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
