/**
 * kstreams against Java Kafka Streams, end to end on the same broker, same input, same timing: every
 * figure comes with its ratio to Java measured in the same run. Workloads (rows):
 *   passthrough  source -> sink, ByteArray serdes, on (word, 100-byte value) records
 *   count-papi   Processor API count: store.get/put on a RocksDB store (changelog on, cache off),
 *                one (word, count) output per input, on (word, word) records
 *   count-dsl    stream.groupByKey().count() on RocksDB with the default record cache, .toStream().to()
 *   restore      a fresh instance (empty state directory) restoring the count store from a
 *                changelog of --records records
 * Contenders (columns): Java Kafka Streams (tools/bench/java/KStreamsBench.java, built once with
 * Maven + javac into a cache: vs-java-build.ts), kstreams on @kstreams/kafkajs and on
 * @kstreams/platformatic (vs-java-worker.ts), and the raw kafkajs loop of the e2e bench where the
 * workload has a raw shape (passthrough, count-papi: consume -> produce doing nothing; restore: a
 * read of the changelog). Kafka Streams and kstreams run with their defaults (one stream thread,
 * at_least_once, commit interval 30 s, 10 MiB cache).
 *
 * Inputs are written once (untimed); each restore run gets its own copy of the same changelog
 * (written untimed before it starts). Every run is a fresh process with a fresh application id,
 * output topic and state directory; after a warm-up (--warmup), rounds interleave the contenders
 * (the order rotates each round). A run is timed by this process, the same way for every
 * contender: the child loads its program and says "ready"; the clock starts when it is told
 * "start" and stops when
 *   passthrough, count-papi: the output topic's end offsets (polled every POLL_MS) add up to --records;
 *   count-dsl: the child says its peek before the count has seen --records records (the cache
 *              holds the output back until the next commit);
 *   restore:   the child says it is RUNNING and its StateRestoreListener's onRestoreEnd (and onRestoreSuspended) calls add up
 *              to --records (raw loop: it has read --records records).
 * CPU per record: the child's user + system CPU (/proc/<pid>/stat, all threads) over the timed part,
 * divided by --records; machine CPU per record: the same from /proc/stat (adds the broker). Time to
 * first output: to the first poll that saw output (count-dsl: first record processed; restore: the
 * first onRestoreStart). The restore rows show records / time from the first onRestoreStart to the
 * end (the restore proper, with its CPU) and from "start". Every row also comes over the second
 * half of the runs only (from the half-way mark to the end: a warmed-up rate and CPU).
 *
 * Usage (tools/bench): npm run bench:java -- [--records=1000000] [--rounds=4] [--partitions=4]
 *   [--workloads=passthrough,count-papi,count-dsl,restore] [--contenders=java,kstreams-kafkajs,kstreams-platformatic,raw-kafkajs]
 *   [--warmup=100000] [--vocabulary=10000] [--commit-interval-ms=30000] [--max-message-bytes=67108864] [--timeout-s=600]
 *   [--threads=1]
 * --threads: num.stream.threads of Java and kstreams (kstreams runs each on its own worker thread,
 * KafkaStreams.onWorkerThreads; count-dsl then runs on Java only); the raw loops stay one loop.
 * --warmup: before the rounds, every pair runs once on this many records, untimed (0: none), so
 * that the first measured run does not pay for the broker's own warm-up.
 * Broker: KAFKA_BOOTSTRAP_SERVERS, else a local one started (and stopped) by the bench.
 * BENCH_JAVA_LOG_LEVEL: the Java program's SLF4J level (default warn; info shows Kafka Streams' start-up).
 * BENCH_JAVA_OPTS: extra JVM arguments, space-separated (default none: JVM defaults).
 * BENCH_NODE_OPTS: extra Node arguments for the Node contenders, space-separated (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`: a profile per run, summarised by profile-summary.ts).
 */
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { BenchCluster } from './bench-cluster.js'
import { makeVocabulary, produceInput, xorshift, type InputKind } from './input-data.js'
import { STORE_NAME } from './pipelines.js'
import { median } from './report.js'
import { buildJavaBench, type JavaBench } from './vs-java-build.js'
import { ContenderProcess, machineCpuMs, processCpuMs } from './vs-java-child.js'
import { sumOfLastCounts, writeChangelog } from './vs-java-topics.js'
import { halfOf } from './vs-java-workloads.js'

