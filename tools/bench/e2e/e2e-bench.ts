/**
 * End-to-end benchmark on a real broker: records/s of kstreams applications (KafkaStreams) next
 * to a raw kafkajs consume -> produce loop doing no processing, on the same input, in one run.
 *   (a) kstreams source -> sink (ByteArray serdes), on records with word keys and 100-byte values
 *   (b) kstreams WordCount-shaped count: source -> count in a RocksDB store with a changelog ->
 *       sink of (word, count), one output record per input record, on (word, word) records
 *   baseline: kafkajs eachBatch -> producer.sendBatch of the same batch, once per input
 * The inputs are written once per run (untimed); each contender then runs in its own worker
 * process with a fresh group/application id, output topic and state directory, once as a
 * warm-up and then once per round (interleaved). A run is timed from start until the output
 * topic's end offsets add up to the record count. Everything created is deleted at the end.
 *
 * Usage (tools/bench): npm run bench:e2e -- [--records=1000000] [--warmup=100000] [--rounds=1]
 *   [--partitions=4] [--vocabulary=10000] [--commit-interval-ms=30000] [--timeout-s=600]
 *   [--max-message-bytes=67108864] [--baseline-slice=5000] [--linear-grouping]
 *   [--profile=a,b,baseline-bytes,baseline-words] [--profile-dir=DIR]
 * --max-message-bytes is set on the output and changelog topics (0: broker default, 1 MB, with
 * which kstreams fails with MESSAGE_TOO_LARGE once its send buffer outgrows 1 MB per partition).
 * --baseline-slice: most messages per baseline sendBatch (0: a whole fetched batch).
 * --linear-grouping: every worker swaps kafkajs' O(n^2) groupMessagesPerPartition for a linear
 * one (linear-grouping.ts), to show what patching kafkajs would gain.
 * Broker: KAFKA_BOOTSTRAP_SERVERS, else a local one started (and stopped) by the bench.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { BenchCluster } from './bench-cluster.js'
import { makeVocabulary, produceInput, xorshift, VALUE_BYTES, type InputKind } from './input-data.js'
import { timePipeline, type RunResult } from './pipeline-run.js'
import { STORE_NAME, type PipelineKind } from './pipelines.js'
import { summarizeProfile } from './profile-summary.js'
import { formatReport, type ContenderResult } from './report.js'

interface Contender { readonly id: string, readonly label: string, readonly pipeline: PipelineKind, readonly input: InputKind }

const CONTENDERS: readonly Contender[] = [
  { id: 'baseline-bytes', label: 'baseline: kafkajs loop, 100-byte values', pipeline: 'baseline', input: 'bytes' },
  { id: 'a', label: '(a) kstreams source -> sink', pipeline: 'passthrough', input: 'bytes' },
  { id: 'baseline-words', label: 'baseline: kafkajs loop, word values', pipeline: 'baseline', input: 'words' },
  { id: 'b', label: '(b) kstreams count, RocksDB + changelog', pipeline: 'count', input: 'words' }
]
const RATIOS = [
  { label: '(a) / baseline (100-byte values)', numerator: CONTENDERS[1]!.label, denominator: CONTENDERS[0]!.label },
  { label: '(b) / baseline (word values)', numerator: CONTENDERS[3]!.label, denominator: CONTENDERS[2]!.label }
]

interface Options {
  records: number
  warmup: number
  rounds: number
  partitions: number
  vocabulary: number
  commitIntervalMs: number
  timeoutS: number
  maxMessageBytes: number
  baselineSlice: number
  linearGrouping: boolean
  profile: string[]
  profileDir: string | undefined
}

function parseOptions (argv: readonly string[]): Options {
  const o: Options = { records: 1_000_000, warmup: 100_000, rounds: 1, partitions: 4, vocabulary: 10_000, commitIntervalMs: 30_000, timeoutS: 600, maxMessageBytes: 64 * 1024 * 1024, baselineSlice: 5000, linearGrouping: false, profile: [], profileDir: undefined }
  for (const arg of argv) {
    if (arg === '--linear-grouping') { o.linearGrouping = true; continue }
    const m = /^--([a-z-]+)=(.*)$/.exec(arg)
    const name = m?.[1]
    const value = m?.[2] ?? ''
    if (name === 'profile') {
      o.profile = value.split(',').filter(v => v !== '')
      const unknown = o.profile.filter(id => !CONTENDERS.some(c => c.id === id))
      if (unknown.length > 0) throw new Error(`--profile: unknown contender(s) ${unknown.join(', ')}; expected ${CONTENDERS.map(c => c.id).join(', ')}`)
    } else if (name === 'profile-dir') {
      o.profileDir = value
    } else {
      const key = ({ records: 'records', warmup: 'warmup', rounds: 'rounds', partitions: 'partitions', vocabulary: 'vocabulary', 'commit-interval-ms': 'commitIntervalMs', 'timeout-s': 'timeoutS', 'max-message-bytes': 'maxMessageBytes', 'baseline-slice': 'baselineSlice' } as const)[name as 'records']
      if (key === undefined || !/^\d+$/.test(value)) throw new Error(`Unknown argument ${arg}; see the header of tools/bench/e2e/e2e-bench.ts`)
      o[key] = Number(value)
    }
  }
  if (o.records < 1 || o.rounds < 1 || o.partitions < 1 || o.vocabulary < 1) throw new Error('records, rounds, partitions and vocabulary must be at least 1')
  if (o.warmup > o.records) throw new Error('--warmup cannot exceed --records (the warm-up reads the same input)')
  return o
}

const log = (line: string): void => { process.stderr.write(`[bench:e2e ${new Date().toISOString().slice(11, 19)}] ${line}\n`) }
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

async function main (): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  const began = performance.now()
  const loadAtStart = loadavg()
  const abort = new AbortController()
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130)
    log('interrupted: cleaning up (Ctrl-C again to quit at once)')
    abort.abort()
  })
  const runId = `bench-e2e-${Date.now().toString(36)}`
  const tempRoot = await mkdtemp(join(tmpdir(), 'kstreams-bench-e2e-'))
  const profileDir = options.profile.length === 0 ? undefined : options.profileDir ?? join(tmpdir(), `${runId}-profiles`)
  if (profileDir !== undefined) await mkdir(profileDir, { recursive: true })
  const cluster = await BenchCluster.connect(log)
  const results = new Map(CONTENDERS.map(c => [c.id, { rates: [] as number[], timedOut: [] as boolean[] }]))
  const profiles: string[] = []
  try {
    const inputs: Record<InputKind, string> = { bytes: `${runId}-in-bytes`, words: `${runId}-in-words` }
    await cluster.createTopics(Object.values(inputs), options.partitions)
    const vocabulary = makeVocabulary(options.vocabulary, xorshift(0x5eed))
    for (const kind of ['bytes', 'words'] as const) {
      const t = performance.now()
      await produceInput({ kafka: cluster.kafka, topic: inputs[kind], kind, records: options.records, partitions: options.partitions, vocabulary, seed: kind === 'bytes' ? 1 : 2 })
      const count = await cluster.count(inputs[kind])
      if (count !== options.records) throw new Error(`input ${inputs[kind]} has ${count} records, expected ${options.records}`)
      log(`input ${inputs[kind]}: ${fmt(count)} records (${kind === 'bytes' ? `${VALUE_BYTES}-byte values` : 'word values'}) written in ${((performance.now() - t) / 1000).toFixed(1)} s (untimed)`)
    }

    const run = async (contender: Contender, tag: string, records: number, profile: boolean): Promise<RunResult> => {
      const groupId = `${runId}-${tag}-${contender.id}`
      const outputTopic = `${groupId}-out`
      const stateDir = join(tempRoot, `${tag}-${contender.id}`)
      const profilePath = profile && profileDir !== undefined ? join(profileDir, `${contender.id}-${tag}.cpuprofile`) : undefined
      await cluster.createTopics([outputTopic], options.partitions, options.maxMessageBytes > 0 ? { 'max.message.bytes': String(options.maxMessageBytes) } : {})
      try {
        const result = await timePipeline({
          cluster,
          records,
          timeoutMs: options.timeoutS * 1000,
          profilePath,
          linearGrouping: options.linearGrouping,
          signal: abort.signal,
          spec: { pipeline: contender.pipeline, bootstrapServers: cluster.bootstrapServers, inputTopic: inputs[contender.input], outputTopic, groupId, stateDir, commitIntervalMs: options.commitIntervalMs, maxMessageBytes: options.maxMessageBytes, baselineSlice: options.baselineSlice }
        })
        const changelog = contender.pipeline === 'count' ? `, changelog ${fmt(await cluster.count(`${groupId}-${STORE_NAME}-changelog`))}` : ''
        log(`${tag.padEnd(7)} ${contender.label}: ${fmt(result.reached)} records in ${(result.elapsedMs / 1000).toFixed(2)} s = ${fmt(result.recordsPerSecond)} records/s` +
          `${result.timedOut ? ' (TIMED OUT)' : ''}; first output after ${(result.firstOutputMs / 1000).toFixed(2)} s; ` +
          `longest event-loop block ${fmt(result.maxBlockMs)} ms; output after close ${fmt(result.finalCount)}${changelog}; load avg up to ${result.maxLoad.toFixed(1)}`)
        if (tag !== 'warm-up' && !result.timedOut && result.finalCount !== records) log(`  warning: expected exactly ${fmt(records)} output records after close`)
        if (profilePath !== undefined) profiles.push(profilePath)
        return result
      } finally {
        await rm(stateDir, { recursive: true, force: true })
        await cluster.deleteTopicsWithPrefix(`${groupId}-`).catch(error => { log(`could not delete the topics of ${groupId}: ${String(error)}`) })
        await cluster.deleteGroups([groupId]).catch(() => undefined)
      }
    }

    /** A failed run is logged and counts as NaN (shown as "failed"); Ctrl-C ends the bench. */
    const tryRun = async (c: Contender, tag: string, records: number, profile: boolean): Promise<RunResult | undefined> => {
      try {
        return await run(c, tag, records, profile)
      } catch (error) {
        if (abort.signal.aborted) throw error
        log(`${tag} ${c.label} FAILED: ${error instanceof Error ? error.message : String(error)}`)
        return undefined
      }
    }
    if (options.warmup > 0) {
      for (const c of CONTENDERS) await tryRun(c, 'warm-up', options.warmup, false)
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const c of CONTENDERS) {
        const r = results.get(c.id)!
        const result = await tryRun(c, `round-${round}`, options.records, round === 1 && options.profile.includes(c.id))
        r.rates.push(result?.recordsPerSecond ?? Number.NaN)
        r.timedOut.push(result?.timedOut ?? false)
      }
    }

    const title = `records/s, end to end on one broker: ${fmt(options.records)} records, ${options.partitions} partitions, ` +
      `${options.rounds} round(s)`
    const settings = `commitIntervalMs ${options.commitIntervalMs}; output/changelog max.message.bytes ${options.maxMessageBytes === 0 ? 'broker default' : options.maxMessageBytes}; ` +
      `baseline sendBatch slices of ${options.baselineSlice === 0 ? 'a whole fetched batch' : `${options.baselineSlice} messages`}; kafkajs grouping ${options.linearGrouping ? 'replaced by a linear one (--linear-grouping)' : 'as installed (linear since the kstreams kafkajs patch)'}`
    const report = formatReport(title, CONTENDERS.map((c): ContenderResult => ({ label: c.label, ...results.get(c.id)! })), RATIOS)
    const load = (l: number[]): string => l.map(v => v.toFixed(1)).join(' ')
    report.push('', settings, `machine: ${cpus().length} cores; load average (1/5/15 min) ${load(loadAtStart)} at start, ${load(loadavg())} at the end`)
    process.stdout.write('\n' + report.join('\n') + '\n')
    for (const profile of profiles) process.stdout.write('\n' + summarizeProfile(profile).join('\n') + '\n')
  } finally {
    const deleted = await cluster.deleteTopicsWithPrefix(runId).catch(() => [])
    await cluster.deleteGroupsWithPrefix(runId).catch(() => undefined)
    await cluster.close()
    await rm(tempRoot, { recursive: true, force: true })
    log(`cleaned up (${deleted.length} topic(s) deleted${profileDir !== undefined ? `; profiles kept in ${profileDir}` : ''}); ${((performance.now() - began) / 1000).toFixed(0)} s in all`)
  }
}

main().catch(error => {
  if (error instanceof Error && error.name === 'AbortError') process.exit(130)
  process.stderr.write(`bench:e2e failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`)
  process.exit(1)
})
