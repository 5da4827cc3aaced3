/**
 * End-to-end benchmark on a real broker: records/s of kstreams applications (KafkaStreams) on
 * either Kafka client adapter next to raw consume -> produce loops doing no processing, on the
 * same input, in one run (contenders.ts):
 *   baselines: a raw kafkajs loop (eachBatch -> producer.sendBatch of the same batch) and a raw
 *       @platformatic/kafka loop (messages stream -> producer.send of what it buffered), per input
 *   (a) kstreams source -> sink (ByteArray serdes), on records with word keys and 100-byte values
 *   (b) kstreams WordCount-shaped count: source -> count in a RocksDB store with a changelog ->
 *       sink of (word, count), one output record per input record, on (word, word) records
 *   (a) and (b) on @kstreams/kafkajs and on @kstreams/platformatic; (b) on platformatic also at
 *   the EOS commit interval (100 ms) under at_least_once and under exactly_once_v2.
 * The inputs are written once per run (untimed); each contender then runs in its own worker
 * process with a fresh group/application id, output topic and state directory, once as a
 * warm-up and then once per round (interleaved). A run is timed from start until the output
 * topic's end offsets add up to the record count (exactly_once_v2: until the committed input
 * offsets do, i.e. the output is committed). Everything created is deleted at the end.
 *
 * Usage (tools/bench): npm run bench:e2e -- [--records=1000000] [--warmup=100000] [--rounds=1]
 *   [--contenders=baseline-bytes,baseline-bytes-plt,a,a-plt,baseline-words,baseline-words-plt,b,b-plt,b-plt-alos,b-plt-eos]
 *   [--partitions=4] [--vocabulary=10000] [--commit-interval-ms=30000] [--eos-commit-interval-ms=100]
 *   [--timeout-s=600] [--max-message-bytes=67108864] [--baseline-slice=5000] [--linear-grouping]
 *   [--profile=ids] [--profile-dir=DIR]
 * --contenders: which to run (default all; ids as above, run in that order); ratios are shown
 * for the pairs that both ran. The platformatic contenders need Node >= 22.22 (@platformatic/kafka
 * 2.x); on an older Node the default leaves them out.
 * --commit-interval-ms is for the raw loops and the kstreams contenders at the default interval;
 * --eos-commit-interval-ms for b-plt-alos and b-plt-eos.
 * --max-message-bytes is set on the output and changelog topics (0: broker default, 1 MB, with
 * which kstreams fails with MESSAGE_TOO_LARGE once its send buffer outgrows 1 MB per partition).
 * --baseline-slice: most messages per raw-loop send (0: a whole fetched batch).
 * --linear-grouping: every worker swaps kafkajs' O(n^2) groupMessagesPerPartition for a linear
 * one (linear-grouping.ts), to show what patching kafkajs would gain.
 * Broker: KAFKA_BOOTSTRAP_SERVERS, else a local one started (and stopped) by the bench.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { BenchCluster } from './bench-cluster.js'
import { allContenders, checkContenderIds, RATIOS, type Contender } from './contenders.js'
import { makeVocabulary, produceInput, xorshift, VALUE_BYTES, type InputKind } from './input-data.js'
import { timePipeline, type RunResult } from './pipeline-run.js'
import { STORE_NAME } from './pipelines.js'
import { summarizeProfile } from './profile-summary.js'
import { formatReport, type ContenderResult, type Ratio } from './report.js'

/** @platformatic/kafka 2.x declares Node >= 22.22 (its promise API needs Promise.withResolvers). */
const PLATFORMATIC_NODE: readonly [number, number] = [22, 22]
const nodeVersion = process.versions.node.split('.').map(Number)
const platformaticSupported =
  nodeVersion[0]! > PLATFORMATIC_NODE[0] || (nodeVersion[0] === PLATFORMATIC_NODE[0] && nodeVersion[1]! >= PLATFORMATIC_NODE[1])

