/**
 * Shared setup of the kafkajs adapter's integration tests: the broker from
 * KAFKA_BOOTSTRAP_SERVERS (a clear failure when it is not set), unique names, a factory tuned for
 * fast rebalances, topic creation, and the clean-up of every client a test made.
 */
import { randomUUID } from 'node:crypto'
import { Headers } from '../../../../src/record.js'
import type { Logger } from '../../../../src/logger.js'
import { createKafkajsClientFactory } from '../../../../src/runtime/kafka/kafkajs/index.js'
import type { KafkajsClientConfig } from '../../../../src/runtime/kafka/kafkajs/kafkajs-client-config.js'
import type { AdminPort, KafkaClientFactory, ProducedRecord } from '../../../../src/runtime/kafka/ports.js'

export function bootstrapServers (): string {
  const servers = process.env.KAFKA_BOOTSTRAP_SERVERS
  if (servers === undefined || servers.trim() === '') {
    throw new Error('KAFKA_BOOTSTRAP_SERVERS is not set: these integration tests need a running broker ' +
      '(start one with `npm run kafka -- start` and export the address it prints)')
  }
  return servers
}

export function uniqueName (prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`
}

/** Collects log lines (kafkajs' included) for assertions. */
export class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string, message: string, fields: Record<string, unknown> | undefined }> = []
  debug (message: string, fields?: Record<string, unknown>): void { this.lines.push({ level: 'debug', message, fields }) }
  info (message: string, fields?: Record<string, unknown>): void { this.lines.push({ level: 'info', message, fields }) }
  warn (message: string, fields?: Record<string, unknown>): void { this.lines.push({ level: 'warn', message, fields }) }
  error (message: string, fields?: Record<string, unknown>): void { this.lines.push({ level: 'error', message, fields }) }
}

export function testFactory (overrides: Partial<KafkajsClientConfig> = {}): KafkaClientFactory {
  return createKafkajsClientFactory({
    bootstrapServers: bootstrapServers(),
    clientId: 'kstreams-test',
    sessionTimeoutMs: 6000,
    heartbeatIntervalMs: 300,
    rebalanceTimeoutMs: 20_000,
    fetchMaxWaitMs: 100,
    ...overrides
  })
}

/** Closes what a test opened, in reverse order, ignoring errors. */
export class Cleanup {
  readonly #steps: Array<() => Promise<unknown>> = []
  add<T> (value: T, close: (value: T) => Promise<unknown>): T {
    this.#steps.push(async () => await close(value))
    return value
  }

  async run (): Promise<void> {
    while (this.#steps.length > 0) {
      try { await this.#steps.pop()!() } catch {}
    }
  }
}

export async function createTopic (admin: AdminPort, partitions: number, prefix = 'topic', configs: Record<string, string> = {}): Promise<string> {
  const topic = uniqueName(`kjs-${prefix}`)
  await admin.createTopics([{ topic, numPartitions: partitions, replicationFactor: -1, configs }])
  return topic
}

export function record (topic: string, partition: number, value: string, key: string | null = null, headers = new Headers()): ProducedRecord {
  return { topic, partition, key: key === null ? null : Buffer.from(key), value: Buffer.from(value), headers, timestamp: 1_700_000_000_000 }
}

/** `detail` adds what was seen instead to the timeout error, for diagnosing a failure in CI. */
export async function waitFor (what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000, detail?: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}${detail === undefined ? '' : `; saw ${detail()}`}`)
    await sleep(25)
  }
}

/**
 * Waits until the partition's end offset (as read_committed sees it) is `end`: transaction
 * markers are written after commit() returns, asynchronously.
 */
export async function waitForEnd (admin: AdminPort, topic: string, partition: number, end: number): Promise<void> {
  await waitFor(`end offset ${end} of ${topic}-${partition}`, async () =>
    (await admin.endOffsets([{ topic, partition }])).get(`${topic}-${partition}`) === end)
}

export async function sleep (ms: number): Promise<void> {
  await new Promise(resolve => setTimeout(resolve, ms))
}
