/**
 * One instance of the soak application, in a process of its own (forked by the soak with its
 * InstanceSpec as the argument): runs the application (app.ts) on @kstreams/platformatic, sends
 * a sample (sampler.ts) at start and every sampleEveryMs, and closes cleanly when told to stop.
 * It exits when the parent goes away. SOAK_LOG_LEVEL (default warn) is kstreams' log on stderr.
 */
import { consoleLogger, KafkaStreams } from '@kstreams/core'
import { platformatic } from '@kstreams/platformatic'
import { soakTopology } from './app.js'
import type { ChildMessage, InstanceSpec, ParentMessage } from './protocol.js'
import { takeSample } from './sampler.js'

/** The record cache of the instance (statestoreCacheMaxBytes). */
const CACHE_BYTES = 256 << 10
/** The RocksDB block cache, and the RocksDB write buffers, of all the stores of the instance. */
const ROCKSDB_BYTES = 8 << 20

const send = (message: ChildMessage): void => {
  process.send?.(message)
}
const describe = (error: unknown): string =>
  error instanceof Error
    ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''}`
    : String(error)

if (process.send === undefined || process.argv[2] === undefined) {
  process.stderr.write('instance.ts is started by the soak (main.ts), not by hand\n')
  process.exit(2)
}
const spec = JSON.parse(process.argv[2]) as InstanceSpec
const gc = (globalThis as { gc?: () => void }).gc
const level = (process.env.SOAK_LOG_LEVEL ?? 'warn') as 'warn'

const streams = new KafkaStreams(
  soakTopology(spec.topics),
  {
    applicationId: spec.applicationId,
    bootstrapServers: spec.bootstrapServers,
    clientId: `${spec.applicationId}-${spec.name}`,
    stateDir: spec.stateDir,
    commitIntervalMs: spec.commitIntervalMs,
    processingGuarantee: spec.eos ? 'exactly_once_v2' : 'at_least_once',
    // Bounded caches, small so that they fill up within a minute or two and their growth does not
    // pass for a leak (the defaults, 10 MiB and 64 + 64 MiB, take many minutes to fill at a soak's rate).
    statestoreCacheMaxBytes: CACHE_BYTES,
    rocksdbBlockCacheBytes: ROCKSDB_BYTES,
    rocksdbWriteBufferBytes: ROCKSDB_BYTES
  },
  { client: platformatic(), logger: consoleLogger(level, { instance: spec.name }) }
)
streams.setUncaughtExceptionHandler(error => {
  send({ type: 'failed', message: describe(error) })
  return 'SHUTDOWN_CLIENT'
})
streams.setStateListener((to, from) => {
  send({ type: 'state', from, to })
})

let sampling: NodeJS.Timeout | undefined

function sample(): void {
  const threads = streams.metadataForLocalThreads()
  const tasks = { active: 0, standby: 0 }
  for (const thread of threads) {
    tasks.active += thread.activeTasks.length
    tasks.standby += thread.standbyTasks.length
  }
  send({ type: 'sample', sample: takeSample(gc, tasks) })
}
let stopping = false

async function stop(leaveGroup: boolean): Promise<void> {
  if (stopping) return
  stopping = true
  clearInterval(sampling)
  await streams.close({ leaveGroup })
  send({ type: 'stopped' })
  process.exit(0)
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stop') {
    stop(message.leaveGroup).catch(error => {
      send({ type: 'failed', message: `close: ${describe(error)}` })
      process.exit(1)
    })
  }
})
process.on('disconnect', () => process.exit(1))

try {
  await streams.start()
} catch (error) {
  send({ type: 'failed', message: `start: ${describe(error)}` })
  process.exit(1)
}
send({ type: 'started' })
sample()
sampling = setInterval(sample, spec.sampleEveryMs)
