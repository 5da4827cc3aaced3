/**
 * exactly_once_v2 on three brokers (every topic with replication factor 3 and min.insync.replicas
 * 2): a counting application (RocksDB store, one output record per count update) on
 * @kstreams/platformatic, in this process, while input flows. The broker that coordinates its
 * transactions (the leader of its transactional id's `__transaction_state` partition) is
 * SIGKILLed, and restarted once commits went on without it. The commits that failed while the
 * coordinator moved are sent again (as Java's producer retries them for max.block.ms), so no task
 * is wiped and restored from scratch, and the read_committed output holds every count of every key
 * exactly once: 1, 2, ..., N.
 */
import { expect } from 'chai'
import { readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Admin, Consumer, Producer } from 'kafkajs'
import { KafkaStreams, Serdes, Topology } from '@kstreams/core'
import type { KafkaStreamsState, KeyValueStore, Logger, LogFn, Processor, ProcessorContext, Record } from '@kstreams/core'
import { platformatic } from '@kstreams/platformatic'
import { RocksDBStores } from '@kstreams/rocksdb'
import { Stores } from '@kstreams/stores'
import { coordinatorPartition, createTopics, kafka, leaderOf, sleep, tempDir, threeBrokerCluster, unique, waitFor } from './helpers.js'

const S = Serdes.String()
const L = Serdes.Long()
const KEYS = 40

/** Counts each key in the store `Counts` and forwards the new count. */
class CountProcessor implements Processor<string, string, string, number> {
  #context!: ProcessorContext<string, number>
  #store!: KeyValueStore<string, number>

  init(context: ProcessorContext<string, number>): void {
    this.#context = context
    this.#store = context.getStateStore<KeyValueStore<string, number>>('Counts')
  }

  process(record: Record<string, string>): void {
    const count = (this.#store.get(record.key) ?? 0) + 1
    this.#store.put(record.key, count)
    this.#context.forward(record.withValue(count))
  }
}

/** input -> a count per key in the RocksDB store `Counts` -> output (key, count). */
function countingTopology(input: string, output: string): Topology {
  return new Topology()
    .addSource('In', input, { keyDeserializer: S, valueDeserializer: S })
    .addProcessor('Count', () => new CountProcessor(), 'In')
    .addStateStore(Stores.keyValueStoreBuilder(RocksDBStores.persistentKeyValueStore('Counts'), S, L), 'Count')
    .addSink('Out', output, { keySerializer: S, valueSerializer: L }, 'Count')
}

/** Keeps every line (for the wipe check, and in a file for a failure). */
function recordingLogger(lines: string[]): Logger {
  const keep = (level: string): LogFn =>
    ((first: unknown, second?: string) => {
      lines.push(`${new Date().toISOString()} ${level} ${typeof first === 'string' ? first : (second ?? '')}`)
    }) as LogFn
  return { debug: keep('DEBUG'), info: keep('INFO'), warn: keep('WARN'), error: keep('ERROR') }
}

/**
 * Every value of every key of a topic, from its beginning, as it comes (read_committed), each
 * offset once: when a broker dies, the reader's own group may rejoin and kafkajs deliver again
 * from its last committed offset, which says nothing of what the application wrote.
 */
class TopicReader {
  readonly values = new Map<string, number[]>()
  total = 0
  /** Offsets kafkajs delivered again (skipped). */
  redelivered = 0
  #consumer: Consumer | undefined
  readonly #read = new Set<string>()

  constructor(readonly decode: (value: Buffer | null) => number) {}

  async start(servers: string, topic: string): Promise<void> {
    const consumer = kafka(servers).consumer({ groupId: unique('reader'), readUncommitted: false })
    this.#consumer = consumer
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ partition, message }) => {
        if (this.#read.has(`${partition}:${message.offset}`)) {
          this.redelivered++
          return
        }
        this.#read.add(`${partition}:${message.offset}`)
        const key = message.key!.toString()
        let seen = this.values.get(key)
        if (seen === undefined) this.values.set(key, (seen = []))
        seen.push(this.decode(message.value))
        this.total++
      }
    })
  }

  async stop(): Promise<void> {
    await this.#consumer?.disconnect()
  }
}

