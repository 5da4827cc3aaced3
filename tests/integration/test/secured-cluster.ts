/**
 * Helpers of the secured-cluster tests: one secured KafkaTestCluster shared by the tests of a
 * describe(), test topics and input written and output read as the cluster's super user, and a
 * WordCount (RocksDB) run as a given identity that records every log line, every state and the
 * error its thread died of.
 */
import { Kafka, logLevel, type KafkaConfig } from 'kafkajs'
import {
  KafkaStreams,
  type KafkaClient,
  type KafkaStreamsState,
  type Logger,
  type SaslConfig,
  type SslConfig,
  type StreamsConfig
} from '@kstreams/core'
import { kafkajs } from '@kstreams/kafkajs'
import { platformatic } from '@kstreams/platformatic'
import { KafkaTestCluster, type ClusterSecurity, type KafkaTestClusterOptions } from '@kstreams/kafka-local'
import { buildWordCountTopology, splitWords } from '@kstreams/example-wordcount/topology'
import { sleep, tempDir, testClientName, unique, waitFor } from './helpers.js'

/**
 * A secured cluster for the tests of the calling describe(): started before them, stopped after.
 * The function returned gives the cluster once started.
 */
export function securedCluster(options: KafkaTestClusterOptions): () => KafkaTestCluster {
  let cluster: KafkaTestCluster | undefined
  before(async function () {
    this.timeout(180000)
    cluster = await KafkaTestCluster.start(options)
  })
  after(async () => {
    await cluster?.stop()
  })
  return () => cluster!
}

/**
 * The suite's client (KSTREAMS_TEST_CLIENT), kafkajs at its debug log level so that every line it
 * can write reaches the test's logger.
 */
export function securedTestClient(): KafkaClient {
  return testClientName() === 'platformatic' ? platformatic() : kafkajs({ logLevel: 'debug' })
}

/** One line a logger was given. */
export interface LogLine {
  readonly level: string
  readonly bindings: object
  readonly fields: object | undefined
  readonly message: string
}

/** A pino-shaped logger recording every line with its bindings, children included. */
export function recordingLogger(lines: LogLine[], bindings: object = {}): Logger {
  const at =
    (level: string) =>
    (first: object | string, message?: string): void => {
      lines.push(
        typeof first === 'string'
          ? { level, bindings, fields: undefined, message: first }
          : { level, bindings, fields: first, message: message ?? '' }
      )
    }
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: more => recordingLogger(lines, { ...bindings, ...more })
  }
}

/** The log lines as one text, errors with their message, stack and causes: what a secret must not be found in. */
export function logText(lines: readonly LogLine[]): string {
  return JSON.stringify(lines, (_key, v: unknown) =>
    v instanceof Error
      ? { name: v.name, message: v.message, stack: v.stack, cause: v.cause, errors: (v as { errors?: unknown }).errors }
      : v
  )
}

/** The cluster's super user: creates topics, writes input and reads output. */
export class SuperUser {
  readonly #kafka: Kafka

  constructor(cluster: KafkaTestCluster) {
    const security = cluster.security!
    this.#kafka = new Kafka({
      clientId: unique('it-admin'),
      brokers: cluster.bootstrapServers.split(','),
      logLevel: logLevel.NOTHING,
      ...(security.clientOptions() as Pick<KafkaConfig, 'ssl' | 'sasl'>)
    })
  }

  async createTopics(topics: readonly string[], numPartitions = 2): Promise<void> {
    const admin = this.#kafka.admin()
    await admin.connect()
    try {
      await admin.createTopics({ topics: topics.map(topic => ({ topic, numPartitions, replicationFactor: 1 })), waitForLeaders: true })
    } finally {
      await admin.disconnect()
    }
  }

  async produce(topic: string, values: readonly string[]): Promise<void> {
    const producer = this.#kafka.producer({ idempotent: true, maxInFlightRequests: 1 })
    await producer.connect()
    try {
      await producer.send({ topic, messages: values.map((value, i) => ({ key: String(i), value })) })
    } finally {
      await producer.disconnect()
    }
  }

  /** The last count of each word in a WordCount output topic, read (read_committed) until `done` or the timeout. */
  async lastCounts(topic: string, done: (counts: ReadonlyMap<string, number>) => boolean, timeoutMs: number): Promise<Map<string, number>> {
    const counts = new Map<string, number>()
    const consumer = this.#kafka.consumer({ groupId: unique('it-reader') })
    await consumer.connect()
    try {
      await consumer.subscribe({ topics: [topic], fromBeginning: true })
      await consumer.run({
        eachMessage: async ({ message }) => {
          counts.set(message.key!.toString(), Number(message.value!.readBigInt64BE()))
        }
      })
      await waitFor(`the counts in ${topic}`, () => done(counts), timeoutMs).catch(() => undefined)
    } finally {
      await consumer.disconnect()
    }
    return counts
  }
}

/** The WordCount topics of one test, all under one prefix (`<prefix>input`, ...); the application id is `<prefix>app`. */
export interface WordCountNames {
  readonly prefix: string
  readonly applicationId: string
  readonly topics: { readonly input: string; readonly words: string; readonly output: string }
}

