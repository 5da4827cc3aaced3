/**
 * The WordCount application of the fault tests (examples/wordcount/src/main.ts as child
 * processes, Processor API, RocksDB stores, the DEFAULT uncaught-exception handler): its topics,
 * every instance ever started, a feeder whose acknowledged lines give the true counts, and the
 * final verification every fault test ends with:
 *   - no instance reached ERROR (or exited without being asked to), over the whole test;
 *   - at a quiet point (all instances RUNNING, no consumer lag) every store partition, dumped by
 *     its instance (SIGUSR2), equals the replay of its changelog partition (last value per key,
 *     read after the instances stopped cleanly);
 *   - no word ends below its true count, in the output topic (last value) or in the stores;
 *     under exactly_once_v2 (`guarantee`) none ends above it either (plus the words of lines
 *     whose send failed, which may or may not be in the input).
 */
import { expect } from 'chai'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { KafkaMessage, Producer } from 'kafkajs'
import { bootstrapServers, createTopics, kafka, sleep, tempDir, unique, waitFor } from './helpers.js'
import { WordCountInstance, addCounts, makeLines, type InstanceEvent } from './wordcount-instances.js'

export interface FaultAppOptions {
  /** Prefix of the application id and topics (made unique). */
  readonly name: string
  /** Default: the shared broker (KAFKA_BOOTSTRAP_SERVERS). */
  readonly servers?: string
  /** Partitions of the three topics (and so of the changelog); default 6. */
  readonly partitions?: number
  /** Of the three topics and of the internal topics; default 1. */
  readonly replicationFactor?: number
  /** Configs of the three topics (e.g. min.insync.replicas). */
  readonly topicConfigs?: Record<string, string>
  /** Extra environment of every instance. */
  readonly env?: Record<string, string>
  /** exactly_once_v2 runs the instances on @kstreams/platformatic and checks the counts exactly. */
  readonly guarantee?: 'at_least_once' | 'exactly_once_v2'
}

type StoreDump = Map<number, Map<string, number>>
const STORE = 'Counts'

export class FaultApp {
  readonly prefix: string
  readonly appId: string
  readonly servers: string
  readonly partitions: number
  readonly topics: { readonly input: string; readonly words: string; readonly output: string }
  readonly changelog: string
  /** Every instance ever started, in order. */
  readonly instances: WordCountInstance[] = []
  /** The true count of every word in the acknowledged input. */
  readonly expected = new Map<string, number>()
  /** Lines whose send failed: they may or may not be in the input (their words may count more). */
  uncertainLines = 0
  /** The words of those lines. */
  readonly uncertain = new Map<string, number>()
  readonly #options: FaultAppOptions
  readonly #asked = new Set<WordCountInstance>()
  readonly #unexpectedExits: string[] = []
  readonly #dirs: Array<{ path: string; remove: () => Promise<void> }> = []
  #feeder: Feeder | undefined

  private constructor(options: FaultAppOptions) {
    this.#options = options
    this.prefix = unique(options.name) + '-'
    this.appId = `${this.prefix}app`
    this.servers = options.servers ?? bootstrapServers()
    this.partitions = options.partitions ?? 6
    this.topics = {
      input: `${this.prefix}wordcount-input`,
      words: `${this.prefix}wordcount-words`,
      output: `${this.prefix}wordcount-output`
    }
    this.changelog = `${this.appId}-${STORE}-changelog`
  }

  static async create(options: FaultAppOptions): Promise<FaultApp> {
    const app = new FaultApp(options)
    await createTopics(
      Object.values(app.topics).map(topic => ({ topic, numPartitions: app.partitions })),
      {
        servers: app.servers,
        replicationFactor: options.replicationFactor ?? 1,
        ...(options.topicConfigs === undefined ? {} : { configs: options.topicConfigs })
      }
    )
    return app
  }

  /** A new state directory (removed at cleanup). */
  async newStateDir(): Promise<string> {
    const dir = await tempDir('kstreams-fault')
    this.#dirs.push(dir)
    return dir.path
  }

