/**
 * One sensor (Kafka's Sensor): counts events and, when its recording level is enabled, records
 * a value per event (a latency in nanoseconds, a hit ratio) into windowed statistics.
 *
 * The hot path stays cheap: when the level is disabled an event costs one increment and no clock
 * read. Events counted without a clock read are folded into the rate's current sample when the
 * rate is measured or the next value is recorded, so a rate is exact when the level is enabled
 * and approximate (events attributed to the sample open at the next measurement) otherwise.
 * Kafka records state-store rates only at DEBUG; here they are always counted because it is free.
 */
import { type Clock, systemClock } from '../clock.js'
import { DEFAULT_SAMPLE_CONFIG, SampledStat, type SampleConfig } from './sampled-stat.js'

export interface SensorOptions {
  /** Whether values are recorded (the sensor's level is enabled by the configured level). */
  readonly recording: boolean
  readonly clock: Clock
  readonly sampleConfig?: SampleConfig
}

export class Sensor {
  readonly name: string
  /** Whether values are recorded; when false only the event count moves. */
  readonly recording: boolean
  readonly #clock: Clock
  /** With the system clock, the end of a timed operation doubles as the sample time (no extra clock read). */
  readonly #systemClock: boolean
  readonly #rate: SampledStat
  readonly #values: SampledStat
  #count = 0
  #folded = 0

  constructor(name: string, options: SensorOptions) {
    this.name = name
    this.recording = options.recording
    this.#clock = options.clock
    this.#systemClock = options.clock === systemClock
    this.#rate = new SampledStat(options.sampleConfig ?? DEFAULT_SAMPLE_CONFIG)
    this.#values = new SampledStat(options.sampleConfig ?? DEFAULT_SAMPLE_CONFIG)
  }

  /** A sensor that belongs to no registry: it counts, records nothing, reports nowhere. */
  static detached(name: string): Sensor {
    return new Sensor(name, { recording: false, clock: { milliseconds: () => 0 } })
  }

  /** Events since the sensor was created. */
  get count(): number {
    return this.#count
  }

  /** Starts timing an operation: a high-resolution time in ms when recording, else 0 (no clock read). */
  start(): number {
    return this.recording ? performance.now() : 0
  }

  /** Ends an operation started with start(): counts it and, when recording, records its latency in ns. */
  end(startMs: number): void {
    if (!this.recording) {
      this.#count++
      return
    }
    const end = performance.now()
    this.#recordAt((end - startMs) * 1e6, this.#systemClock ? performance.timeOrigin + end : this.#clock.milliseconds())
  }

  /** Counts one event and, when recording, records its value. */
  record(value: number): void {
    if (this.recording) this.#recordAt(value, this.#clock.milliseconds())
    else this.#count++
  }

  #recordAt(value: number, nowMs: number): void {
    this.#count++
    this.#fold(nowMs)
    this.#values.record(value, nowMs)
  }

  /** Events per second over the sample window. */
  rate(nowMs: number): number {
    this.#fold(nowMs)
    return this.#rate.ratePerSecond(nowMs)
  }

  avg(nowMs: number): number {
    return this.#values.avg(nowMs)
  }

  max(nowMs: number): number {
    return this.#values.max(nowMs)
  }

  min(nowMs: number): number {
    return this.#values.min(nowMs)
  }

  #fold(nowMs: number): void {
    const pending = this.#count - this.#folded
    if (pending > 0) {
      this.#rate.record(pending, nowMs)
      this.#folded = this.#count
    }
  }
}
