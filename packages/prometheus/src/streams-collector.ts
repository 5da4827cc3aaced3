/**
 * Kafka Streams' metrics on a prom-client registry. Each metric family (a group and a name) is a
 * prom-client Counter or Gauge whose collect() reads the current values from the streams
 * instances when the registry is scraped; one snapshot of the instances serves every family of a
 * scrape. A family is registered the first time it is seen: at construction, before every scrape
 * through this package's handler, and after every other scrape of the registry (so a family that
 * appears between two scrapes of a handler of your own shows from the next scrape on).
 */
import { type MetricSnapshot, metricKind } from '@kstreams/core'
import { Counter, Gauge, type Registry, register as defaultRegistry } from 'prom-client'
import { DEFAULT_PREFIX, prometheusLabelName, prometheusName } from './prometheus-names.js'

/** What the collector reads: a KafkaStreams instance, or anything else that lists metric snapshots. */
export interface MetricsSource {
  /** The value of every metric now (KafkaStreams.metrics()). */
  metrics(): MetricSnapshot[]
}

/** Options of prometheusMetrics(). */
export interface PrometheusMetricsOptions {
  /** The registry to register on; default prom-client's global `register`. */
  readonly registry?: Registry
  /** The prefix of every metric name; default `kafka_streams`. */
  readonly prefix?: string
}

interface Family {
  readonly metric: Counter | Gauge
  readonly labelNames: readonly string[]
}

/** One scrape's values of one family, with the labels of each. */
type Samples = Array<{ labels: Record<string, string>; value: number }>

export class StreamsCollector {
  /** The registry the families are registered on. */
  readonly registry: Registry
  readonly #sources: readonly MetricsSource[]
  readonly #prefix: string
  readonly #families = new Map<string, Family>()
  #snapshot: Map<string, Samples> | undefined
  #closed = false

  constructor(sources: readonly MetricsSource[], options: PrometheusMetricsOptions = {}) {
    this.#sources = sources
    this.registry = options.registry ?? defaultRegistry
    this.#prefix = options.prefix ?? DEFAULT_PREFIX
    this.sync()
  }

  /** Registers the families that appeared since the last call (and widens one whose tags grew). */
  sync(): void {
    this.#sync(this.#read())
  }

  #sync(snapshots: readonly MetricSnapshot[]): void {
    if (this.#closed) return
    const seen = new Map<string, { help: string; kind: 'counter' | 'gauge'; labels: Set<string> }>()
    for (const m of snapshots) {
      const name = prometheusName(m, this.#prefix)
      let entry = seen.get(name)
      if (entry === undefined) {
        entry = { help: m.description, kind: metricKind(m), labels: new Set() }
        seen.set(name, entry)
      }
      for (const tag of Object.keys(m.tags)) entry.labels.add(prometheusLabelName(tag))
    }
    for (const [name, { help, kind, labels }] of seen) {
      const known = this.#families.get(name)
      if (known !== undefined && [...labels].every(l => known.labelNames.includes(l))) continue
      const labelNames = [...new Set([...(known?.labelNames ?? []), ...labels])].sort()
      if (known !== undefined) this.registry.removeSingleMetric(name)
      this.#families.set(name, { metric: this.#family(name, help || name, kind, labelNames), labelNames })
    }
  }

  /** Removes every family of this collector from the registry. */
  close(): void {
    this.#closed = true
    for (const name of this.#families.keys()) this.registry.removeSingleMetric(name)
    this.#families.clear()
  }

  #family(name: string, help: string, kind: 'counter' | 'gauge', labelNames: readonly string[]): Counter | Gauge {
    const samples = (): Samples => {
      const all = this.#samples()
      return all.get(name) ?? []
    }
    const config = { name, help, labelNames, registers: [this.registry] }
    if (kind === 'counter') {
      return new Counter({
        ...config,
        collect(this: Counter) {
          this.reset()
          for (const s of samples()) this.inc(withAll(s.labels, labelNames), s.value)
        }
      })
    }
    return new Gauge({
      ...config,
      collect(this: Gauge) {
        this.reset()
        for (const s of samples()) this.set(withAll(s.labels, labelNames), s.value)
      }
    })
  }

  /** This scrape's values by family; computed once per scrape (the collects of a scrape run in one turn). */
  #samples(): Map<string, Samples> {
    if (this.#snapshot !== undefined) return this.#snapshot
    const byName = new Map<string, Samples>()
    const snapshots = this.#read()
    for (const m of snapshots) {
      const name = prometheusName(m, this.#prefix)
      const labels: Record<string, string> = {}
      for (const [tag, value] of Object.entries(m.tags)) labels[prometheusLabelName(tag)] = value
      let list = byName.get(name)
      if (list === undefined) byName.set(name, (list = []))
      list.push({ labels, value: m.value })
    }
    this.#snapshot = byName
    queueMicrotask(() => {
      this.#snapshot = undefined
      // A family first seen in this scrape is registered for the next one.
      this.#sync(snapshots)
    })
    return byName
  }

  #read(): MetricSnapshot[] {
    return this.#sources.flatMap(s => s.metrics())
  }
}

/** The labels of a sample with every label of its family (a tag another member lacks is empty, which Prometheus reads as absent). */
function withAll(labels: Record<string, string>, labelNames: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {}
  for (const l of labelNames) out[l] = labels[l] ?? ''
  return out
}