/**
 * Sends 20 records over KEYS keys every 50 ms until stopped. What it fed is read back from the
 * input at the end (kafkajs' idempotent producer may acknowledge a record it lost when a broker
 * dies, and a send that failed may have been written).
 */
class Feeder {
  acknowledged = 0
  #running = true
  #loop: Promise<void> | undefined
  readonly #producer: Producer

  constructor(servers: string) {
    this.#producer = kafka(servers).producer({
      allowAutoTopicCreation: false,
      idempotent: true,
      maxInFlightRequests: 1,
      retry: { retries: 60, initialRetryTime: 100, maxRetryTime: 1000 }
    })
  }

  start(topic: string): void {
    this.#loop = (async () => {
      await this.#producer.connect()
      let n = 0
      while (this.#running) {
        const messages = Array.from({ length: 20 }, () => ({ key: `k${n++ % KEYS}`, value: 'x' }))
        await this.#producer.send({ topic, messages }).then(
          () => {
            this.acknowledged += messages.length
          },
          () => undefined
        )
        await sleep(50)
      }
      await this.#producer.disconnect()
    })()
  }

  async stop(): Promise<void> {
    this.#running = false
    await this.#loop
  }
}

describe('exactly_once_v2: the transaction coordinator killed and restarted (three brokers, RF 3, min ISR 2)', function () {
  this.timeout(240000)
  const cluster = threeBrokerCluster()

  async function withClusterAdmin<T>(fn: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = kafka(cluster().bootstrapServers).admin()
    await admin.connect()
    try {
      return await fn(admin)
    } finally {
      await admin.disconnect()
    }
  }

  it('commits are sent again until the coordinator moved: no task restored from scratch, no wipe, read_committed counts exactly 1..N', async () => {
    const prefix = unique('txncoord')
    const applicationId = `${prefix}-app`
    const input = `${prefix}-input`
    const output = `${prefix}-output`
    const servers = cluster().bootstrapServers
    await createTopics(
      [
        { topic: input, numPartitions: 4 },
        { topic: output, numPartitions: 4 }
      ],
      { servers, replicationFactor: 3, configs: { 'min.insync.replicas': '2' } }
    )
    const dir = await tempDir('kstreams-txncoord')
    const lines: string[] = []
    const timeline: string[] = []
    const mark = (what: string): void => {
      timeline.push(`${new Date().toISOString()} TEST ${what}`)
    }
    const states: KafkaStreamsState[] = []
    const restores: Array<{ store: string; partition: number; start: number; end: number; afterKill: boolean }> = []
    let killed = false
    const streams = new KafkaStreams(
      countingTopology(input, output),
      {
        applicationId,
        bootstrapServers: servers,
        stateDir: dir.path,
        processingGuarantee: 'exactly_once_v2',
        replicationFactor: 3,
        topic: { 'min.insync.replicas': 2 },
        // Longer than the failover, so the coordinator does not abort the open transaction meanwhile.
        transactionTimeoutMs: 30000
      },
      { client: platformatic(), logger: recordingLogger(lines) }
    )
    streams.setStateListener(state => states.push(state))
    streams.setGlobalStateRestoreListener({
      onRestoreStart: (tp, store, start, end) => {
        restores.push({ store, partition: tp.partition, start, end, afterKill: killed })
      }
    })
    const counts = new TopicReader(value => Number(value!.readBigInt64BE()))
    const fed = new TopicReader(() => 1)
    const feeder = new Feeder(servers)
    /** The number of records of each key in the input (known once the feeder stopped and `fed` read it all). */
    const expected = (): Map<string, number> => new Map([...fed.values].map(([key, ones]) => [key, ones.length]))
    const details = async (): Promise<string> => {
      const file = join(tmpdir(), `${prefix}.log`)
      await writeFile(file, [...lines, ...timeline].sort().join('\n'))
      const behind = [...expected()]
        .filter(([key, n]) => (counts.values.get(key)?.length ?? 0) !== n)
        .slice(0, 5)
        .map(([key, n]) => `${key}: ${n} in the input, counts ${JSON.stringify(counts.values.get(key)?.slice(-5))}`)
      return `whole log in ${file}; states ${states.join(' -> ')}; ${feeder.acknowledged} records acknowledged, ${fed.total} read back, ${counts.total} counts read (${counts.redelivered} delivered again to the test's reader, skipped); behind: ${behind.join('; ')}; restores ${JSON.stringify(restores)}; warnings:\n${lines
        .filter(l => l.includes(' WARN ') || l.includes(' ERROR '))
        .slice(-20)
        .join('\n')}`
    }
    const waitOrExplain = async (what: string, predicate: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> => {
      await waitFor(what, async () => states.includes('ERROR') || (await predicate()), timeoutMs).catch(async (err: unknown) => {
        throw new Error(`${(err as Error).message}\n${await details()}`)
      })
    }
    try {
      await streams.start()
      await waitOrExplain('RUNNING', () => streams.state() === 'RUNNING', 60000)
      await counts.start(servers, output)
      feeder.start(input)
      await waitOrExplain('counts while the records flow', () => counts.total > 400, 60000)

      const { processId } = JSON.parse(await readFile(join(dir.path, applicationId, 'kafka-streams-process-metadata'), 'utf8')) as {
        processId: string
      }
      const transactionalId = `${applicationId}-${processId}-1`
      const coordinator = await leaderOf(servers, '__transaction_state', coordinatorPartition(transactionalId, 3))
      const index = (await cluster().status()).findIndex(s => s.nodeId === coordinator)
      expect(index, `the coordinator ${coordinator} of ${transactionalId} is a broker of the cluster`).to.be.greaterThan(-1)

      killed = true
      const countedAtKill = counts.total
      mark(`killing broker ${coordinator}, the transaction coordinator of ${transactionalId}`)
      await cluster().killBroker(index)
      await waitOrExplain('counts while the transaction coordinator is down', () => counts.total > countedAtKill + 400, 90000)
      mark('restarting it')
      await cluster().restartBroker(index)
      mark('restarted')
      const countedAtRestart = counts.total
      await waitOrExplain('counts after the restart', () => counts.total > countedAtRestart + 200, 60000)
      await feeder.stop()
      mark('feeder stopped')
      const inInput = await withClusterAdmin(async admin => (await admin.fetchTopicOffsets(input)).reduce((n, p) => n + Number(p.high), 0))
      await fed.start(servers, input)
      await waitOrExplain('the input read back', () => fed.total >= inInput, 60000)
      await waitOrExplain(
        'every input record counted',
        () => [...expected()].every(([key, n]) => (counts.values.get(key)?.length ?? 0) >= n),
        60000
      )

      const errors = states.filter(s => s === 'ERROR' || s === 'PENDING_ERROR')
      const fromScratch = restores.filter(r => r.afterKill && r.start === 0 && r.end > 0)
      const wiped = lines.filter(l => /wiping/i.test(l))
      const wrong = [...expected()]
        .filter(([key, n]) => {
          const seen = counts.values.get(key) ?? []
          return seen.length !== n || seen.some((v, i) => v !== i + 1)
        })
        .map(([key, n]) => `${key}: expected 1..${n}, read ${JSON.stringify(counts.values.get(key))}`)
      const summary = errors.length + fromScratch.length + wiped.length + wrong.length > 0 ? await details() : ''
      expect(errors, `ERROR states\n${summary}`).to.deep.equal([])
      expect(fromScratch, `tasks restored from scratch after the kill\n${summary}`).to.deep.equal([])
      expect(wiped, `task state wiped\n${summary}`).to.deep.equal([])
      expect(wrong, `keys whose read_committed counts are not exactly 1..N\n${summary}`).to.deep.equal([])
      expect(fed.total, 'records fed').to.be.greaterThan(1000)
    } finally {
      await feeder.stop().catch(() => undefined)
      await counts.stop().catch(() => undefined)
      await fed.stop().catch(() => undefined)
      await streams.close()
      await dir.remove()
    }
  })
})
