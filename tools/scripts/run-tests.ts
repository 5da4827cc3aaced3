/**
 * The test step of `npm test`: the same tests as `mocha` with the root .mocharc.json, in two
 * mocha processes at once, because most of the broker tests' time is spent waiting (session
 * timeouts, brokers down, rebalances) while the unit tests keep a core busy:
 *   - tools/scripts/mocharc.unit.cjs: the packages' tests, the adapter contracts, the examples;
 *   - tools/scripts/mocharc.broker.cjs: tests/integration (real brokers, child processes).
 * The broker tests' output streams as it comes; the unit tests' output is printed whole, between
 * two lines, when they end. The last line is the sum of both runs, "N passed, N failed", which
 * CI reads; the exit code is non-zero when either run failed. Without KAFKA_BOOTSTRAP_SERVERS it
 * starts one local broker for both runs (as the root hook does for a single run).
 */
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { KafkaTestCluster } from '@kstreams/kafka-local'

const SUMMARY = /^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/
const mocha = createRequire(import.meta.url).resolve('mocha/bin/mocha.js')

interface Run {
  readonly code: number | null
  readonly summary: { passed: number; failed: number; skipped: number } | undefined
}

/** One mocha process; `onLine` gets each complete line of its output, stdout and stderr alike. */
async function run(config: string, env: NodeJS.ProcessEnv, onLine: (line: string) => void): Promise<Run> {
  return await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [mocha, '--config', config], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let summary: Run['summary']
    const lines = (stream: NodeJS.ReadableStream): void => {
      let pending = ''
      stream.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8')
        let nl
        while ((nl = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, nl)
          pending = pending.slice(nl + 1)
          const m = SUMMARY.exec(line)
          if (m !== null) summary = { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) }
          onLine(line)
        }
      })
      stream.on('end', () => {
        if (pending !== '') onLine(pending)
      })
    }
    lines(child.stdout)
    lines(child.stderr)
    child.once('error', reject)
    child.once('close', code => {
      resolve({ code, summary })
    })
  })
}

let cluster: KafkaTestCluster | undefined
const env = { ...process.env }
if (env.KAFKA_BOOTSTRAP_SERVERS === undefined || env.KAFKA_BOOTSTRAP_SERVERS === '') {
  cluster = await KafkaTestCluster.start({})
  env.KAFKA_BOOTSTRAP_SERVERS = cluster.bootstrapServers
}
const write = (line: string): void => {
  process.stdout.write(line + '\n')
}
const unitLines: string[] = []
let results: Run[]
try {
  results = await Promise.all([
    run('tools/scripts/mocharc.unit.cjs', env, line => unitLines.push(line)).then(result => {
      write('\n== unit tests (packages, adapter contracts, examples), run beside the broker tests:')
      for (const line of unitLines) write(line)
      write('== end of the unit tests\n')
      return result
    }),
    run('tools/scripts/mocharc.broker.cjs', env, write)
  ])
} finally {
  await cluster?.stop()
}
const [unit, broker] = results
let passed = 0
let failed = 0
let skipped = 0
for (const [name, result] of [
  ['unit', unit!],
  ['broker', broker!]
] as const) {
  if (result.summary === undefined) {
    write(`the ${name} tests ended (exit code ${String(result.code)}) without a summary: counted as one failure`)
    failed += 1
    continue
  }
  passed += result.summary.passed
  failed += result.summary.failed
  skipped += result.summary.skipped
  if (result.code !== 0 && result.summary.failed === 0) {
    write(`the ${name} tests exited with code ${String(result.code)}: counted as one failure`)
    failed += 1
  }
}
write(`${passed} passed, ${failed} failed` + (skipped > 0 ? `, ${skipped} skipped` : ''))
process.exitCode = failed > 0 ? 1 : 0