export function wordCountNames(name: string): WordCountNames {
  const prefix = `${unique(name)}-`
  return { prefix, applicationId: `${prefix}app`, topics: { input: `${prefix}input`, words: `${prefix}words`, output: `${prefix}output` } }
}

/** The counts a WordCount of `lines` ends with. */
export function expectedCounts(lines: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>()
  for (const line of lines) for (const word of splitWords(line)) counts.set(word, (counts.get(word) ?? 0) + 1)
  return counts
}

/** A WordCount (RocksDB store) as one identity, recording its log lines, states and the error its thread died of. */
export class WordCountRun {
  readonly lines: LogLine[] = []
  readonly states: KafkaStreamsState[] = []
  /** What the uncaught-exception handler was given (it answers SHUTDOWN_CLIENT, the default). */
  readonly errors: Error[] = []
  readonly streams: KafkaStreams
  readonly #removeState: () => Promise<void>

  private constructor(streams: KafkaStreams, lines: LogLine[], removeState: () => Promise<void>) {
    this.streams = streams
    this.lines = lines
    this.#removeState = removeState
    streams.setStateListener(to => this.states.push(to))
    streams.setUncaughtExceptionHandler(error => {
      this.errors.push(error)
      return 'SHUTDOWN_CLIENT'
    })
  }

  static async start(
    cluster: KafkaTestCluster,
    names: WordCountNames,
    security: { readonly ssl?: boolean | SslConfig; readonly sasl?: SaslConfig },
    config: Partial<StreamsConfig> = {},
    client: KafkaClient = securedTestClient()
  ): Promise<WordCountRun> {
    const state = await tempDir('kstreams-secured')
    const lines: LogLine[] = []
    const streams = new KafkaStreams(
      buildWordCountTopology(names.topics, 'rocksdb'),
      {
        applicationId: names.applicationId,
        bootstrapServers: cluster.bootstrapServers,
        stateDir: state.path,
        commitIntervalMs: 200,
        ...security,
        ...config
      },
      { client, logger: recordingLogger(lines) }
    )
    const run = new WordCountRun(streams, lines, state.remove)
    await streams.start()
    return run
  }

  /** A run expected to fail: started, waited for until ERROR, closed. */
  static async untilError(
    cluster: KafkaTestCluster,
    names: WordCountNames,
    security: { readonly ssl?: boolean | SslConfig; readonly sasl?: SaslConfig },
    config: Partial<StreamsConfig> = {}
  ): Promise<WordCountRun> {
    const run = await WordCountRun.start(cluster, names, security, config)
    try {
      await run.waitFor('ERROR', 60000)
    } finally {
      await run.close()
    }
    return run
  }

  state(): KafkaStreamsState {
    return this.streams.state()
  }

  /** Waits until the client is in `state`; fails naming the states it went through and the thread's error. */
  async waitFor(state: KafkaStreamsState, timeoutMs: number): Promise<void> {
    try {
      await waitFor(state, () => this.streams.state() === state, timeoutMs)
    } catch (error) {
      const why = this.errors.map(e => e.message).join('; ')
      throw new Error(`${(error as Error).message} (states: ${this.states.join(' -> ')}${why === '' ? '' : `; thread error: ${why}`})`)
    }
  }

  /** The one error the thread died of. */
  threadError(): Error & { code?: string; errorName?: string } {
    if (this.errors.length === 0) throw new Error(`no thread error (states: ${this.states.join(' -> ')})`)
    return this.errors[0]!
  }

  async close(): Promise<void> {
    try {
      await this.streams.close({ timeoutMs: 10000 })
    } finally {
      await sleep(0)
      await this.#removeState()
    }
  }
}

/**
 * ACLs a WordCount application needs, as Kafka Streams documents them: READ on its input topic,
 * READ and WRITE on the words topic, WRITE on the output topic, everything on its internal topics
 * (prefixed by the application id; CREATE included), READ on its group, and under exactly-once
 * WRITE and DESCRIBE on its transactional ids (prefixed by the application id). `leave` drops one.
 */
export async function grantWordCount(
  security: ClusterSecurity,
  principal: string,
  names: WordCountNames,
  leave: 'read-input' | 'write-output' | 'create' | 'group' | 'transactional-id' | 'none' = 'none'
): Promise<void> {
  const { topics, applicationId } = names
  await security.grant(principal, [
    { resource: 'topic', name: topics.input, operations: leave === 'read-input' ? ['describe'] : ['read', 'describe'] },
    { resource: 'topic', name: topics.words, operations: ['read', 'write', 'describe'] },
    { resource: 'topic', name: topics.output, operations: leave === 'write-output' ? ['describe'] : ['write', 'describe'] },
    {
      resource: 'topic',
      name: applicationId,
      patternType: 'prefixed',
      operations: leave === 'create' ? ['read', 'write', 'describe', 'describe-configs', 'delete'] : ['all']
    },
    ...(leave === 'group' ? [] : [{ resource: 'group' as const, name: applicationId, operations: ['read', 'describe'] as const }]),
    ...(leave === 'transactional-id'
      ? []
      : [
          {
            resource: 'transactional-id' as const,
            name: applicationId,
            patternType: 'prefixed' as const,
            operations: ['write', 'describe'] as const
          }
        ])
  ])
}