const POLL_MS = 100
const READY_TIMEOUT_MS = 300_000
const STOP_TIMEOUT_MS = 180_000
const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url))
const WORKER = fileURLToPath(new URL('./vs-java-worker.ts', import.meta.url))
/** The seeds input-data.ts's inputs are written with (as in e2e-bench.ts). */
const SEEDS: Record<InputKind, number> = { bytes: 1, words: 2 }

type WorkloadId = 'passthrough' | 'count-papi' | 'count-dsl' | 'restore'
type ContenderId = 'java' | 'kstreams-kafkajs' | 'kstreams-platformatic' | 'raw-kafkajs'

interface Workload {
  readonly id: WorkloadId
  readonly label: (records: number) => string
  /** The input the apps read (restore: an empty topic; the raw read gets the changelog). */
  readonly input: InputKind | 'empty'
  /** What ends the timed part. */
  readonly end: 'output' | 'processed' | 'restored'
  /** What "first output" means for it. */
  readonly first: string
}

const WORKLOADS: readonly Workload[] = [
  { id: 'passthrough', label: () => 'source -> sink, 100-byte values', input: 'bytes', end: 'output', first: 'first output record' },
  {
    id: 'count-papi',
    label: () => 'count, Processor API, RocksDB + changelog, no cache',
    input: 'words',
    end: 'output',
    first: 'first output record'
  },
  {
    id: 'count-dsl',
    label: () => 'DSL groupByKey().count(), RocksDB, default cache',
    input: 'words',
    end: 'processed',
    first: 'first record processed'
  },
  {
    id: 'restore',
    label: records => `restore of ${fmt(records)} changelog records`,
    input: 'empty',
    end: 'restored',
    first: 'first onRestoreStart'
  }
]

interface Contender {
  readonly id: ContenderId
  readonly label: string
  readonly workloads: readonly WorkloadId[]
}

/** @platformatic/kafka 2.x declares Node >= 22.22 (as in e2e-bench.ts). */
const nodeVersion = process.versions.node.split('.').map(Number)
const platformaticSupported = nodeVersion[0]! > 22 || (nodeVersion[0] === 22 && nodeVersion[1]! >= 22)

function contendersFor(kafkaStreamsVersion: string, threads: number): Contender[] {
  // count-dsl's kstreams run reports its progress from a peek on the main thread: one thread only.
  const kstreams: WorkloadId[] =
    threads > 1 ? ['passthrough', 'count-papi', 'restore'] : ['passthrough', 'count-papi', 'count-dsl', 'restore']
  return [
    { id: 'java', label: `Java Kafka Streams ${kafkaStreamsVersion}`, workloads: ['passthrough', 'count-papi', 'count-dsl', 'restore'] },
    { id: 'kstreams-kafkajs', label: 'kstreams (kafkajs)', workloads: kstreams },
    { id: 'kstreams-platformatic', label: 'kstreams (platformatic)', workloads: kstreams },
    { id: 'raw-kafkajs', label: 'raw kafkajs loop', workloads: ['passthrough', 'count-papi', 'restore'] }
  ]
}
const CONTENDER_IDS: readonly ContenderId[] = ['java', 'kstreams-kafkajs', 'kstreams-platformatic', 'raw-kafkajs']

interface Options {
  records: number
  rounds: number
  partitions: number
  vocabulary: number
  commitIntervalMs: number
  maxMessageBytes: number
  timeoutS: number
  warmup: number
  /** Stream threads of every Kafka Streams contender (kstreams: each on a worker thread); the raw loops stay one loop. */
  threads: number
  workloads: WorkloadId[]
  contenders: ContenderId[] | undefined
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    records: 1_000_000,
    rounds: 4,
    partitions: 4,
    vocabulary: 10_000,
    commitIntervalMs: 30_000,
    maxMessageBytes: 64 * 1024 * 1024,
    timeoutS: 600,
    warmup: 100_000,
    threads: 1,
    workloads: WORKLOADS.map(w => w.id),
    contenders: undefined
  }
  for (const arg of argv) {
    const m = /^--([a-z-]+)=(.*)$/.exec(arg)
    const name = m?.[1]
    const value = m?.[2] ?? ''
    if (name === 'workloads') {
      const ids = value.split(',').filter(v => v !== '')
      const unknown = ids.filter(id => !WORKLOADS.some(w => w.id === id))
      if (unknown.length > 0 || ids.length === 0)
        throw new Error(`--workloads: expected some of ${WORKLOADS.map(w => w.id).join(', ')}, got ${value}`)
      o.workloads = ids as WorkloadId[]
    } else if (name === 'contenders') {
      const ids = value.split(',').filter(v => v !== '')
      const unknown = ids.filter(id => !CONTENDER_IDS.includes(id as ContenderId))
      if (unknown.length > 0 || ids.length === 0)
        throw new Error(`--contenders: expected some of ${CONTENDER_IDS.join(', ')}, got ${value}`)
      o.contenders = ids as ContenderId[]
    } else {
      const key = (
        {
          records: 'records',
          rounds: 'rounds',
          partitions: 'partitions',
          vocabulary: 'vocabulary',
          'commit-interval-ms': 'commitIntervalMs',
          'max-message-bytes': 'maxMessageBytes',
          'timeout-s': 'timeoutS',
          warmup: 'warmup',
          threads: 'threads'
        } as const
      )[name as 'records']
      if (key === undefined || !/^\d+$/.test(value))
        throw new Error(`Unknown argument ${arg}; see the header of tools/bench/e2e/vs-java-bench.ts`)
      o[key] = Number(value)
    }
  }
  if (o.records < 1 || o.rounds < 1 || o.partitions < 1 || o.vocabulary < 1 || o.threads < 1)
    throw new Error('records, rounds, partitions, vocabulary and threads must be at least 1')
  if (o.warmup > o.records) throw new Error('--warmup cannot exceed --records (the warm-up reads the same input)')
  return o
}