interface Options {
  /** Contender ids; undefined: all (all that this Node supports). */
  contenders: string[] | undefined
  records: number
  warmup: number
  rounds: number
  partitions: number
  vocabulary: number
  commitIntervalMs: number
  eosCommitIntervalMs: number
  timeoutS: number
  maxMessageBytes: number
  baselineSlice: number
  linearGrouping: boolean
  profile: string[]
  profileDir: string | undefined
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    contenders: undefined,
    records: 1_000_000,
    warmup: 100_000,
    rounds: 1,
    partitions: 4,
    vocabulary: 10_000,
    commitIntervalMs: 30_000,
    eosCommitIntervalMs: 100,
    timeoutS: 600,
    maxMessageBytes: 64 * 1024 * 1024,
    baselineSlice: 5000,
    linearGrouping: false,
    profile: [],
    profileDir: undefined
  }
  for (const arg of argv) {
    if (arg === '--linear-grouping') {
      o.linearGrouping = true
      continue
    }
    const m = /^--([a-z-]+)=(.*)$/.exec(arg)
    const name = m?.[1]
    const value = m?.[2] ?? ''
    if (name === 'profile' || name === 'contenders') {
      const ids = value.split(',').filter(v => v !== '')
      checkContenderIds(`--${name}`, ids)
      if (name === 'profile') o.profile = ids
      else o.contenders = ids
    } else if (name === 'profile-dir') {
      o.profileDir = value
    } else {
      const key = (
        {
          records: 'records',
          warmup: 'warmup',
          rounds: 'rounds',
          partitions: 'partitions',
          vocabulary: 'vocabulary',
          'commit-interval-ms': 'commitIntervalMs',
          'eos-commit-interval-ms': 'eosCommitIntervalMs',
          'timeout-s': 'timeoutS',
          'max-message-bytes': 'maxMessageBytes',
          'baseline-slice': 'baselineSlice'
        } as const
      )[name as 'records']
      if (key === undefined || !/^\d+$/.test(value))
        throw new Error(`Unknown argument ${arg}; see the header of tools/bench/e2e/e2e-bench.ts`)
      o[key] = Number(value)
    }
  }
  if (o.records < 1 || o.rounds < 1 || o.partitions < 1 || o.vocabulary < 1)
    throw new Error('records, rounds, partitions and vocabulary must be at least 1')
  if (o.warmup > o.records) throw new Error('--warmup cannot exceed --records (the warm-up reads the same input)')
  if (o.contenders?.length === 0) throw new Error('--contenders: name at least one')
  return o
}

/** The contenders to run, in round order; platformatic ones only where Node supports them. */
function pickContenders(options: Options): Contender[] {
  const all = allContenders(options.eosCommitIntervalMs)
  if (options.contenders !== undefined) {
    const picked = all.filter(c => options.contenders!.includes(c.id))
    if (!platformaticSupported && picked.some(c => c.client === 'platformatic')) {
      throw new Error(
        `--contenders: the platformatic contenders need Node >= ${PLATFORMATIC_NODE.join('.')} (this is ${process.versions.node})`
      )
    }
    return picked
  }
  if (platformaticSupported) return all
  log(`Node ${process.versions.node}: leaving out the platformatic contenders (they need Node >= ${PLATFORMATIC_NODE.join('.')})`)
  return all.filter(c => c.client !== 'platformatic')
}

