/**
 * Child process of `bench:java` for the Node contenders: kstreams on either client adapter, or the
 * raw kafkajs loop, running one workload. Speaks the protocol of tools/bench/java/KStreamsBench.java
 * (lines "BENCH {json}" on stdout, commands "start" and "stop" on stdin), so that the bench runs
 * and times a Node run and a Java run the same way:
 *   node --conditions=@kstreams/source --import tsx vs-java-worker.ts <workload>
 *       --client=kafkajs|platformatic|raw --bootstrap=... --input=... --output=... --app-id=...
 *       --state-dir=... --records=N --commit-interval-ms=N --max-message-bytes=N --baseline-slice=N [--threads=N]
 * passthrough and count-papi are the e2e pipelines (pipelines.ts: 'passthrough', 'count'; with
 * --client=raw the kafkajs loop, 'baseline'); count-dsl, restore and the raw read are in
 * vs-java-workloads.ts. Prints {"type":"ready"} once its modules are loaded.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { startPipeline, type ClientKind, type RunningPipeline } from './pipelines.js'
import { startCountDsl, startRawRead, startRestore, type WorkloadEvents, type WorkloadSpec } from './vs-java-workloads.js'

const emit = (message: Record<string, unknown>): void => {
  process.stdout.write(`BENCH ${JSON.stringify(message)}\n`)
}
const describe = (error: unknown): string =>
  error instanceof Error
    ? `${error.name}: ${error.message}${error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''}`
    : String(error)

const [workload = '', ...rest] = process.argv.slice(2)
const options = new Map(
  rest.map(arg => {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg)
    if (m === null) throw new Error(`vs-java-worker: bad argument ${arg}`)
    return [m[1]!, m[2]!] as const
  })
)
const option = (name: string): string => {
  const value = options.get(name)
  if (value === undefined || value === '') throw new Error(`vs-java-worker: missing --${name}`)
  return value
}
const client = option('client') as ClientKind | 'raw'
const spec: WorkloadSpec = {
  client: client === 'raw' ? 'kafkajs' : client,
  bootstrapServers: option('bootstrap'),
  inputTopic: option('input'),
  outputTopic: option('output'),
  groupId: option('app-id'),
  stateDir: option('state-dir'),
  commitIntervalMs: Number(option('commit-interval-ms')),
  maxMessageBytes: Number(option('max-message-bytes')),
  records: Number(option('records')),
  threads: Number(options.get('threads') ?? '1')
}
const baselineSlice = Number(option('baseline-slice'))

const events: WorkloadEvents = {
  first: () => emit({ type: 'first' }),
  half: records => emit({ type: 'half', records }),
  processed: records => emit({ type: 'processed', records }),
  restored: records => emit({ type: 'restored', records }),
  failed: error => emit({ type: 'failed', message: `${describe(error)} [longest event-loop block so far: ${maxBlockMs()} ms]` })
}

async function start(): Promise<RunningPipeline> {
  if (workload === 'passthrough' || workload === 'count-papi') {
    const pipeline = client === 'raw' ? 'baseline' : workload === 'passthrough' ? 'passthrough' : 'count'
    return await startPipeline(
      { ...spec, pipeline, client: spec.client, processingGuarantee: 'at_least_once', baselineSlice },
      events.failed
    )
  }
  if (workload === 'count-dsl' && client !== 'raw') return await startCountDsl(spec, events)
  if (workload === 'restore') return client === 'raw' ? await startRawRead(spec, events) : await startRestore(spec, events)
  throw new Error(`vs-java-worker: no ${workload} workload for --client=${client}`)
}

/** Event-loop delay: a blocked loop sends no heartbeats (the group drops a member after the session timeout). */
const loopDelay = monitorEventLoopDelay({ resolution: 10 })
const maxBlockMs = (): number => Math.round(loopDelay.max / 1e6)
let running: RunningPipeline | undefined

async function onCommand(command: string): Promise<void> {
  if (command === 'start') {
    loopDelay.enable()
    running = await start()
    emit({ type: 'started' })
  } else if (command === 'stop') {
    loopDelay.disable()
    const blocked = maxBlockMs()
    await running?.stop()
    const cpu = process.cpuUsage()
    emit({ type: 'stopped', cpuMs: Math.round((cpu.user + cpu.system) / 1000), maxBlockMs: blocked })
    // An explicit exit also ends kafkajs' lingering timers.
    process.exit(0)
  }
}

const lines = createInterface({ input: process.stdin })
lines.on('line', line => {
  onCommand(line.trim()).catch(error => {
    emit({ type: 'failed', message: describe(error) })
    setTimeout(() => process.exit(1), 100)
  })
})
lines.on('close', () => process.exit(1))
emit({ type: 'ready' })