const log = (line: string): void => {
  process.stderr.write(`[bench:java ${new Date().toISOString().slice(11, 19)}] ${line}\n`)
}
const fmt = (n: number): string => (Number.isNaN(n) ? 'failed' : Math.round(n).toLocaleString('en-US'))

/** One measured run. */
interface Run {
  /** records / (start -> end). */
  readonly rate: number
  readonly elapsedMs: number
  /** start -> the "first" event (Workload.first). */
  readonly firstMs: number
  /** Child CPU over start -> end, µs per record. */
  readonly cpuUsPerRecord: number
  /** The whole machine's CPU over start -> end (the child, the broker, the bench, anything else), µs per record. */
  readonly machineCpuUsPerRecord: number
  /** records / (first -> end): the restore proper (restore: from the first onRestoreStart). */
  readonly afterFirstRate: number
  /** Child CPU over first -> end, µs per record. */
  readonly afterFirstCpuUsPerRecord: number
  /** Machine CPU over first -> end, µs per record. */
  readonly afterFirstMachineCpuUsPerRecord: number
  /** Records / time over the second half of the run (from the half-way mark to the end): warmed up. */
  readonly secondHalfRate: number
  /** Child CPU over the second half, µs per record of the second half. */
  readonly secondHalfCpuUsPerRecord: number
  /** Machine CPU over the second half, µs per record of the second half. */
  readonly secondHalfMachineCpuUsPerRecord: number
}

