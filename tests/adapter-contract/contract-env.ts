/**
 * Shared setup of the Kafka client adapters' broker tests (the port contract in this folder and
 * each adapter's own tests): the broker from KAFKA_BOOTSTRAP_SERVERS (broker suites are skipped,
 * with the reason in their title, when it is not set), unique names, client settings, the
 * clients of one test (closed after it), topic creation and reading a partition back.
 *
 * It imports @kstreams/core only: nothing here knows which adapter it runs against.
 */
import { randomUUID } from 'node:crypto'
import {
  Headers,
  isKafkaError,
  decodedRecords,
  isPartitionError,
  tpKey,
  type AdminPort,
  type CommittedOffset,
  type FetchedRecord,
  type FetchPort,
  type GroupCoordinatorPort,
  type IsolationLevel,
  type KafkaClientFactory,
  type KafkaClientSettings,
  type LogFn,
  type Logger,
  type ProducedRecord,
  type ProducerPort,
  type TopicPartition
} from '@kstreams/core'

const SKIP_REASON =
  'skipped: KAFKA_BOOTSTRAP_SERVERS is not set (start a broker with `npm run -s kafka -- start` and export the address it prints)'

export function bootstrapServers(): string | undefined {
  const servers = process.env.KAFKA_BOOTSTRAP_SERVERS
  return servers === undefined || servers.trim() === '' ? undefined : servers
}

/**
 * A `describe` of tests that need the broker: skipped, the reason in its title, when
 * KAFKA_BOOTSTRAP_SERVERS is not set.
 */
export function describeWithBroker(title: string, body: (this: Mocha.Suite) => void): void {
  if (bootstrapServers() === undefined) describe.skip(`${title} [${SKIP_REASON}]`, body)
  else describe(title, body)
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`
}

/** Collects log lines (the client library's included) for assertions; children share the lines and add their bindings. */
export class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields: Record<string, unknown> | undefined }>
  readonly #bindings: Record<string, unknown> | undefined
  constructor(lines: RecordingLogger['lines'] = [], bindings?: Record<string, unknown>) {
    this.lines = lines
    this.#bindings = bindings
  }
  readonly debug: LogFn = (first: Record<string, unknown> | string, message?: string) => this.#record('debug', first, message)
  readonly info: LogFn = (first: Record<string, unknown> | string, message?: string) => this.#record('info', first, message)
  readonly warn: LogFn = (first: Record<string, unknown> | string, message?: string) => this.#record('warn', first, message)
  readonly error: LogFn = (first: Record<string, unknown> | string, message?: string) => this.#record('error', first, message)
  child(bindings: Record<string, unknown>): RecordingLogger {
    return new RecordingLogger(this.lines, { ...this.#bindings, ...bindings })
  }
  #record(level: string, first: Record<string, unknown> | string, message: string | undefined): void {
    const fields = typeof first === 'string' ? this.#bindings : { ...this.#bindings, ...first }
    this.lines.push({ level, message: typeof first === 'string' ? first : (message ?? ''), fields })
  }
}

export function testSettings(overrides: Partial<KafkaClientSettings> = {}): KafkaClientSettings {
  return {
    bootstrapServers: (bootstrapServers() ?? '127.0.0.1:1').split(','),
    clientId: 'kstreams-test',
    ssl: undefined,
    sasl: undefined,
    connectionTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    logger: new RecordingLogger(),
    ...overrides
  }
}

/** Closes what a test opened, in reverse order, ignoring errors. */
export class Cleanup {
  readonly #steps: Array<() => Promise<unknown>> = []
  add<T>(value: T, close: (value: T) => Promise<unknown>): T {
    this.#steps.push(async () => await close(value))
    return value
  }

  async run(): Promise<void> {
    while (this.#steps.length > 0) {
      try {
        await this.#steps.pop()!()
      } catch {}
    }
  }
}

/**
 * The clients of one test, all from one factory: an admin and a fetcher made when first used,
 * producers and group coordinators on demand; `cleanup` closes every one of them.
 */
export class TestClients {
  readonly cleanup = new Cleanup()
  readonly factory: KafkaClientFactory
  #admin: AdminPort | undefined
  #fetcher: FetchPort | undefined

  constructor(factory: KafkaClientFactory) {
    this.factory = factory
  }

  get admin(): AdminPort {
    return (this.#admin ??= this.cleanup.add(this.factory.admin({ clientId: uniqueName('admin') }), async a => {
      await a.close()
    }))
  }

  get fetcher(): FetchPort {
    return (this.#fetcher ??= this.cleanup.add(this.factory.fetcher({ clientId: uniqueName('fetcher') }), async f => {
      await f.close()
    }))
  }

  producer(transactionalId?: string): ProducerPort {
    const options = { clientId: uniqueName('p'), ...(transactionalId === undefined ? {} : { transactionalId }) }
    return this.cleanup.add(this.factory.producer(options), async p => {
      await p.close()
    })
  }

  coordinator(groupId: string): GroupCoordinatorPort {
    return this.cleanup.add(this.factory.groupCoordinator({ groupId, clientId: uniqueName('member') }), async c => {
      await c.close()
    })
  }
}

/**
 * Gives every test of the enclosing `describe` its own TestClients from `factory()` (made before
 * the test, closed after it); the returned function is the current test's.
 */
export function clientsPerTest(factory: () => KafkaClientFactory): () => TestClients {
  let clients: TestClients | undefined
  beforeEach(() => {
    clients = new TestClients(factory())
  })
  afterEach(async () => {
    await clients?.cleanup.run()
  })
  return () => clients!
}

export async function createTopic(
  admin: AdminPort,
  partitions: number,
  prefix = 'topic',
  configs: Record<string, string> = {}
): Promise<string> {
  const topic = uniqueName(`kst-${prefix}`)
  await admin.createTopics([{ topic, numPartitions: partitions, replicationFactor: -1, configs }])
  return topic
}

export function record(
  topic: string,
  partition: number,
  value: string,
  key: string | null = null,
  headers = new Headers()
): ProducedRecord {
  return { topic, partition, key: key === null ? null : Buffer.from(key), value: Buffer.from(value), headers, timestamp: 1_700_000_000_000 }
}

export const values = (records: readonly FetchedRecord[]): string[] => records.map(r => r.value?.toString() ?? 'null')

/** `detail` adds what was seen instead to the timeout error, for diagnosing a failure in CI. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
  detail?: () => string
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${detail === undefined ? '' : `; saw ${detail()}`}`)
    await sleep(25)
  }
}

