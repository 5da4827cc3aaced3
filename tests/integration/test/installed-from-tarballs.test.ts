/**
 * kstreams as an outside user gets it: every package is packed with `npm pack` (its `prepack`
 * builds it), and a fresh project in the temp dir, outside the workspace and with no scripts of
 * ours, installs the tarballs plus what they need from the registry. Plain `node` (no tsx, no
 * `@kstreams/source` condition) then runs the fixtures in fixtures/outside-user/: every public
 * entry point loads, the in-memory Kafka loads without kafkajs, a KafkaStreams without a client
 * fails with the ConfigError naming @kstreams/kafkajs, and a WordCount on stock kafkajs reaches
 * RUNNING on the broker and writes the exact counts.
 */
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTopics, produce, readUntil, sleep, tempDir, unique, waitFor } from './helpers.js'

const REPO = fileURLToPath(new URL('../../../', import.meta.url))
const FIXTURES = fileURLToPath(new URL('./fixtures/outside-user/', import.meta.url))
const PACKAGES = [
  '@kstreams/core',
  '@kstreams/kafkajs',
  '@kstreams/platformatic',
  '@kstreams/stores',
  '@kstreams/rocksdb',
  '@kstreams/dsl',
  '@kstreams/testing'
]
const KAFKAJS_VERSION = '2.2.4'

interface Run {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

/**
 * The environment of a user's shell: without NODE_OPTIONS and the npm_* variables of the
 * `npm test` running us (npm_config_local_prefix and friends would point the inner npm at the
 * workspace). The cache, registry and TLS settings stay, so the workspace install's cache is reused.
 */
function userEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|registry|userconfig|globalconfig|cafile|https?_proxy|proxy|noproxy|strict_ssl)$/i
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if ((/^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE_OPTIONS') && !keep.test(name)) continue
    env[name] = value
  }
  return env
}

/** Runs a command to its end; rejects with its output when it fails or outlasts timeoutMs. */
async function run(command: string, args: string[], cwd: string, timeoutMs: number): Promise<Run> {
  const child = spawn(command, args, { cwd, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const result = await new Promise<Run>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }))
  }).finally(() => clearTimeout(timer))
  if (result.code !== 0) {
    throw new Error(
      `\`${command} ${args.join(' ')}\` in ${cwd} ended with ${result.code ?? result.signal}${result.signal === 'SIGKILL' ? ` (timeout ${timeoutMs} ms)` : ''}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`
    )
  }
  return result
}

/** The promise, or a rejection with message after ms. */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}

const tail = (text: string, lines = 60): string => text.trimEnd().split('\n').slice(-lines).join('\n')

/** The one JSON line a fixture prints on stdout. */
async function fixture(project: string, file: string): Promise<any> {
  const { stdout } = await run(process.execPath, [file], project, 60000)
  return JSON.parse(stdout.trim().split('\n').at(-1)!)
}

/** Every directory `node_modules/<name>` under dir, at any depth. */
function installedCopies(dir: string, name: string): string[] {
  const found: string[] = []
  const walk = (nodeModules: string): void => {
    let entries: string[]
    try {
      entries = readdirSync(nodeModules)
    } catch {
      return
    }
    for (const entry of entries) {
      const paths = entry.startsWith('@')
        ? readdirSync(join(nodeModules, entry)).map(e => join(nodeModules, entry, e))
        : [join(nodeModules, entry)]
      for (const path of paths) {
        if (relative(nodeModules, path) === name) found.push(path)
        walk(join(path, 'node_modules'))
      }
    }
  }
  walk(join(dir, 'node_modules'))
  return found
}

/** Relative path -> bytes of every file under dir. */
function filesUnder(dir: string, base = dir, files = new Map<string, Buffer>()): Map<string, Buffer> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) filesUnder(path, base, files)
    else files.set(relative(base, path), readFileSync(path))
  }
  return files
}