/** Builds the packages (tsc -b, incremental): the Node children run kstreams from them. */
function buildPackages(): void {
  const started = performance.now()
  const result = spawnSync('npx', ['tsc', '-b'], { cwd: join(BENCH_DIR, '..', '..'), stdio: 'inherit' })
  if (result.status !== 0) throw new Error(`Building the packages (tsc -b) failed with status ${result.status}`)
  log(`packages built (tsc -b) in ${Math.round(performance.now() - started)} ms`)
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  const began = performance.now()
  const loadAtStart = loadavg()
  let maxLoad = loadAtStart[0]!
  const abort = new AbortController()
  process.on('SIGINT', () => {
    if (abort.signal.aborted) process.exit(130)
    log('interrupted: cleaning up (Ctrl-C again to quit at once)')
    abort.abort()
  })

  const java = await buildJavaBench(log)
  buildPackages()
  let contenders = contendersFor(java.kafkaStreamsVersion, options.threads).filter(c => options.contenders?.includes(c.id) ?? true)
  if (!platformaticSupported) {
    if (options.contenders?.includes('kstreams-platformatic') === true)
      throw new Error(`--contenders: kstreams-platformatic needs Node >= 22.22 (this is ${process.versions.node})`)
    log(`Node ${process.versions.node}: leaving out kstreams (platformatic) (it needs Node >= 22.22)`)
    contenders = contenders.filter(c => c.id !== 'kstreams-platformatic')
  }
  const workloads = WORKLOADS.filter(w => options.workloads.includes(w.id))
  const runId = `bench-java-${Date.now().toString(36)}`
  const tempRoot = await mkdtemp(join(tmpdir(), 'kstreams-bench-java-'))
  const cluster = await BenchCluster.connect(log)
  const results = new Map<string, (Run | undefined)[]>()
  const key = (w: WorkloadId, c: ContenderId): string => `${w}/${c}`
  const javaInfo = { gc: '', maxHeapMb: 0 }
  try {
    const vocabulary = makeVocabulary(options.vocabulary, xorshift(0x5eed))
    const inputs = { bytes: `${runId}-in-bytes`, words: `${runId}-in-words`, empty: `${runId}-in-empty` }
    const kinds = [...new Set(workloads.map(w => w.input))]
    await cluster.createTopics(
      kinds.map(kind => inputs[kind]),
      options.partitions
    )
    for (const kind of kinds) {
      if (kind === 'empty') continue
      const t = performance.now()
      await produceInput({
        kafka: cluster.kafka,
        topic: inputs[kind],
        kind,
        records: options.records,
        partitions: options.partitions,
        vocabulary,
        seed: SEEDS[kind]
      })
      const count = await cluster.count(inputs[kind])
      if (count !== options.records) throw new Error(`input ${inputs[kind]} has ${count} records, expected ${options.records}`)
      log(`input ${inputs[kind]}: ${fmt(count)} records written in ${((performance.now() - t) / 1000).toFixed(1)} s (untimed)`)
    }

    /** One run of `records` records; tag: 'r1', 'r2', ... or 'warm-up' (not checked afterwards). */
    const run = async (workload: Workload, contender: Contender, tag: string, records: number): Promise<Run> => {
      const appId = `${runId}-${tag}-${workload.id}-${contender.id}`
      const outputTopic = `${appId}-out`
      const changelog = `${appId}-${STORE_NAME}-changelog`
      const stateDir = join(tempRoot, appId)
      const topicConfig: Record<string, string> =
        options.maxMessageBytes > 0 ? { 'max.message.bytes': String(options.maxMessageBytes) } : {}
      const raw = contender.id === 'raw-kafkajs'
      let child: ContenderProcess | undefined
      try {
        await cluster.createTopics([outputTopic], options.partitions, topicConfig)
        if (workload.id === 'restore') {
          const t = performance.now()
          await cluster.createTopics([changelog], options.partitions, { ...topicConfig, 'cleanup.policy': 'compact' })
          await writeChangelog({
            kafka: cluster.kafka,
            topic: changelog,
            records: records,
            partitions: options.partitions,
            vocabulary,
            seed: SEEDS.words
          })
          const count = await cluster.count(changelog)
          if (count !== records) throw new Error(`changelog ${changelog} has ${count} records, expected ${records}`)
          log(`  changelog ${changelog}: ${fmt(count)} records written in ${((performance.now() - t) / 1000).toFixed(1)} s (untimed)`)
        }
        const inputTopic = workload.id === 'restore' && raw ? changelog : inputs[workload.input]
        const args = [
          `--bootstrap=${cluster.bootstrapServers}`,
          `--input=${inputTopic}`,
          `--output=${outputTopic}`,
          `--app-id=${appId}`,
          `--state-dir=${stateDir}`,
          `--records=${records}`,
          `--commit-interval-ms=${options.commitIntervalMs}`,
          `--threads=${options.threads}`
        ]
        child =
          contender.id === 'java'
            ? new ContenderProcess(
                java.javaCommand,
                [
                  ...(process.env.BENCH_JAVA_OPTS ?? '').split(' ').filter(a => a !== ''),
                  `-Dorg.slf4j.simpleLogger.defaultLogLevel=${process.env.BENCH_JAVA_LOG_LEVEL ?? 'warn'}`,
                  '-Dorg.slf4j.simpleLogger.logFile=System.err',
                  '-Dorg.slf4j.simpleLogger.showDateTime=true',
                  '-Dorg.slf4j.simpleLogger.dateTimeFormat=HH:mm:ss.SSS',
                  '-cp',
                  java.classpath,
                  java.mainClass,
                  workload.id,
                  ...args
                ],
                { cwd: BENCH_DIR, prefix: '  [java]' }
              )
            : new ContenderProcess(
                process.execPath,
                [
                  ...(process.env.BENCH_NODE_OPTS ?? '').split(' ').filter(a => a !== ''),
                  // kstreams from its built packages, as users run it (no --conditions=@kstreams/source):
                  // worker threads load compiled JavaScript, not TypeScript through tsx.
                  // kafkajs on Node 23+ schedules a negative timeout: harmless, and noise in the log.
                  '--disable-warning=TimeoutNegativeWarning',
                  '--import',
                  'tsx',
                  WORKER,
                  workload.id,
                  ...args,
                  `--client=${raw ? 'raw' : contender.id === 'kstreams-kafkajs' ? 'kafkajs' : 'platformatic'}`,
                  `--max-message-bytes=${options.maxMessageBytes}`,
                  '--baseline-slice=5000'
                ],
                { cwd: BENCH_DIR, prefix: '  [node]' }
              )
        await child.waitFor('ready', READY_TIMEOUT_MS)
        const cpuStart = processCpuMs(child.pid)
        const machineStart = machineCpuMs()
        const start = performance.now()
        child.send('start')
        let reached = 0
        let firstMs = Number.NaN
        let cpuAtFirst = Number.NaN
        let machineAtFirst = Number.NaN
        const half = { ms: Number.NaN, reached: 0, cpu: Number.NaN, machine: Number.NaN }
        const markHalf = (ms: number, reached: number): void => {
          if (!Number.isNaN(half.ms)) return
          Object.assign(half, { ms, reached, cpu: processCpuMs(child!.pid), machine: machineCpuMs() })
        }
        let elapsedMs = 0
        let runMaxLoad = loadavg()[0]!
        for (;;) {
          await child.sleepOrFail(POLL_MS)
          abort.signal.throwIfAborted()
          runMaxLoad = Math.max(runMaxLoad, loadavg()[0]!)
          if (workload.end === 'output') {
            reached = await cluster.count(outputTopic)
            elapsedMs = performance.now() - start
            if (reached > 0 && Number.isNaN(firstMs)) firstMs = elapsedMs
            if (reached >= halfOf(records) && reached < records) markHalf(elapsedMs, reached)
            if (reached >= records) break
          } else {
            const first = child.find('first')
            if (first !== undefined && Number.isNaN(firstMs)) {
              firstMs = first.at - start
              // Read as soon as the message arrives (a message wakes the sleep above).
              cpuAtFirst = processCpuMs(child.pid)
              machineAtFirst = machineCpuMs()
            }
            const halfWay = child.find('half')
            if (halfWay !== undefined) markHalf(halfWay.at - start, Number(halfWay.records))
            const done = child.find(workload.end)
            if (done !== undefined) {
              elapsedMs = done.at - start
              reached = Number(done.records)
              break
            }
            elapsedMs = performance.now() - start
          }
          if (elapsedMs > options.timeoutS * 1000) throw new Error(`timed out after ${options.timeoutS} s (${fmt(reached)} records)`)
        }
        const cpuAtEnd = processCpuMs(child.pid)
        const machineAtEnd = machineCpuMs()
        const machineMs = machineAtEnd - machineStart
        const cpuMs = cpuAtEnd - cpuStart
        child.send('stop')
        const stopped = await child.waitFor('stopped', STOP_TIMEOUT_MS)
        await child.exited()
        if (contender.id === 'java' && typeof stopped.gc === 'string') {
          javaInfo.gc = stopped.gc
          javaInfo.maxHeapMb = Number(stopped.maxHeapMb)
        }
        maxLoad = Math.max(maxLoad, runMaxLoad)
        const checks = tag === 'warm-up' ? 'warm-up' : await verify(workload, contender, outputTopic, changelog, reached, appId)
        const result: Run = {
          rate: records / (elapsedMs / 1000),
          elapsedMs,
          firstMs,
          cpuUsPerRecord: (cpuMs * 1000) / records,
          machineCpuUsPerRecord: (machineMs * 1000) / records,
          afterFirstRate: records / ((elapsedMs - firstMs) / 1000),
          afterFirstCpuUsPerRecord: ((cpuAtEnd - cpuAtFirst) * 1000) / records,
          afterFirstMachineCpuUsPerRecord: ((machineAtEnd - machineAtFirst) * 1000) / records,
          ...secondHalf(half, elapsedMs, records, cpuAtEnd, machineAtEnd)
        }
        log(
          `${tag} ${workload.id} ${contender.label}: ${fmt(reached)} records in ${(elapsedMs / 1000).toFixed(2)} s = ${fmt(result.rate)} records/s; ` +
            `${workload.first} after ${(firstMs / 1000).toFixed(2)} s; CPU ${result.cpuUsPerRecord.toFixed(2)} µs/record (machine ${result.machineCpuUsPerRecord.toFixed(2)})` +
            `${workload.id === 'restore' ? ` (restore proper: ${fmt(result.afterFirstRate)} records/s, ${result.afterFirstCpuUsPerRecord.toFixed(2)} µs/record)` : ''}; ` +
            `second half ${fmt(result.secondHalfRate)} records/s, ${result.secondHalfCpuUsPerRecord.toFixed(2)} µs/record; ${checks}` +
            `${typeof stopped.maxBlockMs === 'number' ? `; longest event-loop block ${stopped.maxBlockMs} ms` : ''}; load avg up to ${runMaxLoad.toFixed(1)}`
        )
        return result
      } finally {
        child?.kill()
        await rm(stateDir, { recursive: true, force: true })
        await cluster.deleteTopicsWithPrefix(`${appId}-`).catch(error => {
          log(`could not delete the topics of ${appId}: ${String(error)}`)
        })
        await cluster.deleteGroups([appId, `${appId}-verify`]).catch(() => undefined)
      }
    }

    /** What the run left behind is what it should have: returns a note for the log line; throws if not. */
    const verify = async (
      workload: Workload,
      contender: Contender,
      outputTopic: string,
      changelog: string,
      reached: number,
      appId: string
    ): Promise<string> => {
      const expect = (what: string, actual: number): string => {
        if (actual !== options.records) throw new Error(`${what}: ${fmt(actual)}, expected ${fmt(options.records)}`)
        return `${what} ${fmt(actual)}`
      }
      if (workload.id === 'passthrough') return expect('output after close', await cluster.count(outputTopic))
      if (workload.id === 'count-papi') {
        const output = expect('output after close', await cluster.count(outputTopic))
        return contender.id === 'raw-kafkajs' ? output : `${output}, ${expect('changelog', await cluster.count(changelog))}`
      }
      if (workload.id === 'count-dsl') {
        const records = await cluster.count(outputTopic)
        return `${fmt(records)} output records after close, ${expect('their last counts add up to', await sumOfLastCounts(cluster.kafka, outputTopic, `${appId}-verify`))}`
      }
      return expect(contender.id === 'raw-kafkajs' ? 'read' : 'restored', reached)
    }

    const runs: [Workload, Contender][] = workloads.flatMap(w =>
      contenders.filter(c => c.workloads.includes(w.id)).map((c): [Workload, Contender] => [w, c])
    )
    log(
      `${options.rounds} round(s) of ${runs.length} runs: ${workloads.map(w => w.id).join(', ')} x ${contenders.map(c => c.id).join(', ')}; ${java.javaVersion}; Node ${process.version}`
    )
    // Warm-up: every pair once, on fewer records, untimed (warms the broker, its JIT and the page cache; each contender is a fresh process anyway).
    if (options.warmup > 0) {
      for (const [workload, contender] of runs) {
        await run(workload, contender, 'warm-up', options.warmup).catch(error => {
          if (abort.signal.aborted) throw error
          log(`warm-up ${workload.id} ${contender.label} FAILED: ${error instanceof Error ? error.message : String(error)}`)
        })
      }
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const workload of workloads) {
        const mine = contenders.filter(c => c.workloads.includes(workload.id))
        // Rotate the order each round, so no contender always runs first (or right after another).
        const order = mine.map((_, i) => mine[(i + round - 1) % mine.length]!)
        for (const contender of order) {
          let result: Run | undefined
          try {
            result = await run(workload, contender, `r${round}`, options.records)
          } catch (error) {
            if (abort.signal.aborted) throw error
            log(`round ${round} ${workload.id} ${contender.label} FAILED: ${error instanceof Error ? error.message : String(error)}`)
          }
          const list = results.get(key(workload.id, contender.id)) ?? []
          list.push(result)
          results.set(key(workload.id, contender.id), list)
        }
      }
    }

    const report = formatReport({
      options,
      workloads,
      contenders,
      runsOf: (w, c) => results.get(key(w, c)),
      java,
      javaInfo,
      machine: machineLine(loadAtStart, maxLoad, java, javaInfo, cluster.bootstrapServers)
    })
    process.stdout.write('\n' + report.join('\n') + '\n')
  } finally {
    const deleted = await cluster.deleteTopicsWithPrefix(runId).catch(() => [])
    await cluster.deleteGroupsWithPrefix(runId).catch(() => undefined)
    await cluster.close()
    await rm(tempRoot, { recursive: true, force: true })
    log(`cleaned up (${deleted.length} topic(s) deleted); ${((performance.now() - began) / 1000).toFixed(0)} s in all`)
  }
}

