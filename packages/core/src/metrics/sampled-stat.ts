/**
 * A windowed statistic (Kafka's SampledStat): values are recorded into a ring of `samples`
 * samples, each `timeWindowMs` long; a sample older than `samples * timeWindowMs` no longer
 * counts. Measures the count, sum, minimum and maximum over the retained samples, and the window
 * a rate is computed over (Kafka's Rate.windowSize).
 */
export interface SampleConfig {
  /** Kafka's `metrics.num.samples` (default 2). */
  readonly samples: number
  /** Kafka's `metrics.sample.window.ms` (default 30000). */
  readonly timeWindowMs: number
}

export const DEFAULT_SAMPLE_CONFIG: SampleConfig = Object.freeze({ samples: 2, timeWindowMs: 30_000 })

class Sample {
  startMs: number
  count = 0
  sum = 0
  max = -Infinity
  min = Infinity

  constructor(nowMs: number) {
    this.startMs = nowMs
  }

  reset(nowMs: number): void {
    this.startMs = nowMs
    this.count = 0
    this.sum = 0
    this.max = -Infinity
    this.min = Infinity
  }
}

export class SampledStat {
  readonly #config: SampleConfig
  readonly #samples: Sample[] = []
  #current = 0

  constructor(config: SampleConfig = DEFAULT_SAMPLE_CONFIG) {
    this.#config = config
  }

  record(value: number, nowMs: number): void {
    let sample = this.#samples[this.#current]
    if (sample === undefined) {
      sample = new Sample(nowMs)
      this.#samples.push(sample)
    } else if (nowMs - sample.startMs >= this.#config.timeWindowMs) {
      sample = this.#advance(nowMs)
    }
    sample.count++
    sample.sum += value
    if (value > sample.max) sample.max = value
    if (value < sample.min) sample.min = value
  }

  count(nowMs: number): number {
    this.#purge(nowMs)
    let count = 0
    for (const s of this.#samples) count += s.count
    return count
  }

  sum(nowMs: number): number {
    this.#purge(nowMs)
    let sum = 0
    for (const s of this.#samples) sum += s.sum
    return sum
  }

  /** NaN when nothing was recorded in the retained samples. */
  avg(nowMs: number): number {
    const count = this.count(nowMs)
    return count === 0 ? NaN : this.sum(nowMs) / count
  }

  max(nowMs: number): number {
    this.#purge(nowMs)
    let max = -Infinity
    let count = 0
    for (const s of this.#samples) {
      count += s.count
      if (s.max > max) max = s.max
    }
    return count === 0 ? NaN : max
  }

  min(nowMs: number): number {
    this.#purge(nowMs)
    let min = Infinity
    let count = 0
    for (const s of this.#samples) {
      count += s.count
      if (s.min < min) min = s.min
    }
    return count === 0 ? NaN : min
  }

  /** Sum per second over the elapsed window, padded to `samples - 1` full windows (Kafka's Rate). */
  ratePerSecond(nowMs: number): number {
    const sum = this.sum(nowMs)
    let oldest = nowMs
    for (const s of this.#samples) if (s.startMs < oldest) oldest = s.startMs
    let elapsed = nowMs - oldest
    const fullWindows = Math.floor(elapsed / this.#config.timeWindowMs)
    const minFullWindows = this.#config.samples - 1
    if (fullWindows < minFullWindows) elapsed += (minFullWindows - fullWindows) * this.#config.timeWindowMs
    return sum / (Math.max(elapsed, 1) / 1000)
  }

  #advance(nowMs: number): Sample {
    this.#current = (this.#current + 1) % this.#config.samples
    let sample = this.#samples[this.#current]
    if (sample === undefined) {
      sample = new Sample(nowMs)
      this.#samples.push(sample)
    } else {
      sample.reset(nowMs)
    }
    return sample
  }

  #purge(nowMs: number): void {
    const expireAge = this.#config.samples * this.#config.timeWindowMs
    for (const s of this.#samples) if (nowMs - s.startMs >= expireAge) s.reset(nowMs)
  }
}