const log = (line: string): void => {
  process.stderr.write(`[bench:e2e ${new Date().toISOString().slice(11, 19)}] ${line}\n`)
}
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  const contenders = pickContenders(options)
  const notRun = options.profile.filter(id => !contenders.some(c => c.id === id))
  if (notRun.length > 0) throw new Error(`--profile: ${notRun.join(', ')} not among the contenders that run`)
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
  const profileDir = options.profile.length === 0 ? undefined : (options.profileDir ?? join(tmpdir(), `${runId}-profiles`))
  if (profileDir !== undefined) await mkdir(profileDir, { recursive: true })
  const cluster = await BenchCluster.connect(log)
  const results = new Map(contenders.map(c => [c.id, { rates: [] as number[], timedOut: [] as boolean[] }]))
  const profiles: string[] = []
  try {
    const inputs: Record<InputKind, string> = { bytes: `${runId}-in-bytes`, words: `${runId}-in-words` }
    const kinds = (['bytes', 'words'] as const).filter(kind => contenders.some(c => c.input === kind))
    await cluster.createTopics(
      kinds.map(kind => inputs[kind]),
      options.partitions
    )
    const vocabulary = makeVocabulary(options.vocabulary, xorshift(0x5eed))
    for (const kind of kinds) {
      const t = performance.now()
      await produceInput({
        kafka: cluster.kafka,
        topic: inputs[kind],
        kind,
        records: options.records,
        partitions: options.partitions,
        vocabulary,
        seed: kind === 'bytes' ? 1 : 2
      })
      const count = await cluster.count(inputs[kind])
      if (count !== options.records) throw new Error(`input ${inputs[kind]} has ${count} records, expected ${options.records}`)
      log(
        `input ${inputs[kind]}: ${fmt(count)} records (${kind === 'bytes' ? `${VALUE_BYTES}-byte values` : 'word values'}) written in ${((performance.now() - t) / 1000).toFixed(1)} s (untimed)`
      )
    }

    const run = async (contender: Contender, tag: string, records: number, profile: boolean): Promise<RunResult> => {
      const groupId = `${runId}-${tag}-${contender.id}`
      const outputTopic = `${groupId}-out`
      const stateDir = join(tempRoot, `${tag}-${contender.id}`)
      const profilePath = profile && profileDir !== undefined ? join(profileDir, `${contender.id}-${tag}.cpuprofile`) : undefined
      const inputTopic = inputs[contender.input]
      const eos = contender.processingGuarantee === 'exactly_once_v2'
      const verifyGroupId = `${groupId}-verify`
      await cluster.createTopics(
        [outputTopic],
        options.partitions,
        options.maxMessageBytes > 0 ? { 'max.message.bytes': String(options.maxMessageBytes) } : {}
      )
      try {
        const result = await timePipeline({
          cluster,
          records,
          timeoutMs: options.timeoutS * 1000,
          profilePath,
          linearGrouping: options.linearGrouping,
          signal: abort.signal,
          // Under exactly_once_v2 output counts once committed: the committed input offsets
          // (one output record per input record) while it runs, a read_committed read after.
          ...(eos
            ? {
                progress: async () => await cluster.committed(groupId, inputTopic),
                finalCount: async () => await cluster.readCommitted(outputTopic, verifyGroupId)
              }
            : {}),
          spec: {
            pipeline: contender.pipeline,
            client: contender.client,
            processingGuarantee: contender.processingGuarantee,
            bootstrapServers: cluster.bootstrapServers,
            inputTopic,
            outputTopic,
            groupId,
            stateDir,
            commitIntervalMs: contender.commitInterval === 'eos' ? options.eosCommitIntervalMs : options.commitIntervalMs,
            maxMessageBytes: options.maxMessageBytes,
            baselineSlice: options.baselineSlice,
            threads: 1
          }
        })
        const changelog =
          contender.pipeline === 'count'
            ? `, changelog ${eos ? 'end offsets (with transaction markers) ' : ''}${fmt(await cluster.count(`${groupId}-${STORE_NAME}-changelog`))}`
            : ''
        log(
          `${tag.padEnd(7)} ${contender.label}: ${fmt(result.reached)} records in ${(result.elapsedMs / 1000).toFixed(2)} s = ${fmt(result.recordsPerSecond)} records/s` +
            `${result.timedOut ? ' (TIMED OUT)' : ''}; first output after ${(result.firstOutputMs / 1000).toFixed(2)} s; ` +
            `longest event-loop block ${fmt(result.maxBlockMs)} ms; output after close ${fmt(result.finalCount)}${eos ? ' (read_committed)' : ''}${changelog}; load avg up to ${result.maxLoad.toFixed(1)}`
        )
        if (tag !== 'warm-up' && !result.timedOut && result.finalCount !== records)
          log(`  warning: expected exactly ${fmt(records)} output records after close`)
        if (profilePath !== undefined) profiles.push(profilePath)
        return result
      } finally {
        await rm(stateDir, { recursive: true, force: true })
        await cluster.deleteTopicsWithPrefix(`${groupId}-`).catch(error => {
          log(`could not delete the topics of ${groupId}: ${String(error)}`)
        })
        await cluster.deleteGroups(eos ? [groupId, verifyGroupId] : [groupId]).catch(() => undefined)
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
      for (const c of contenders) await tryRun(c, 'warm-up', options.warmup, false)
    }
    for (let round = 1; round <= options.rounds; round++) {
      for (const c of contenders) {
        const r = results.get(c.id)!
        const result = await tryRun(c, `round-${round}`, options.records, round === 1 && options.profile.includes(c.id))
        r.rates.push(result?.recordsPerSecond ?? Number.NaN)
        r.timedOut.push(result?.timedOut ?? false)
      }
    }

    const title =
      `records/s, end to end on one broker: ${fmt(options.records)} records, ${options.partitions} partitions, ` +
      `${options.rounds} round(s)`
    const settings =
      `commitIntervalMs ${options.commitIntervalMs} (${options.eosCommitIntervalMs} for the rows marked "commit ${options.eosCommitIntervalMs} ms"); output/changelog max.message.bytes ${options.maxMessageBytes === 0 ? 'broker default' : options.maxMessageBytes}; ` +
      `raw-loop sends in slices of ${options.baselineSlice === 0 ? 'a whole fetched batch' : `${options.baselineSlice} messages`}; kafkajs grouping ${options.linearGrouping ? 'replaced by a linear one (--linear-grouping)' : 'as installed (stock kafkajs 2.2.4)'}`
    const labelOf = new Map(contenders.map(c => [c.id, c.label]))
    const ratios = RATIOS.filter(r => labelOf.has(r.numerator) && labelOf.has(r.denominator)).map(
      (r): Ratio => ({ label: r.label, numerator: labelOf.get(r.numerator)!, denominator: labelOf.get(r.denominator)! })
    )
    const report = formatReport(
      title,
      contenders.map((c): ContenderResult => ({ label: c.label, ...results.get(c.id)! })),
      ratios
    )
    const load = (l: number[]): string => l.map(v => v.toFixed(1)).join(' ')
    report.push(
      '',
      settings,
      `machine: ${cpus().length} cores; load average (1/5/15 min) ${load(loadAtStart)} at start, ${load(loadavg())} at the end`
    )
    process.stdout.write('\n' + report.join('\n') + '\n')
    for (const profile of profiles) process.stdout.write('\n' + summarizeProfile(profile).join('\n') + '\n')
  } finally {
    const deleted = await cluster.deleteTopicsWithPrefix(runId).catch(() => [])
    await cluster.deleteGroupsWithPrefix(runId).catch(() => undefined)
    await cluster.close()
    await rm(tempRoot, { recursive: true, force: true })
    log(
      `cleaned up (${deleted.length} topic(s) deleted${profileDir !== undefined ? `; profiles kept in ${profileDir}` : ''}); ${((performance.now() - began) / 1000).toFixed(0)} s in all`
    )
  }
}

main().catch(error => {
  if (error instanceof Error && error.name === 'AbortError') process.exit(130)
  process.stderr.write(`bench:e2e failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(1)
})