/** The second-half figures of a run; NaN when the half-way mark was not seen before the end (a run shorter than a poll). */
function secondHalf(
  half: { ms: number; reached: number; cpu: number; machine: number },
  elapsedMs: number,
  records: number,
  cpuAtEnd: number,
  machineAtEnd: number
): Pick<Run, 'secondHalfRate' | 'secondHalfCpuUsPerRecord' | 'secondHalfMachineCpuUsPerRecord'> {
  const n = records - half.reached
  if (Number.isNaN(half.ms) || elapsedMs <= half.ms || n <= 0)
    return { secondHalfRate: Number.NaN, secondHalfCpuUsPerRecord: Number.NaN, secondHalfMachineCpuUsPerRecord: Number.NaN }
  return {
    secondHalfRate: n / ((elapsedMs - half.ms) / 1000),
    secondHalfCpuUsPerRecord: ((cpuAtEnd - half.cpu) * 1000) / n,
    secondHalfMachineCpuUsPerRecord: ((machineAtEnd - half.machine) * 1000) / n
  }
}

function machineLine(
  loadAtStart: number[],
  maxLoad: number,
  java: JavaBench,
  javaInfo: { gc: string; maxHeapMb: number },
  bootstrap: string
): string {
  const load = (l: number[]): string => l.map(v => v.toFixed(2)).join(' ')
  const cpu = cpus()
  return (
    `machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown'}); load average (1/5/15 min) ${load(loadAtStart)} at start, ` +
    `${load(loadavg())} at the end, 1-min up to ${maxLoad.toFixed(2)} during the runs; Node ${process.version}; ${java.javaVersion}` +
    `${javaInfo.gc === '' ? '' : ` (GC ${javaInfo.gc}, max heap ${javaInfo.maxHeapMb} MB, JVM defaults)`}; ` +
    `Kafka Streams ${java.kafkaStreamsVersion}; broker ${process.env.KAFKA_BOOTSTRAP_SERVERS ? `${bootstrap} (KAFKA_BOOTSTRAP_SERVERS)` : 'a local one started by the bench (@kstreams/kafka-local)'}`
  )
}