  /** Starts an instance on `stateDir` (default: a new one). */
  async start(stateDir?: string): Promise<WordCountInstance> {
    const dir = stateDir ?? (await this.newStateDir())
    const instance = new WordCountInstance({
      KAFKA_BOOTSTRAP_SERVERS: this.servers,
      WORDCOUNT_APP_ID: this.appId,
      WORDCOUNT_TOPIC_PREFIX: this.prefix,
      WORDCOUNT_STATE_DIR: dir,
      WORDCOUNT_API: 'processor',
      WORDCOUNT_STORE: 'rocksdb',
      WORDCOUNT_COMMIT_INTERVAL_MS: '500',
      WORDCOUNT_SESSION_TIMEOUT_MS: '6000',
      WORDCOUNT_EXCEPTION_HANDLER: 'default',
      WORDCOUNT_STORE_DUMP: '1',
      WORDCOUNT_LOG_LEVEL: 'info',
      ...(this.#options.replicationFactor === undefined ? {} : { WORDCOUNT_REPLICATION_FACTOR: String(this.#options.replicationFactor) }),
      ...(this.#eos ? { WORDCOUNT_GUARANTEE: 'exactly_once_v2', WORDCOUNT_CLIENT: 'platformatic' } : {}),
      ...this.#options.env
    })
    const n = this.instances.length
    this.instances.push(instance)
    void instance.exited.then(code => {
      if (!this.#asked.has(instance)) this.#unexpectedExits.push(`instance ${n} exited by itself (code ${String(code)})`)
    })
    return instance
  }

  get #eos(): boolean {
    return this.#options.guarantee === 'exactly_once_v2'
  }

  /** The instances that were not asked to stop. */
  get live(): WordCountInstance[] {
    return this.instances.filter(i => !this.#asked.has(i))
  }

  /** Stops an instance with `signal` (SIGTERM: a clean close); resolves to its exit code. */
  async stop(instance: WordCountInstance, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<number | null> {
    this.#asked.add(instance)
    // A clean stop needs the app's SIGTERM handler, there once it started (its first state event);
    // a process still loading (slow on a busy machine) would die of the signal's default action.
    if (signal === 'SIGTERM')
      await waitFor(
        'the instance to start before its clean stop',
        () => instance.hasExited || instance.events.some(e => e.event === 'state'),
        120000
      )
    instance.kill(signal)
    return await instance.exited
  }

  /**
   * waitFor with every instance's state, events and log tail in the error (whole logs in files).
   * Fails at once when an instance reached ERROR or exited by itself; a predicate that throws (a
   * broker away) counts as false.
   */
  async waitFor(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
    let problems: string[] = []
    const check = async (): Promise<boolean> => {
      problems = this.problems()
      if (problems.length > 0) return true
      try {
        return await predicate()
      } catch {
        await sleep(250)
        return false
      }
    }
    await waitFor(what, check, timeoutMs).catch(async (err: unknown) => {
      throw new Error(`${(err as Error).message}\n${await this.diagnostics()}`)
    })
    if (problems.length > 0) throw new Error(`While waiting for ${what}: ${problems.join('; ')}\n${await this.diagnostics()}`)
  }

  async waitAllRunning(timeoutMs = 120000): Promise<void> {
    await this.waitFor('every live instance RUNNING', () => this.live.every(i => i.state === 'RUNNING'), timeoutMs)
  }

  /** Each instance's state, last events and log tail; whole logs go to files in the temp directory. */
  async diagnostics(): Promise<string> {
    const details = await Promise.all(
      this.instances.map(async (instance, n) => {
        const path = join(tmpdir(), `${this.prefix}instance-${n}.log`)
        await writeFile(path, instance.stderr + '\n' + instance.events.map(e => JSON.stringify(e)).join('\n') + '\n')
        const events = instance.events.filter(e => e.event !== 'store-dump').slice(-6)
        return `instance ${n} (state ${String(instance.state)}${this.#asked.has(instance) ? ', stopped by the test' : ''}; whole log in ${path}): events ${JSON.stringify(events)}\n${instance.stderr.slice(-1500)}`
      })
    )
    return `app ${this.appId}, feeder ${this.#feeder === undefined ? 'idle' : `${this.#feeder.batches} batches, ${this.#feeder.failures} failed`}\n${details.join('\n')}`
  }

  /** Problems seen so far: instances that reached ERROR, or exited without being asked to. */
  problems(): string[] {
    const errors = this.instances.flatMap((instance, n) =>
      instance.events.some(e => e.event === 'state' && (e.to === 'ERROR' || e.to === 'PENDING_ERROR'))
        ? [`instance ${n} reached ERROR`]
        : []
    )
    return [...errors, ...this.#unexpectedExits]
  }

  /** Starts producing `linesPerBatch` lines every `intervalMs` until stopFeeding(). */
  startFeeding(linesPerBatch = 50, intervalMs = 200): void {
    this.#feeder = new Feeder(this, linesPerBatch, intervalMs)
  }

  async stopFeeding(): Promise<void> {
    await this.#feeder?.stop()
  }

  /** Records in the output topic (end offsets), asked again for up to 60 s while a broker is away or a leader moves. */
  async outputRecords(): Promise<number> {
    for (const deadline = Date.now() + 60000; ; ) {
      const admin = kafka(this.servers).admin()
      try {
        await admin.connect()
        return (await admin.fetchTopicOffsets(this.topics.output)).reduce((n, o) => n + Number(o.high), 0)
      } catch (err) {
        if (Date.now() > deadline) throw err
        await sleep(500)
      } finally {
        await admin.disconnect()
      }
    }
  }

  /** Records of the input and words topics not yet committed by the application's group. */
  async lag(): Promise<number> {
    const admin = kafka(this.servers).admin()
    await admin.connect()
    try {
      let lag = 0
      // Input first: once it is committed, the words it made are in the words topic.
      // Under exactly-once the words topic (written in transactions) ends with markers and aborted
      // records that no commit moves past: its lag is not 0 when caught up (see waitQuiet).
      for (const topic of this.#eos ? [this.topics.input] : [this.topics.input, this.topics.words]) {
        const committed = await admin.fetchOffsets({ groupId: this.appId, topics: [topic] })
        const ends = await admin.fetchTopicOffsets(topic)
        const at = new Map(committed[0]!.partitions.map(p => [p.partition, Number(p.offset)]))
        for (const e of ends) lag += Number(e.high) - Math.max(0, at.get(e.partition) ?? 0)
      }
      return lag
    } finally {
      await admin.disconnect()
    }
  }

  /** Waits until every live instance is RUNNING and the group has committed every input and word. */
  async waitQuiet(timeoutMs: number): Promise<void> {
    let lastLag = -1
    await this.waitFor(
      'a quiet point (every live instance RUNNING, no lag)',
      async () => {
        if (!this.live.every(i => i.state === 'RUNNING')) return false
        lastLag = await this.lag().catch(() => -1)
        if (lastLag !== 0) {
          await sleep(250)
          return false
        }
        if (!this.#eos) return true
        // Exactly-once: the input is committed; the words it made are counted once the output stands still.
        const output = await this.outputRecords()
        await sleep(2000)
        return (await this.outputRecords()) === output && (await this.lag().catch(() => -1)) === 0
      },
      timeoutMs
    ).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}\nlast lag: ${lastLag}`)
    })
  }

  /**
   * The whole check every test ends with (after the fault is over and the feeder stopped):
   * quiet point, store dumps, clean stop of every live instance, changelog replay, counts.
   */
  async verify(timeoutMs = 180000): Promise<{ dumps: StoreDump; output: Map<string, number> }> {
    await this.stopFeeding()
    const dumps = await this.#dumpStores(timeoutMs)
    const live = this.live
    const codes = await Promise.all(live.map(async i => await this.stop(i)))
    expect(codes, `every instance exits cleanly (code 0)\n${await this.diagnostics()}`).to.deep.equal(live.map(() => 0))
    expectNone(this.problems(), 'instances that reached ERROR or exited by themselves', await this.diagnostics())

    const changelog = await readLastValues(this.changelog, this.servers)
    for (let p = 0; p < this.partitions; p++) {
      const store = dumps.get(p) ?? new Map<string, number>()
      const replay = changelog.get(p) ?? new Map<string, number>()
      const differences = [...new Set([...store.keys(), ...replay.keys()])].filter(k => store.get(k) !== replay.get(k))
      expectNone(
        differences.map(k => `${k}: store ${String(store.get(k))}, changelog ${String(replay.get(k))}`),
        `keys where store partition ${p} differs from the replay of ${this.changelog}-${p}`,
        differences.length > 0 ? await this.diagnostics() : ''
      )
    }
    const history = new Map<string, string[]>()
    const output = new Map([...(await readLastValues(this.topics.output, this.servers, 60000, history)).values()].flatMap(m => [...m]))
    const stores = new Map([...dumps.values()].flatMap(m => [...m]))
    const below = (counted: Map<string, number>): string[] =>
      [...this.expected]
        .filter(([w, c]) => (counted.get(w) ?? 0) < c)
        .map(
          ([w, c]) =>
            `${w}: ${String(counted.get(w))} < ${c} (store ${String(stores.get(w))}, last output records ${(history.get(w) ?? []).join(' ')})`
        )
    const belowInStores = below(stores)
    if (belowInStores.length > 0) {
      // Where the words went missing: in the input topic, in the words topic, or after it.
      const inInput = new Map<string, number>()
      for (const value of await readValues(this.topics.input, this.servers))
        for (const w of value.split(' ')) inInput.set(w, (inInput.get(w) ?? 0) + 1)
      const inWords = new Map<string, number>()
      for (const w of await readValues(this.topics.words, this.servers)) inWords.set(w, (inWords.get(w) ?? 0) + 1)
      const where = [...this.expected]
        .filter(([w, c]) => (stores.get(w) ?? 0) < c)
        .map(([w]) => `${w}: input topic ${String(inInput.get(w))}, words topic ${String(inWords.get(w))}`)
      expectNone(belowInStores, 'words below their true count in the stores', `${where.join('\n')}\n${await this.diagnostics()}`)
    }
    const belowInOutput = below(output)
    expectNone(
      belowInOutput,
      'words below their true count in the output topic (last value)',
      belowInOutput.length > 0 ? await this.diagnostics() : ''
    )
    if (this.#eos) {
      const above = (counted: Map<string, number>, where: string): string[] =>
        [...counted]
          .filter(([w, c]) => c > (this.expected.get(w) ?? 0) + (this.uncertain.get(w) ?? 0))
          .map(
            ([w, c]) =>
              `${w}: ${where} ${c} > ${this.expected.get(w) ?? 0} (+ ${this.uncertain.get(w) ?? 0} uncertain) (last output records ${(history.get(w) ?? []).join(' ')})`
          )
      const counted = [...above(stores, 'store'), ...above(output, 'output')]
      expectNone(counted, 'words counted above their true count (exactly_once_v2)', counted.length > 0 ? await this.diagnostics() : '')
    }
    const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0)
    console.log(
      `      ${this.instances.length} instance(s); ${this.expected.size} words, ${total(this.expected)} true count (${this.uncertainLines} uncertain lines), ${total(stores)} in the stores; ${[...changelog.values()].reduce((n, m) => n + m.size, 0)} changelog keys`
    )
    return { dumps, output }
  }

  /**
   * At a quiet point, every live instance prints its active store partitions (SIGUSR2); together
   * they must hold each partition exactly once. A rebalance in between makes it try again.
   */
  async #dumpStores(timeoutMs: number): Promise<StoreDump> {
    const end = Date.now() + timeoutMs
    let problem = ''
    for (let attempt = 1; Date.now() < end; attempt++) {
      await this.waitQuiet(Math.max(1000, end - Date.now()))
      const live = this.live
      const marks = live.map(i => i.events.length)
      for (const i of live) i.kill('SIGUSR2')
      const dumpOf = (i: WordCountInstance, n: number): InstanceEvent | undefined =>
        i.events.slice(marks[n]).find(e => e.event === 'store-dump')
      await this.waitFor('every live instance dumped its store', () => live.every((i, n) => dumpOf(i, n) !== undefined), 30000)
      const dumps = live.map((i, n) => dumpOf(i, n)!)
      const merged: StoreDump = new Map()
      problem = ''
      for (const d of dumps) {
        const failures = d.failures as Record<string, string>
        if (d.state !== 'RUNNING' || Object.keys(failures).length > 0)
          problem ||= `a dump in state ${String(d.state)} with failures ${JSON.stringify(failures)}`
        for (const [p, entries] of Object.entries(d.partitions as Record<string, Record<string, number>>)) {
          if (merged.has(Number(p))) problem ||= `partition ${p} dumped twice`
          merged.set(Number(p), new Map(Object.entries(entries)))
        }
      }
      const missing = Array.from({ length: this.partitions }, (_, p) => p).filter(p => !merged.has(p))
      if (missing.length > 0) problem ||= `partitions ${missing.join(', ')} not dumped`
      if (problem === '') return merged
      await sleep(Math.min(2000, 250 * attempt))
    }
    throw new Error(`No consistent store dump within ${timeoutMs} ms: ${problem}\n${await this.diagnostics()}`)
  }

  /** Kills whatever still runs and removes the state directories. */
  async cleanup(): Promise<void> {
    await this.#feeder?.stop().catch(() => undefined)
    for (const i of this.instances) {
      this.#asked.add(i)
      i.kill('SIGCONT')
      i.kill('SIGKILL')
    }
    await Promise.all(this.instances.map(async i => await i.exited))
    for (const d of this.#dirs) await d.remove()
  }
}

/** Fails listing every item of `found` (chai would show only the first few). */
function expectNone(found: readonly string[], what: string, details: string): void {
  expect(found.length, `${what}:\n${found.join('\n')}\n${details}`).to.equal(0)
}

/** Produces batches of lines until stopped; acknowledged batches are counted, failed ones are uncertain. */
class Feeder {
  batches = 0
  failures = 0
  readonly #app: FaultApp
  readonly #done: Promise<void>
  #stopped = false

  constructor(app: FaultApp, linesPerBatch: number, intervalMs: number) {
    this.#app = app
    this.#done = this.#run(linesPerBatch, intervalMs)
  }

  async #run(linesPerBatch: number, intervalMs: number): Promise<void> {
    let producer: Producer | undefined
    while (!this.#stopped) {
      const started = Date.now()
      const { lines, counts } = makeLines(linesPerBatch)
      try {
        if (producer === undefined) {
          producer = kafka(this.#app.servers).producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 })
          await producer.connect()
        }
        // One partition per batch: kafkajs 2.2.4 can report success for a send while it silently
        // skipped a partition whose leader moved to a broker that had already answered.
        const partition = this.batches++ % this.#app.partitions
        const acked = await producer.send({
          topic: this.#app.topics.input,
          messages: lines.map(value => ({ partition, key: null, value }))
        })
        if (!acked.some(m => m.partition === partition && m.errorCode === 0))
          throw new Error(`no acknowledgement for partition ${partition}`)
        addCounts(this.#app.expected, counts)
      } catch {
        // Maybe written, maybe not: its words may count more than expected, never less.
        this.failures++
        this.#app.uncertainLines += lines.length
        addCounts(this.#app.uncertain, counts)
        await producer?.disconnect().catch(() => undefined)
        producer = undefined
      }
      await sleep(Math.max(0, intervalMs - (Date.now() - started)))
    }
    await producer?.disconnect().catch(() => undefined)
  }

  async stop(): Promise<void> {
    this.#stopped = true
    await this.#done
  }
}

/**
 * Reads a topic from the beginning to the end it has now, each message once, in order per
 * partition; gives up after `timeoutMs`. Returns whether it got to the end, and where it stopped.
 */
async function readToEnd(
  topic: string,
  servers: string,
  timeoutMs: number,
  onMessage: (partition: number, message: KafkaMessage) => void
): Promise<{ done: boolean; next: Map<number, number>; ends: Map<number, number> }> {
  const admin = kafka(servers).admin()
  await admin.connect()
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map(o => [o.partition, Number(o.high)]))
  await admin.disconnect()
  const next = new Map<number, number>()
  const done = (): boolean => [...ends].every(([p, high]) => high === 0 || (next.get(p) ?? 0) >= high)
  if (done()) return { done: true, next, ends }
  const consumer = kafka(servers).consumer({ groupId: unique('fault-reader') })
  await consumer.connect()
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    let finish!: () => void
    const finished = new Promise<void>(resolve => {
      finish = resolve
    })
    await consumer.run({
      eachBatch: async ({ batch }) => {
        const partition = batch.partition
        for (const message of batch.messages) {
          if ((next.get(partition) ?? 0) <= Number(message.offset)) onMessage(partition, message)
          next.set(partition, Math.max(next.get(partition) ?? 0, Number(message.offset) + 1))
        }
        // Transaction markers and aborted records are read past without a message.
        next.set(partition, Math.max(next.get(partition) ?? 0, Number(batch.lastOffset()) + 1))
        if (done()) finish()
      }
    })
    const timer = setTimeout(finish, timeoutMs)
    await finished
    clearTimeout(timer)
    return { done: done(), next, ends }
  } finally {
    await consumer.disconnect()
  }
}

/** Reads a topic from the beginning to its current end; the last value (a long) per key, per partition. */
export async function readLastValues(
  topic: string,
  servers: string,
  timeoutMs = 60000,
  history?: Map<string, string[]>
): Promise<Map<number, Map<string, number>>> {
  const last = new Map<number, Map<string, number>>()
  const { done, next, ends } = await readToEnd(topic, servers, timeoutMs, (partition, message) => {
    let values = last.get(partition)
    if (values === undefined) last.set(partition, (values = new Map()))
    if (message.value === null) values.delete(message.key!.toString())
    else values.set(message.key!.toString(), Number(message.value.readBigInt64BE()))
    if (history !== undefined) {
      const key = message.key!.toString()
      const seen = history.get(key) ?? []
      history.set(key, [
        ...seen.slice(-5),
        `${message.value === null ? 'null' : message.value.readBigInt64BE()}@${partition}:${message.offset}`
      ])
    }
  })
  if (!done) throw new Error(`Reading ${topic} to its end timed out: at ${JSON.stringify([...next])}, ends ${JSON.stringify([...ends])}`)
  return last
}

/** Every value of a topic (as a string), from the beginning to its current end. */
async function readValues(topic: string, servers: string, timeoutMs = 60000): Promise<string[]> {
  const values: string[] = []
  await readToEnd(topic, servers, timeoutMs, (_partition, message) => {
    values.push(message.value?.toString() ?? '')
  })
  return values
}
