/**
 * The soak's input: an idempotent kafkajs producer that writes the users table once (every key,
 * version 0), then, at a steady rate until stopped, units of five records: two clicks, the two
 * views that go with them (same keys, VIEW_DELAY_MS later) and one user update. Keys go round the
 * key space. Each send is awaited; a send that falls behind is made up by a bigger next one
 * (at most MAX_UNITS_PER_SEND units). Timestamps come from a monotonic clock, so they never
 * decrease. Every record it wrote is noted in the InputLedger; a failed send stops it.
 */
import { performance } from 'node:perf_hooks'
import { Partitioners, type Kafka, type Message, type Producer } from 'kafkajs'
import type { InputLedger } from './input-ledger.js'
import { clickValue, keyOf, type SoakTopics, userValue, VIEW_DELAY_MS, viewValue } from './records.js'

const TICK_MS = 50
const RECORDS_PER_UNIT = 5
const MAX_UNITS_PER_SEND = 2000

const now = (): number => Math.floor(performance.timeOrigin + performance.now())

export class SteadyProducer {
  readonly #producer: Producer
  readonly #topics: SoakTopics
  readonly #ledger: InputLedger
  /** Units of five records per second. */
  readonly #unitsPerSecond: number
  #running: Promise<void> | undefined
  #failure: unknown
  #stopping = false
  #units = 0

  /** `rate`: records per second over the three input topics. */
  constructor(kafka: Kafka, topics: SoakTopics, ledger: InputLedger, rate: number) {
    this.#producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, createPartitioner: Partitioners.DefaultPartitioner })
    this.#topics = topics
    this.#ledger = ledger
    this.#unitsPerSecond = rate / RECORDS_PER_UNIT
  }

  async connect(): Promise<void> {
    await this.#producer.connect()
  }

  /** Writes version 0 of every user. */
  async preloadUsers(): Promise<void> {
    const timestamp = String(now())
    const messages: Message[] = []
    for (let seq = 0; seq < this.#ledger.keys; seq++) {
      const key = keyOf(seq, this.#ledger.keys)
      messages.push({ key, value: userValue(key, 0), timestamp })
    }
    await this.#producer.send({ topic: this.#topics.users, messages, acks: -1 })
    this.#ledger.users += messages.length
  }

  /** Starts writing at the steady rate. */
  start(): void {
    this.#running = this.#run().catch((error: unknown) => {
      this.#failure = error
    })
  }

  /** Throws the error of a failed send. */
  throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure
  }

  /** Records written so far (the preload included). */
  get records(): number {
    return this.#ledger.clicks * 2 + this.#ledger.users
  }

  /** Stops after the send in flight; rejects with the error of a failed send. */
  async stop(): Promise<void> {
    this.#stopping = true
    try {
      await this.#running
    } finally {
      await this.#producer.disconnect()
    }
    this.throwIfFailed()
  }

  async #run(): Promise<void> {
    const start = performance.now()
    while (!this.#stopping) {
      const due = Math.floor(((performance.now() - start) / 1000) * this.#unitsPerSecond) - this.#units
      if (due > 0) await this.#send(Math.min(due, MAX_UNITS_PER_SEND))
      else await new Promise(resolve => setTimeout(resolve, TICK_MS))
    }
  }

  async #send(units: number): Promise<void> {
    const ledger = this.#ledger
    const keys = ledger.keys
    const clicks: Message[] = []
    const views: Message[] = []
    const users: Message[] = []
    const firstClick = ledger.clicks
    for (let i = 0; i < units; i++) {
      for (let c = 0; c < 2; c++) {
        const time = now()
        const seq = ledger.addClick(time)
        const key = keyOf(seq, keys)
        clicks.push({ key, value: clickValue(seq), timestamp: String(time) })
        views.push({ key, value: viewValue(seq), timestamp: String(time + VIEW_DELAY_MS) })
      }
      const update = ledger.users + users.length
      const key = keyOf(update, keys)
      users.push({ key, value: userValue(key, Math.floor(update / keys)), timestamp: String(now()) })
    }
    try {
      await this.#producer.sendBatch({
        acks: -1,
        topicMessages: [
          { topic: this.#topics.clicks, messages: clicks },
          { topic: this.#topics.views, messages: views },
          { topic: this.#topics.users, messages: users }
        ]
      })
    } catch (error) {
      // Some of the batch may have been written: what the output must be is no longer known.
      throw new Error(`a send of the producer failed (clicks from c${firstClick} on)`, { cause: error })
    }
    ledger.users += users.length
    this.#units += units
  }
}
