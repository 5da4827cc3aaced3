/**
 * Benchmark: per-operation throughput of the kstreams key-value store API, in-memory and RocksDB,
 * each next to a baseline doing the same work in the same run: the raw @nxtedition/rocksdb
 * binding (opened with the options the RocksDB store chose) and a plain sorted map. Workloads:
 * put, get (hit, miss), range scan, putAll, and the mixed get + put per record workload over
 * 1,000,000 records and 10,000 keys (committing every 1,000 and every 100,000 records). Store and
 * baseline run each workload back to back, alternating order per round; prints the medians and
 * the store / baseline ratios. The target: RocksDB store >= 0.7x of the raw binding on the mixed
 * workload.
 *
 * Usage (from tools/bench): npm run bench:stores -- --keys=200000 --records=1000000 --rounds=3 [--no-sync]
 */
import { cpus } from 'node:os'
import { openTarget } from './targets.js'
import type { Target, TargetKind } from './targets.js'
import { getHit, getMiss, makeData, mixed, put, putAll, range } from './workloads.js'
import type { Data, Measurement, Settings } from './workloads.js'

interface Options {
  keys: number
  records: number
  counterKeys: number
  rounds: number
  sync: boolean
}

function parseOptions(argv: readonly string[]): Options {
  const options: Options = { keys: 200_000, records: 1_000_000, counterKeys: 10_000, rounds: 3, sync: true }
  for (const arg of argv) {
    if (arg === '--no-sync') {
      options.sync = false
      continue
    }
    const match = /^--(keys|records|counterKeys|rounds)=(\d+)$/.exec(arg)
    if (match === null) throw new Error(`Unknown argument ${arg}; expected --keys=N, --records=N, --counterKeys=N, --rounds=N or --no-sync`)
    options[match[1] as 'keys' | 'records' | 'counterKeys' | 'rounds'] = Number(match[2])
  }
  return options
}

type Workload = 'put' | 'get hit' | 'get miss' | 'range (entries)' | 'putAll' | 'mixed, commit/1k' | 'mixed, commit/100k'
const WORKLOADS: readonly Workload[] = ['put', 'get hit', 'get miss', 'range (entries)', 'putAll', 'mixed, commit/1k', 'mixed, commit/100k']
const PAIRS: ReadonlyArray<readonly [TargetKind, TargetKind]> = [
  ['kstreams rocksdb', 'raw binding'],
  ['kstreams in-memory', 'sorted map']
]

const settings: Settings = { commitEvery: 10_000, scans: 20_000, scanLength: 100, putAllBatch: 1000 }

type Group = (target: Target, data: Data) => Array<[Workload, Measurement]>

/** Workload groups, each on a fresh store (the reads reuse the store the puts filled). */
const GROUPS: readonly Group[] = [
  (target, data) => [
    ['put', put(target, data, settings)],
    ['get hit', getHit(target, data)],
    ['get miss', getMiss(target, data)],
    ['range (entries)', range(target, data, settings)]
  ],
  (target, data) => [['putAll', putAll(target, data, settings)]],
  (target, data) => [['mixed, commit/1k', mixed(target, data, 1000)]],
  (target, data) => [['mixed, commit/100k', mixed(target, data, 100_000)]]
]

async function runGroup(kind: TargetKind, group: Group, data: Data, sync: boolean): Promise<Array<[Workload, Measurement]>> {
  const target = await openTarget(kind, sync)
  try {
    return group(target, data)
  } finally {
    await target.close()
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}
const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2))
  const data = makeData(options.keys, options.counterKeys, options.records)
  const kinds = PAIRS.flat()
  const rates = new Map<TargetKind, Map<Workload, number[]>>(kinds.map(k => [k, new Map(WORKLOADS.map(w => [w, []]))]))
  console.log(
    `store bench: ${fmt(options.keys)} keys, ${fmt(options.records)} mixed records over ${fmt(options.counterKeys)} keys, ${options.rounds} rounds, ` +
      `fsync at commit: ${String(options.sync)}, ${cpus().length} CPUs, Node ${process.version}`
  )
  // Warm-up: every group once per contender, on less data.
  const warm = makeData(20_000, 1000, 100_000)
  for (const kind of kinds) for (const group of GROUPS) await runGroup(kind, group, warm, options.sync)
  // Each group runs on both contenders of a pair back to back, the order alternating per round,
  // so that drift in machine load touches store and baseline alike.
  for (let r = 0; r < options.rounds; r++) {
    for (const pair of PAIRS) {
      for (const group of GROUPS) {
        for (const kind of r % 2 === 0 ? pair : [...pair].reverse()) {
          for (const [workload, m] of await runGroup(kind, group, data, options.sync))
            rates
              .get(kind)!
              .get(workload)!
              .push(m.ops / m.seconds)
        }
      }
    }
    process.stdout.write(`round ${r + 1}/${options.rounds} done\n`)
  }
  const med = (kind: TargetKind, w: Workload): number => median(rates.get(kind)!.get(w)!)
  console.log('\nmedian ops/s (range: entries/s)')
  console.log(['workload'.padEnd(20), ...kinds.map(k => k.padStart(20))].join(''))
  for (const w of WORKLOADS) console.log([w.padEnd(20), ...kinds.map(k => fmt(med(k, w)).padStart(20))].join(''))
  console.log('\nratios (store / baseline)')
  const summary: Record<string, Record<string, number>> = {}
  for (const [store, baseline] of PAIRS) {
    const ratios: Record<string, number> = {}
    for (const w of WORKLOADS) ratios[w] = +(med(store, w) / med(baseline, w)).toFixed(2)
    summary[`${store} / ${baseline}`] = ratios
    console.log(`${store} / ${baseline}: ` + WORKLOADS.map(w => `${w} ${ratios[w]!.toFixed(2)}x`).join(', '))
  }
  const mixedRatio = Math.min(
    summary['kstreams rocksdb / raw binding']!['mixed, commit/1k']!,
    summary['kstreams rocksdb / raw binding']!['mixed, commit/100k']!
  )
  console.log(
    `\ntarget: kstreams rocksdb >= 0.70x of the raw binding on the mixed workload: ${mixedRatio.toFixed(2)}x -> ${mixedRatio >= 0.7 ? 'met' : 'NOT met'}`
  )
  console.log(
    JSON.stringify({
      options,
      medians: Object.fromEntries(kinds.map(k => [k, Object.fromEntries(WORKLOADS.map(w => [w, Math.round(med(k, w))]))])),
      ratios: summary
    })
  )
}

main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