describe('Installed from the packed tarballs, outside the workspace', function () {
  this.timeout(300000)
  let root: { path: string; remove: () => Promise<void> }
  let project: string

  before(async () => {
    root = await tempDir('kstreams-outside-user')
    expect(relative(REPO, root.path).startsWith('..'), `${root.path} must be outside ${REPO}`).to.equal(true)
    const packs = join(root.path, 'packs')
    project = join(root.path, 'app')
    await mkdir(packs)
    await mkdir(project)
    await run('npm', ['pack', ...PACKAGES.flatMap(p => ['--workspace', p]), '--pack-destination', packs], REPO, 240000)
    const tarballs = (await readdir(packs)).filter(f => f.endsWith('.tgz')).map(f => join(packs, f))
    expect(tarballs).to.have.length(PACKAGES.length)
    // A user's package.json: no scripts, no workspaces. npm >= 11.18 runs a dependency's install
    // script only when allowScripts lets it; RocksDB's (node-gyp-build) is allowed, as its prompt asks.
    await writeFile(
      join(project, 'package.json'),
      JSON.stringify(
        { name: 'outside-user', version: '1.0.0', private: true, type: 'module', allowScripts: { '@nxtedition/rocksdb': true } },
        null,
        2
      )
    )
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], project, 240000)
    for (const file of await readdir(FIXTURES)) await copyFile(join(FIXTURES, file), join(project, file))
  })

  after(async () => {
    await root?.remove()
  })

  it("installs one copy of each package and of kafkajs, byte for byte the registry's, with no install script of ours", async () => {
    for (const name of [...PACKAGES, 'kafkajs']) {
      expect(installedCopies(project, name), name).to.have.length(1)
    }
    await run('npm', ['ls', '--all'], project, 60000) // no missing or invalid dependency
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
    expect(manifest.scripts).to.equal(undefined)
    expect(installedCopies(project, 'patch-package')).to.deep.equal([])
    for (const name of PACKAGES) {
      const installed = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'))
      expect(
        Object.keys(installed.scripts ?? {}).filter(s => /^(pre|post)?install$|^prepare$/.test(s)),
        name
      ).to.deep.equal([])
      // @platformatic/kafka 2.x needs Node 22.22 (docs/node-versions in the README); the rest runs on Node 20.19.
      expect(installed.engines?.node, name).to.equal(name === '@kstreams/platformatic' ? '>=22.22.0' : '>=20.19')
      const files = [...filesUnder(join(project, 'node_modules', name)).keys()]
      expect(
        files.filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        `${name} ships TS sources`
      ).to.deep.equal([])
    }
    // kafkajs as the registry serves it: unpack its tarball from the npm cache and compare.
    const stock = join(root.path, 'stock-kafkajs')
    await mkdir(stock)
    await run('npm', ['pack', `kafkajs@${KAFKAJS_VERSION}`, '--prefer-offline', '--pack-destination', stock], project, 120000)
    await run('tar', ['-xzf', `kafkajs-${KAFKAJS_VERSION}.tgz`], stock, 60000)
    const expected = filesUnder(join(stock, 'package'))
    const actual = filesUnder(join(project, 'node_modules', 'kafkajs'))
    expect([...actual.keys()].sort()).to.deep.equal([...expected.keys()].sort())
    const changed = [...expected].filter(([file, bytes]) => !bytes.equals(actual.get(file)!)).map(([file]) => file)
    expect(changed, 'files of node_modules/kafkajs that differ from the registry tarball').to.deep.equal([])
  })

  it('loads every public entry point with plain node', async () => {
    const result = await fixture(project, 'check-entry-points.js')
    expect(result.execArgv.join(' ') + result.nodeOptions).not.to.match(/@kstreams\/source|tsx/)
    for (const [entryPoint, { file, exports }] of Object.entries<{ file: string; exports: number }>(result.entries)) {
      expect(fileURLToPath(file), entryPoint).to.match(/\/app\/node_modules\/@kstreams\/[a-z]+\/dist\/src\/.+\.js$/)
      expect(exports, entryPoint).to.be.greaterThan(0)
    }
  })

  it('loads @kstreams/testing/in-memory-kafka without loading kafkajs', async () => {
    const result = await fixture(project, 'check-in-memory-kafka.js')
    expect(result).to.deep.equal({ records: 1, afterInMemoryKafka: false, afterKafkajsPackage: true })
  })

  it('a KafkaStreams without a client throws the ConfigError that names @kstreams/kafkajs', async () => {
    const result = await fixture(project, 'check-no-client.js')
    expect(result).to.include({
      thrown: true,
      isConfigError: true,
      isStreamsError: true,
      code: 'INVALID_CONFIG',
      key: 'client',
      kafkajsLoaded: false
    })
    expect(result.message).to.include('@kstreams/kafkajs')
  })

  it('runs the WordCount on the broker to RUNNING, writes the exact counts and closes cleanly', async function () {
    await runWordCount(this, {})
  })

  it('runs the WordCount under exactly_once_v2 on @kstreams/platformatic the same way', async function () {
    await runWordCount(this, { WORDCOUNT_CLIENT: 'platformatic', WORDCOUNT_GUARANTEE: 'exactly_once_v2' })
  })

  /** The fixture wordcount.js with `extraEnv`, to RUNNING, exact counts, a clean close. */
  async function runWordCount(context: Mocha.Context, extraEnv: Record<string, string>): Promise<void> {
    const bootstrap = process.env.KAFKA_BOOTSTRAP_SERVERS
    if (bootstrap === undefined || bootstrap === '') {
      // No broker (the root hook starts one when KAFKA_BOOTSTRAP_SERVERS is unset, so only without it).
      context.test!.title += ' (skipped: KAFKA_BOOTSTRAP_SERVERS is not set)'
      context.skip()
    }
    const prefix = unique('outside-wc')
    const topics = { input: `${prefix}-in`, output: `${prefix}-out` }
    await createTopics([
      { topic: topics.input, numPartitions: 2 },
      { topic: topics.output, numPartitions: 2 }
    ])
    const state = await tempDir('kstreams-outside-state')
    const events: Array<{ event: string; to?: string; clean?: boolean }> = []
    let stderr = ''
    const child = spawn(process.execPath, ['wordcount.js'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...userEnv(),
        KAFKA_BOOTSTRAP_SERVERS: bootstrap,
        WORDCOUNT_APP_ID: `${prefix}-app`,
        WORDCOUNT_INPUT: topics.input,
        WORDCOUNT_OUTPUT: topics.output,
        WORDCOUNT_STATE_DIR: state.path,
        ...extraEnv
      }
    })
    let pending = ''
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString()
      const lines = pending.split('\n')
      pending = lines.pop()!
      for (const line of lines) if (line.trim() !== '') events.push(JSON.parse(line))
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(resolve =>
      child.on('close', (code, signal) => resolve({ code, signal }))
    )
    /** Fails with what the app said: its events and the end of its log (stderr). */
    const diagnose =
      (what: string) =>
      async (error: unknown): Promise<never> => {
        if (child.exitCode !== null || child.signalCode !== null) await Promise.race([exited, sleep(2000)]) // the rest of its stderr
        throw new Error(
          `${what}: ${(error as Error).message}\napp exit: ${child.exitCode ?? child.signalCode ?? 'still running'}\napp events: ${JSON.stringify(events)}\n--- app stderr\n${tail(stderr)}`
        )
      }
    try {
      await waitFor(
        'the app to reach RUNNING',
        () => {
          if (child.exitCode !== null || child.signalCode !== null)
            throw new Error(`the app exited with ${child.exitCode ?? child.signalCode}`)
          if (events.some(e => e.event === 'state' && (e.to === 'ERROR' || e.to === 'PENDING_SHUTDOWN')))
            throw new Error('the app is shutting down')
          return events.some(e => e.event === 'state' && e.to === 'RUNNING')
        },
        90000
      ).catch(diagnose('no RUNNING'))
      await produce(topics.input, [
        { key: '1', value: 'Hello Kafka Streams' },
        { key: '2', value: 'All streams lead to Kafka' },
        { key: '3', value: 'Join Kafka Summit' },
        { key: '4', value: 'kafka, KAFKA; streams!' }
      ])
      const expected = { hello: 1, kafka: 5, streams: 3, all: 1, lead: 1, to: 1, join: 1, summit: 1 }
      const out = await readUntil(
        topics.output,
        (k, v) => [k!.toString(), Number(v!.readBigInt64BE())] as const,
        records => Object.entries(expected).every(([word, count]) => records.some(([k, n]) => k === word && n === count)),
        90000
      )
      const last = new Map<string, number>()
      for (const [word, count] of out) last.set(word, count)
      try {
        expect(Object.fromEntries(last)).to.deep.equal(expected)
      } catch (error) {
        await diagnose('wrong counts')(error)
      }
      child.kill('SIGTERM')
      const { code } = await within(exited, 60000, 'the app did not exit within 60 s of SIGTERM').catch(diagnose('no clean exit'))
      if (code !== 0 || !events.some(e => e.event === 'closed' && e.clean === true))
        await diagnose('no clean close')(new Error(`exit code ${code}`))
      expect(events.filter(e => e.event === 'state').map(e => e.to)).to.include.members([
        'REBALANCING',
        'RUNNING',
        'PENDING_SHUTDOWN',
        'NOT_RUNNING'
      ])
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await state.remove()
    }
  }
})
