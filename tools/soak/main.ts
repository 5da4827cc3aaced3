/**
 * The kstreams soak test (issue 28): two instances of one application (app.ts: a windowed count, a
 * stream-stream join and a stream-table join on RocksDB stores, on @kstreams/platformatic), each
 * in a process of its own, under steady input for `--minutes`, one of them restarted every few
 * minutes in turn (a clean close, or every other time a SIGKILL, then a new process on the same
 * state directory). Each instance reports its memory every few seconds. When the input stops and
 * the application has caught up (lag 0), both close, the output is checked against the input
 * (output-check.ts) and the memory of each life is judged (verdict.ts). Writes samples.csv,
 * events.csv, chart.svg and summary.txt to artifacts/soak/<run id>/ (or --out), prints the
 * summary, and exits 0 when the run passed, 1 when it failed, 2 on a usage error.
 * Broker: KAFKA_BOOTSTRAP_SERVERS, else a local one started (and stopped) here. Options: options.ts.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeArtifacts } from './artifacts.js'
import { Fleet } from './fleet.js'
import { InputLedger } from './input-ledger.js'
import { OutputCheck, type KindResult, type OutputKind } from './output-check.js'
import { parseOptions, planRestarts, UsageError, USAGE, type SoakOptions } from './options.js'
import { SteadyProducer } from './producer.js'
import type { InstanceSpec } from './protocol.js'
import { inputTopics, outputTopics, soakTopics } from './records.js'
import { SoakCluster } from './soak-cluster.js'
import { formatSummary } from './summary.js'
import { judgeLife, runFailures } from './verdict.js'

const START_TIMEOUT_MS = 180_000
const CATCH_UP_TIMEOUT_MS = 600_000
const READ_TIMEOUT_MS = 600_000
const PROGRESS_EVERY_MS = 60_000

const log = (line: string): void => {
  process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)
}

let options: SoakOptions
try {
  options = parseOptions(process.argv.slice(2))
} catch (error) {
  if (!(error instanceof UsageError)) throw error
  process.stderr.write(`${error.message}\n${USAGE}\n`)
  process.exit(2)
}

const runId = `soak-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}-${randomBytes(2).toString('hex')}`
const outDir = options.outDir ?? fileURLToPath(new URL(`../../artifacts/soak/${runId}`, import.meta.url))
const guarantee = options.eos ? 'exactly_once_v2' : 'at_least_once'
const plan = planRestarts(options)
const setup =
  `${(options.durationMs / 60_000).toFixed(1)} min, ${guarantee}, ${options.rate} records/s, ` +
  `${options.keys} keys, ${options.partitions} partitions, ` +
  (plan.length > 0
    ? `${plan.length} restart${plan.length > 1 ? 's' : ''} every ${(options.restartEveryMs / 60_000).toFixed(1)} min ` +
      `(${options.restarts === 'one' ? 'A only' : 'A and B in turn'}, ${plan.filter(r => r.kill).length} by SIGKILL)`
    : 'no restarts')
const description = `kstreams soak ${runId}: ${setup}`
let interrupted = false
process.on('SIGINT', () => {
  interrupted = true
})

await mkdir(outDir, { recursive: true })
log(description)
log(`artifacts: ${outDir}`)
const cluster = await SoakCluster.connect(log)
const topics = soakTopics(runId)
const ledger = new InputLedger(options.keys)
const producer = new SteadyProducer(cluster.kafka, topics, ledger, options.rate)
let stateRoot: string | undefined
let fleet: Fleet | undefined
let inputStartMs: number | undefined
let inputEndMs: number | undefined
let exitCode = 1
let summary = ''

/** Polls `done` every second until it holds; throws when an instance or the producer failed, on Ctrl-C, or after `timeoutMs`. */
async function waitFor(what: string, done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    fleet?.throwIfFailed()
    producer.throwIfFailed()
    if (interrupted) throw new Error('interrupted')
    if (await done()) return
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs / 1000} s`)
    await new Promise(resolve => setTimeout(resolve, 1000))
  }
}

function progress(f: Fleet): void {
  const latest = new Map(f.samples.map(s => [s.instance, s]))
  const memory = [...latest.values()].map(
    s => `${s.instance}${s.life} rss ${(s.rss / 1048576).toFixed(0)} heap ${(s.heapUsed / 1048576).toFixed(0)} MiB`
  )
  log(`${(f.now() / 60_000).toFixed(1)} min: ${producer.records.toLocaleString('en-US')} records produced; ${memory.join(', ')}`)
}

async function readOutputs(exact: boolean): Promise<KindResult[]> {
  const check = new OutputCheck(ledger, exact)
  const kinds: OutputKind[] = ['counts', 'joined', 'enriched']
  for (const [i, topic] of outputTopics(topics).entries()) {
    const kind = kinds[i]!
    await cluster.readAll(topic, `${runId}-verify-${kind}`, (key, value) => check.add(kind, key, value), READ_TIMEOUT_MS)
  }
  return check.result()
}

try {
  await cluster.createTopics([...inputTopics(topics), ...outputTopics(topics)], options.partitions)
  await producer.connect()
  await producer.preloadUsers()
  stateRoot = await mkdtemp(join(tmpdir(), `${runId}-`))
  const applicationId = `${runId}-app`
  const specs = ['A', 'B'].map(
    (name): InstanceSpec => ({
      name,
      applicationId,
      bootstrapServers: cluster.bootstrapServers,
      stateDir: join(stateRoot!, name),
      topics,
      eos: options.eos,
      commitIntervalMs: options.commitIntervalMs,
      sampleEveryMs: options.sampleEveryMs
    })
  )
  const f = (fleet = new Fleet(specs, outDir))
  f.startAll()
  await waitFor(
    'both instances to start and load the users table',
    async () => f.allStarted && (await cluster.lag(applicationId, [topics.users])) === 0,
    START_TIMEOUT_MS
  )
  log(`both instances running, users table loaded (${(f.now() / 1000).toFixed(1)} s); input starts`)
  inputStartMs = f.now()
  producer.start()

  const done = { clean: 0, killed: 0 }
  let nextProgress = PROGRESS_EVERY_MS
  await waitFor(
    'the end of the run',
    async () => {
      const next = plan[done.clean + done.killed]
      if (next !== undefined && f.now() >= next.atMs) {
        const what = next.kill ? 'SIGKILL' : 'clean close'
        log(
          `restart ${done.clean + done.killed + 1}/${plan.length}: ${what} of ${next.instance}, then a new process on its state directory`
        )
        await f.restart(next.instance, next.kill)
        done[next.kill ? 'killed' : 'clean']++
      }
      if (f.now() >= nextProgress) {
        progress(f)
        nextProgress += PROGRESS_EVERY_MS
      }
      return f.now() >= options.durationMs
    },
    options.durationMs + CATCH_UP_TIMEOUT_MS
  )

  inputEndMs = f.now()
  await producer.stop()
  log(`input stopped: ${producer.records.toLocaleString('en-US')} records; waiting for the application to catch up`)
  await waitFor(
    'the application to catch up (lag 0)',
    async () => (await cluster.lag(applicationId, inputTopics(topics))) === 0,
    CATCH_UP_TIMEOUT_MS
  )
  const caughtUpMs = f.now() - inputEndMs
  log(`caught up after ${(caughtUpMs / 1000).toFixed(1)} s; closing both instances`)
  await f.stopAll()

  const exact = options.eos || done.killed === 0
  log(`checking the output (${exact ? 'exact' : 'at least the input: a SIGKILL under at-least-once may count twice'})`)
  const outputs = await readOutputs(exact)
  const rule = { warmupMs: options.warmupMs, windowMs: options.windowMs, maxGrowth: options.maxGrowth }
  const lives = f.lives(inputEndMs).map(life => judgeLife(life, f.samples, rule))
  const failures = runFailures(outputs, lives)
  summary = formatSummary(
    { description, inputMs: inputEndMs - inputStartMs, caughtUpMs, clicks: ledger.clicks, users: ledger.users, restarts: done, ...rule },
    outputs,
    lives,
    failures
  )
  exitCode = failures.length === 0 ? 0 : 1
} catch (error) {
  summary = `${description}\n\nverdict: FAIL\n  - the run did not finish: ${error instanceof Error ? error.message : String(error)}\n`
  if (error instanceof Error && error.cause !== undefined) summary += `    cause: ${String(error.cause)}\n`
} finally {
  await fleet?.killAll()
  await producer.stop().catch(() => {})
  if (fleet !== undefined) await writeArtifacts(outDir, [`kstreams soak ${runId}`, setup], fleet, { inputStartMs, inputEndMs }, summary)
  await cluster.deleteTopics(runId).catch(error => log(`could not delete the topics of ${runId}: ${String(error)}`))
  await cluster.deleteGroups(runId).catch(error => log(`could not delete the groups of ${runId}: ${String(error)}`))
  if (stateRoot !== undefined) await rm(stateRoot, { recursive: true, force: true })
  await cluster.close()
}
process.stdout.write(`\n${summary}\nartifacts: ${outDir}\n`)
process.exit(exitCode)
