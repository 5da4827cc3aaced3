/**
 * Benchmark: the DSL's overhead. Each workload is one topology written twice — with the DSL and
 * with the Processor API doing the same work (same stores with the DSL's defaults: timestamped,
 * cached, logged; same repartition) — and run on the TopologyTestDriver over the same input.
 * Warm-up, then interleaved rounds; prints records/s per variant and the DSL / Processor API ratio.
 *
 * Usage: npm run bench:dsl -w @kstreams/bench -- --records=1000000 --rounds=3 --warmup=100000 --vocabulary=10000
 */
import { Serdes } from '@kstreams/core'
import { TopologyTestDriver } from '@kstreams/testing'
import { cpus } from 'node:os'
import { WORKLOADS, type Workload } from './workloads.js'

interface Options {
  records: number
  rounds: number
  warmup: number
  vocabulary: number
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { records: 1_000_000, rounds: 3, warmup: 100_000, vocabulary: 10_000 }
  for (const arg of argv) {
    const match = /^--(records|rounds|warmup|vocabulary)=(\d+)$/.exec(arg)
    if (match === null) throw new Error(`Unknown argument ${arg}; expected --records=N, --rounds=N, --warmup=N or --vocabulary=N`)
    options[match[1] as keyof Options] = Number(match[2])
  }
  if (options.records < 1 || options.rounds < 1 || options.vocabulary < 1)
    throw new Error('records, rounds and vocabulary must be at least 1')
  return options
}

/** xorshift32: the same input sequence on every run. */
function xorshift(seed: number): () => number {
  let x = seed | 0
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

function makeWords(vocabulary: number, records: number): { words: string[]; input: Uint32Array } {
  const random = xorshift(0x5eed)
  const words = Array.from({ length: vocabulary }, (_, i) => `w${i.toString(36)}`)
  const input = new Uint32Array(records)
  for (let i = 0; i < records; i++) input[i] = Math.floor(random() * vocabulary)
  return { words, input }
}

/** Pipes `records` inputs (one word per line, one second apart) and drains every output; returns seconds and the output count. */
function runOnce(
  workload: Workload,
  variant: 'dsl' | 'papi',
  words: readonly string[],
  input: Uint32Array,
  records: number
): { seconds: number; outputs: number } {
  const topology = variant === 'dsl' ? workload.dsl() : workload.papi()
  const driver = new TopologyTestDriver(topology, { applicationId: `bench-${workload.name}` }, 0)
  try {
    const source = driver.createInputTopic(workload.inputTopic, Serdes.String(), Serdes.String())
    let outputs = 0
    const start = process.hrtime.bigint()
    for (let i = 0; i < records; i++) {
      const word = words[input[i]!]!
      source.pipeInput(word, word, i * 1000)
      if ((i + 1) % 10_000 === 0 || i === records - 1) outputs += workload.drain(driver)
    }
    const seconds = Number(process.hrtime.bigint() - start) / 1e9
    workload.check(driver, records)
    return { seconds, outputs }
  } finally {
    driver.close()
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

function main(): void {
  const options = parseOptions(process.argv.slice(2))
  const { words, input } = makeWords(options.vocabulary, Math.max(options.records, options.warmup))
  const cpu = cpus()
  console.log('dsl-bench: DSL topologies vs the same work written with the Processor API, on the TopologyTestDriver')
  console.log(`node ${process.version}, ${process.platform}/${process.arch}, ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}`)
  console.log(
    `${fmt(options.records)} records per round, vocabulary ${fmt(options.vocabulary)} words, warm-up ${fmt(options.warmup)}, ${options.rounds} interleaved rounds\n`
  )
  for (const workload of WORKLOADS) {
    if (options.warmup > 0) for (const v of ['dsl', 'papi'] as const) runOnce(workload, v, words, input, options.warmup)
    const rates = { dsl: [] as number[], papi: [] as number[] }
    const outputs = { dsl: new Set<number>(), papi: new Set<number>() }
    for (let round = 0; round < options.rounds; round++) {
      for (const v of ['dsl', 'papi'] as const) {
        const r = runOnce(workload, v, words, input, options.records)
        rates[v].push(options.records / r.seconds)
        outputs[v].add(r.outputs)
      }
    }
    if (outputs.dsl.size !== 1 || outputs.papi.size !== 1) throw new Error(`${workload.name}: output counts differ between rounds`)
    if ([...outputs.dsl][0] !== [...outputs.papi][0])
      throw new Error(`${workload.name}: the DSL and the Processor API versions wrote different numbers of records`)
    const dsl = median(rates.dsl)
    const papi = median(rates.papi)
    console.log(`${workload.name}: ${workload.description}`)
    console.log(
      `  DSL            ${rates.dsl.map(fmt).join(' / ').padEnd(34)} median ${fmt(dsl).padStart(9)} rec/s  (${[...outputs.dsl][0]} outputs)`
    )
    console.log(
      `  Processor API  ${rates.papi.map(fmt).join(' / ').padEnd(34)} median ${fmt(papi).padStart(9)} rec/s  (${[...outputs.papi][0]} outputs)`
    )
    console.log(`  DSL / Processor API = ${(dsl / papi).toFixed(2)}\n`)
  }
}

main()