interface ReportInput {
  readonly options: Options
  readonly workloads: readonly Workload[]
  readonly contenders: readonly Contender[]
  readonly runsOf: (w: WorkloadId, c: ContenderId) => readonly (Run | undefined)[] | undefined
  readonly java: JavaBench
  readonly javaInfo: { gc: string; maxHeapMb: number }
  readonly machine: string
}

/** A row of the records/s and CPU tables: a workload, measured over some part of its runs. */
interface Row {
  readonly label: string
  readonly workload: WorkloadId
  readonly rate: (r: Run) => number
  readonly cpu: (r: Run) => number
  readonly machine: (r: Run) => number
}

/** Whole runs (the restore: the restore proper, and from "start"). */
function wholeRows(workloads: readonly Workload[], records: number): Row[] {
  return workloads.flatMap((w): Row[] => {
    const whole: Row = {
      label: w.label(records),
      workload: w.id,
      rate: r => r.rate,
      cpu: r => r.cpuUsPerRecord,
      machine: r => r.machineCpuUsPerRecord
    }
    if (w.id !== 'restore') return [whole]
    return [
      {
        label: w.label(records),
        workload: w.id,
        rate: r => r.afterFirstRate,
        cpu: r => r.afterFirstCpuUsPerRecord,
        machine: r => r.afterFirstMachineCpuUsPerRecord
      },
      { ...whole, label: `${w.label(records)}, start-up included` }
    ]
  })
}

