/**
 * Runs WordCount instances as child processes (examples/wordcount/src/main.ts, or the Java Kafka
 * Streams app of tests/java-streams), so a test can SIGKILL one, and collects the output topic
 * continuously.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { randomInt } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Consumer } from 'kafkajs'
import { bootstrapServers, kafka, testClientName, unique, waitFor } from './helpers.js'

const MAIN = fileURLToPath(new URL('../../../examples/wordcount/src/main.ts', import.meta.url))

export interface InstanceEvent {
  event: string
  [key: string]: unknown
}

export class WordCountInstance {
  readonly events: InstanceEvent[] = []
  readonly #child: ChildProcess
  readonly exited: Promise<number | null>
  /** Whether the process has exited (`exited` resolved). */
  hasExited = false
  stderr = ''

  /**
   * The kstreams WordCount app (Processor API unless WORDCOUNT_API says otherwise), or with
   * `command` another program configured by the same environment variables (the Java Kafka
   * Streams app of tests/java-streams).
   */
  constructor(env: Record<string, string>, command?: { readonly file: string; readonly args: readonly string[] }) {
    this.#child = spawn(command?.file ?? process.execPath, command?.args ?? ['--conditions=@kstreams/source', '--import', 'tsx', MAIN], {
      env: {
        ...process.env,
        KAFKA_BOOTSTRAP_SERVERS: bootstrapServers(),
        WORDCOUNT_API: 'processor',
        WORDCOUNT_CLIENT: testClientName(),
        ...env
      },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let buffered = ''
    this.#child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString()
      let nl
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        try {
          this.events.push(JSON.parse(line) as InstanceEvent)
        } catch {
          /* not an event */
        }
      }
    })
    this.#child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString()
    })
    this.exited = new Promise(resolve =>
      this.#child.on('exit', code => {
        this.hasExited = true
        resolve(code)
      })
    )
  }

  get state(): string | undefined {
    return this.events
      .filter(e => e.event === 'state')
      .map(e => e.to as string)
      .at(-1)
  }

  restoreEvents(kind: 'restore-start' | 'restore-end'): InstanceEvent[] {
    return this.events.filter(e => e.event === kind)
  }

  kill(signal: NodeJS.Signals): void {
    this.#child.kill(signal)
  }
}

/**
 * waitFor, and on a timeout an error that shows each instance's state, last events and log tail
 * (the whole log is written to a file in the temp directory): what a failure in CI needs.
 */
export async function waitForInstances(
  what: string,
  instances: ReadonlyArray<WordCountInstance | undefined>,
  predicate: () => boolean,
  timeoutMs: number
): Promise<void> {
  await waitFor(what, predicate, timeoutMs).catch(async (err: unknown) => {
    const prefix = unique('wordcount-instance')
    const details = await Promise.all(
      instances.map(async (instance, n) => {
        if (instance === undefined) return `instance ${n}: not started`
        const path = join(tmpdir(), `${prefix}-${n}.log`)
        await writeFile(path, instance.stderr + '\n' + instance.events.map(e => JSON.stringify(e)).join('\n') + '\n')
        return `instance ${n} (state ${String(instance.state)}, whole log in ${path}): events ${JSON.stringify(instance.events.slice(-8))}\n${instance.stderr.slice(-1500)}`
      })
    )
    throw new Error(`${(err as Error).message}\n${details.join('\n')}`)
  })
}

/** Consumes the output topic from the beginning; keeps the last count per word. */
export class OutputCollector {
  readonly last = new Map<string, number>()
  /** When each record arrived, by output partition (the partition of the task that wrote it). */
  readonly arrivals: Array<{ partition: number; at: number }> = []
  records = 0
  readonly #consumer: Consumer

  private constructor(consumer: Consumer) {
    this.#consumer = consumer
  }

  static async start(topic: string, servers?: string): Promise<OutputCollector> {
    const consumer = kafka(servers).consumer({ groupId: unique('collector') })
    const collector = new OutputCollector(consumer)
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        collector.records++
        collector.arrivals.push({ partition, at: Date.now() })
        collector.last.set(message.key!.toString(), Number(message.value!.readBigInt64BE()))
      }
    })
    return collector
  }

  /** The first arrival on `partition` at or after `since` (epoch ms), if any. */
  firstArrival(partition: number, since: number): number | undefined {
    return this.arrivals.find(a => a.partition === partition && a.at >= since)?.at
  }

  async stop(): Promise<void> {
    await this.#consumer.disconnect()
  }
}

const VOCABULARY = Array.from({ length: 60 }, (_, i) => `w${i}`)

/** Lines of random words and the true count of each word. */
export function makeLines(count: number): { lines: string[]; counts: Map<string, number> } {
  const counts = new Map<string, number>()
  const lines: string[] = []
  for (let i = 0; i < count; i++) {
    const words = Array.from({ length: 1 + randomInt(6) }, () => VOCABULARY[randomInt(VOCABULARY.length)]!)
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1)
    lines.push(words.join(' '))
  }
  return { lines, counts }
}

export function addCounts(into: Map<string, number>, from: Map<string, number>): void {
  for (const [w, c] of from) into.set(w, (into.get(w) ?? 0) + c)
}