/**
 * Waits until the partition's end offset (AdminPort.endOffsets) is `end`: transaction markers
 * are written after commit() returns, asynchronously.
 */
export async function waitForEnd(admin: AdminPort, topic: string, partition: number, end: number): Promise<void> {
  await waitFor(
    `end offset ${end} of ${topic}-${partition}`,
    async () => (await admin.endOffsets([{ topic, partition }])).get(`${topic}-${partition}`) === end
  )
}

export async function sleep(ms: number): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, ms))
}

/** The rejection of `promise` (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return await promise.then(
    value => {
      throw new Error(`expected a rejection, got ${String(value)}`)
    },
    (error: unknown) => error
  )
}

/**
 * Runs `request` again while the group coordinator is not ready (a fresh broker loads
 * __consumer_offsets first): the runtime retries these, the port does not.
 */
export async function whenCoordinatorReady<T>(request: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request()
    } catch (error) {
      if (attempt >= 40 || !isKafkaError(error, 'COORDINATOR_LOAD_IN_PROGRESS', 'COORDINATOR_NOT_AVAILABLE', 'NOT_COORDINATOR')) throw error
      await sleep(250)
    }
  }
}

/** Every record of a partition from `offset` to its end (as `isolationLevel` sees it), fetched through the FetchPort. */
export async function readPartition(
  fetcher: FetchPort,
  topic: string,
  partition: number,
  isolationLevel: IsolationLevel,
  offset = 0
): Promise<FetchedRecord[]> {
  const records: FetchedRecord[] = []
  let refresh = false
  for (let i = 0; i < 50; i++) {
    const node = (await fetcher.leaders([{ topic, partition }], refresh)).get(tpKey(topic, partition))
    refresh = node === undefined
    if (node === undefined) {
      await sleep(100)
      continue
    }
    const [answer] = await fetcher.fetch({
      node,
      partitions: [{ topic, partition, offset }],
      isolationLevel,
      maxWaitMs: 100,
      maxBytes: 1_048_576,
      maxPartitionBytes: 1_048_576
    })
    if (answer === undefined || isPartitionError(answer)) throw new Error(`fetch of ${topic}-${partition} failed: ${String(answer?.error)}`)
    records.push(...decodedRecords(answer))
    offset = answer.nextOffset
    if (offset >= answer.highWatermark) return records
  }
  throw new Error(`did not reach the end of ${topic}-${partition}`)
}

/**
 * The group's committed offsets once no transaction holds any of them (OffsetFetch with
 * require_stable, retried on UNSTABLE_OFFSET_COMMIT as the runtime retries it).
 */
export async function stableOffsets(
  port: GroupCoordinatorPort,
  partitions: readonly TopicPartition[]
): Promise<Map<string, CommittedOffset>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await port.fetchCommittedOffsets(partitions, { requireStable: true })
    } catch (error) {
      if (attempt >= 200 || !isKafkaError(error, 'UNSTABLE_OFFSET_COMMIT')) throw error
      await sleep(50)
    }
  }
}