/** The second halves of the runs. */
function halfRows(workloads: readonly Workload[], records: number): Row[] {
  return workloads.map(w => ({
    label: `${w.label(records)}, second half`,
    workload: w.id,
    rate: r => r.secondHalfRate,
    cpu: r => r.secondHalfCpuUsPerRecord,
    machine: r => r.secondHalfMachineCpuUsPerRecord
  }))
}

/** Markdown tables: medians of records/s, CPU per record and time to first output, ratios to Java, and every round. */
function formatReport(input: ReportInput): string[] {
  const { options, workloads, contenders } = input
  const medianOf = (w: WorkloadId, c: ContenderId, pick: (r: Run) => number): number | undefined => {
    const runs = input.runsOf(w, c)
    if (runs === undefined) return undefined
    return median(runs.map(r => (r === undefined ? Number.NaN : pick(r))))
  }
  const others = contenders.filter(c => c.id !== 'java')
  const hasJava = contenders.some(c => c.id === 'java')
  const whole = wholeRows(workloads, options.records)
  const halves = halfRows(workloads, options.records)
  const table = (
    title: string,
    tableRows: readonly { label: string; workload: WorkloadId; pick: (r: Run) => number }[],
    cell: (v: number) => string,
    withRatios: boolean
  ): string[] => {
    const ratioCols = withRatios && hasJava ? others.map(c => `${c.label} / Java`) : []
    const lines = [
      title,
      '',
      `| workload | ${[...contenders.map(c => c.label), ...ratioCols].join(' | ')} |`,
      `|---|${[...contenders, ...ratioCols].map(() => '---:').join('|')}|`
    ]
    for (const row of tableRows) {
      const values = contenders.map(c => medianOf(row.workload, c.id, row.pick))
      const javaValue = medianOf(row.workload, 'java', row.pick)
      const cells = values.map(v => (v === undefined ? '-' : Number.isNaN(v) ? 'n/a' : cell(v)))
      const ratios =
        ratioCols.length === 0
          ? []
          : others.map(c => {
              const v = medianOf(row.workload, c.id, row.pick)
              return v === undefined || javaValue === undefined || Number.isNaN(v) || Number.isNaN(javaValue)
                ? '-'
                : (v / javaValue).toFixed(2)
            })
      lines.push(`| ${row.label} | ${[...cells, ...ratios].join(' | ')} |`)
    }
    return lines
  }
  const picked = (rows: readonly Row[], pick: (row: Row) => (r: Run) => number) =>
    rows.map(r => ({ label: r.label, workload: r.workload, pick: pick(r) }))
  const us = (v: number): string => v.toFixed(2)
  const rounds = options.rounds
  const medianNote = rounds > 1 ? `median of ${rounds} rounds` : 'one round'
  const lines = [
    `Java Kafka Streams ${input.java.kafkaStreamsVersion} vs kstreams, end to end on one broker: ${fmt(options.records)} records, ` +
      `${options.partitions} partitions, ${options.threads === 1 ? 'one stream thread' : `${options.threads} stream threads (kstreams: on worker threads)`}, at_least_once, commit interval ${options.commitIntervalMs} ms; ${medianNote}` +
      ' (n/a: no successful run, or a run too short to see its half-way mark)',
    '',
    ...table(
      'records/s: records / time from "start" to the last output record (count-dsl: to the last input record processed; ' +
        'restore: from the first onRestoreStart to RUNNING with every record restored, and from "start")',
      picked(whole, r => r.rate),
      fmt,
      true
    ),
    '',
    ...table(
      'records/s over the second half of each run (from the half-way mark to the end: start-up and most of the warm-up left out)',
      picked(halves, r => r.rate),
      fmt,
      true
    ),
    '',
    ...table(
      'CPU time per record, µs: the process\u2019s user + system CPU (all threads) over the same interval / records (the broker not included)',
      picked([...whole, ...halves], r => r.cpu),
      us,
      true
    ),
    '',
    ...table(
      'machine CPU time per record, µs: the whole machine\u2019s CPU (/proc/stat: the contender, the broker, this bench, anything else) over the same interval / records',
      picked([...whole, ...halves], r => r.machine),
      us,
      true
    ),
    '',
    ...table(
      'time to first output, s: to the first poll (every 100 ms) that saw output (count-dsl: first record processed; ' +
        'restore: first onRestoreStart; raw read: group joined)',
      workloads.map(w => ({ label: w.label(options.records), workload: w.id, pick: (r: Run) => r.firstMs / 1000 })),
      us,
      false
    ),
    '',
    'records/s per round (failed: the run failed, see the log; n/a: no half-way mark seen)',
    '',
    `| workload | contender | ${Array.from({ length: rounds }, (_, i) => `round ${i + 1}`).join(' | ')} | median |`,
    `|---|---|${Array.from({ length: rounds + 1 }, () => '---:').join('|')}|`
  ]
  for (const row of [...whole, ...halves]) {
    for (const c of contenders) {
      const runs = input.runsOf(row.workload, c.id)
      if (runs === undefined) continue
      const rates = runs.map(r => (r === undefined ? Number.NaN : row.rate(r)))
      const cells = runs.map((r, i) => (r === undefined ? 'failed' : Number.isNaN(rates[i]!) ? 'n/a' : fmt(rates[i]!)))
      const m = median(rates)
      lines.push(`| ${row.label} | ${c.label} | ${cells.join(' | ')} | ${Number.isNaN(m) ? 'n/a' : fmt(m)} |`)
    }
  }
  lines.push('', input.machine)
  return lines
}

main().catch(error => {
  if (error instanceof Error && error.name === 'AbortError') process.exit(130)
  process.stderr.write(`bench:java failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
