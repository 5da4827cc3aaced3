/**
 * The registry round trip: kstreams as an outside user gets it from a registry. A local npm
 * registry (verdaccio, tools/registry) is started, `lerna publish from-package` publishes every
 * non-private package to it (each built by its `prepack`), and a fresh project in the temp dir,
 * outside the workspace and with no scripts of ours, installs them with the README's install
 * commands: our scope from the local registry (`@kstreams:registry` in its .npmrc), everything
 * else from the npm registry, as for a user of the public packages.
 *
 * With the project's own tools (no tsx, no `@kstreams/source` condition, nothing of the monorepo
 * on its PATH): `tsc` type-checks the README's "Processor API" and "DSL" code blocks (extracted
 * from README.md) and the project's tests against the published .d.ts; `node` runs the Processor
 * API example as written; `npx mocha` and `npx vitest run` drive the README topologies on the
 * TopologyTestDriver (one on RocksDB stores); a CommonJS file require()s the packages. Plain
 * `node` then runs the fixtures in fixtures/outside-user/: every public entry point loads,
 * @kstreams/testing and its in-memory Kafka load without kafkajs, a KafkaStreams without a client
 * fails with the ConfigError naming @kstreams/kafkajs, and a WordCount reaches RUNNING on the
 * broker and writes the exact counts, on kafkajs, on platformatic under exactly_once_v2, and on
 * two stream threads on worker threads (the built package's worker entry).
 * The README example, mocha, vitest and require() run again on Node 22 (the npm registry's
 * node-<platform>-<arch> build). The scratch project's files are in tools/registry/outside-user/.
 *
 * KSTREAMS_README=<file> checks another README (to try an edit); KSTREAMS_KEEP_SCRATCH=1 keeps the
 * scratch project and prints where it is.
 */
import { expect } from 'chai'
import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { copyFile, cp, mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import { delimiter, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTopics, produce, readUntil, sleep, tempDir, unique, waitFor } from './helpers.js'
import {
  type LocalRegistry,
  publishWorkspace,
  REGISTRY_TOOL,
  REPO,
  run as runIn,
  startLocalRegistry,
  tail,
  userEnv,
  type WorkspacePackage
} from './local-registry.js'

const FIXTURES = fileURLToPath(new URL('./fixtures/outside-user/', import.meta.url))
const TEMPLATE = join(REGISTRY_TOOL, 'outside-user')
/** The README whose examples are checked (KSTREAMS_README: another file, e.g. to try an edit first). */
const README = process.env.KSTREAMS_README ?? join(REPO, 'README.md')
const README_TEXT = readFileSync(README, 'utf8')
/**
 * The README's install commands, word for word (the test only adds flags that keep npm quiet and
 * offline-first): every `npm install ...` line of its shell blocks that names an @kstreams package,
 * in order (the planned two while it has none).
 */
const README_INSTALLS: string[][] = readmeInstallCommands(README_TEXT)
const INSTALLS: string[][] =
  README_INSTALLS.length > 0
    ? README_INSTALLS
    : [
        ['@kstreams/core', '@kstreams/dsl', '@kstreams/stores', '@kstreams/rocksdb', '@kstreams/kafkajs', '@kstreams/platformatic'],
        ['--save-dev', '@kstreams/testing', 'typescript', 'mocha', 'vitest']
      ]
/** The README's @kstreams packages. */
const README_PACKAGES = INSTALLS.flat().filter(word => word.startsWith('@kstreams/'))
/** What the project's tests need (those the README's commands did not install): TypeScript, mocha, vitest, chai, types. */
const TEST_TOOLS = ['typescript', 'mocha', 'vitest', '@types/node', '@types/mocha', 'chai', '@types/chai']
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund']
const KAFKAJS_VERSION = '2.2.4'
/**
 * The other Node the project's tests run on besides this one (the README promises Node 22 with
 * Node 24): the npm registry's build of it (node-<platform>-<arch>), so every machine has it.
 */
const NODE_22 = '22.23.5'
/** The TypeScript the repository builds with, to type-check against besides the latest one the README's install gets. */
const REPO_TYPESCRIPT: string = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).devDependencies.typescript

describe('Installed from a local npm registry, outside the workspace', function () {
  this.timeout(900000)
  let root: { path: string; remove: () => Promise<void> } | undefined
  let registry: LocalRegistry | undefined
  let project: string
  let published: WorkspacePackage[] = []
  /** Only the project's node on PATH (a link to this node), none of the monorepo's tools. */
  let projectBin: string
  const timings: Array<[string, number]> = []
  const timed = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    const started = Date.now()
    try {
      return await work()
    } finally {
      timings.push([phase, Date.now() - started])
    }
  }

  /**
   * A user's shell in the project: userEnv() whose PATH has the node of binDir (default: a link to
   * this node) first and nothing from the repository, no NODE_PATH.
   */
  const projectEnv = (extra: NodeJS.ProcessEnv = {}, binDir = projectBin): NodeJS.ProcessEnv => {
    const env = userEnv()
    delete env.NODE_PATH
    const path = (env.PATH ?? '').split(delimiter).filter(dir => dir !== '' && relative(REPO, dir).startsWith('..'))
    return { ...env, PATH: [binDir, ...path].join(delimiter), NO_COLOR: '1', FORCE_COLOR: '0', ...extra }
  }
  const run = (command: string, args: string[], timeoutMs: number, options: { allowFailure?: boolean; env?: NodeJS.ProcessEnv } = {}) =>
    runIn(command, args, project, timeoutMs, { env: options.env ?? projectEnv(), allowFailure: options.allowFailure })

  before(async () => {
    root = await tempDir('kstreams-registry-user')
    expect(relative(REPO, root.path).startsWith('..'), `${root.path} must be outside ${REPO}`).to.equal(true)
    projectBin = join(root.path, 'bin')
    await mkdir(projectBin)
    await symlink(process.execPath, join(projectBin, 'node'))
    project = join(root.path, 'app')
    await mkdir(project)

    registry = await timed('registry start (incl. npm ci of tools/registry when needed)', () => startLocalRegistry())
    const publish = await publishWorkspace(registry)
    timings.push(['staging the workspace', publish.stageMs], ['lerna publish (prepack builds included)', publish.lernaMs])
    published = publish.packages

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
    // Our scope from the local registry; the rest from the user's registry (the npm registry).
    await writeFile(join(project, '.npmrc'), `@kstreams:registry=${registry.url}\n`)
    if (README_INSTALLS.length === 0) console.log('      (README.md shows no `npm install @kstreams/...` line: using the planned ones)')
    for (const [i, args] of INSTALLS.entries())
      await timed(`npm install (README line ${i + 1})`, () => run('npm', ['install', ...args, ...NPM_FLAGS], 300000))
    // Then what the tests need, and every other published package (so each one is installed and checked).
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
    const present = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})])
    const rest = [...TEST_TOOLS, ...published.map(p => p.name)].filter(name => !present.has(name))
    if (rest.length > 0)
      await timed('npm install --save-dev (test tools, other packages)', () =>
        run('npm', ['install', '--save-dev', ...rest, ...NPM_FLAGS], 300000)
      )
    for (const file of await readdir(FIXTURES)) await copyFile(join(FIXTURES, file), join(project, file))
    await cp(TEMPLATE, project, { recursive: true })
    await writeReadmeExamples(project)
  })

  after(async () => {
    await registry?.stop()
    if (process.env.KSTREAMS_KEEP_SCRATCH === '1' && root !== undefined) console.log(`      kept the scratch project: ${root.path}/app`)
    else await root?.remove()
    if (timings.length > 0)
      console.log(`      registry round trip: ${timings.map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`).join(', ')}`)
  })

  it('publishes every non-private workspace package, and the project installs exactly those tarballs', async () => {
    const names = published.map(p => p.name)
    expect(names).to.include.members(['@kstreams/core', '@kstreams/testing'])
    expect(names, 'every @kstreams package the README installs is published').to.include.members(README_PACKAGES)
    const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'))
    for (const name of Object.keys(lock.packages)
      .filter(path => /^node_modules\/@kstreams\/[^/]+$/.test(path))
      .map(path => path.slice('node_modules/'.length))) {
      const pkg = published.find(p => p.name === name)
      expect(pkg, `${name} is installed but was not published`).not.to.equal(undefined)
      const entry = lock.packages[`node_modules/${name}`]
      expect(entry.version, name).to.equal(pkg!.version)
      const packument: any = await (await fetch(new URL(name.replace('/', '%2f'), registry!.url))).json()
      expect(entry.integrity, `${name}: the installed tarball is the one published to ${registry!.url}`).to.equal(
        packument.versions[pkg!.version].dist.integrity
      )
    }
  })

  it("installs one copy of each package and of kafkajs, byte for byte the registry's, with no install script of ours", async () => {
    const installed = published.filter(p => existsSync(join(project, 'node_modules', p.name)))
    expect(installed.map(p => p.name)).to.deep.equal(published.map(p => p.name))
    for (const name of [...installed.map(p => p.name), 'kafkajs']) {
      expect(installedCopies(project, name), name).to.have.length(1)
    }
    await run('npm', ['ls', '--all'], 60000) // no missing or invalid dependency
    const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
    expect(manifest.scripts).to.equal(undefined)
    expect(installedCopies(project, 'patch-package')).to.deep.equal([])
    for (const { name } of installed) {
      const pkg = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'))
      expect(
        Object.keys(pkg.scripts ?? {}).filter(s => /^(pre|post)?install$|^prepare$/.test(s)),
        name
      ).to.deep.equal([])
      // @platformatic/kafka 2.x needs Node 22.22 (docs/node-versions in the README); the rest runs on Node 20.19.
      expect(pkg.engines?.node, name).to.equal(name === '@kstreams/platformatic' ? '>=22.22.0' : '>=20.19')
      const files = [...filesUnder(join(project, 'node_modules', name)).keys()]
      expect(
        files.filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts')),
        `${name} ships TS sources`
      ).to.deep.equal([])
    }
    // kafkajs as the npm registry serves it: unpack its tarball from the npm cache and compare.
    const stock = join(root!.path, 'stock-kafkajs')
    await mkdir(stock)
    await runIn('npm', ['pack', `kafkajs@${KAFKAJS_VERSION}`, '--prefer-offline', '--pack-destination', stock], project, 120000, {
      env: projectEnv()
    })
    await runIn('tar', ['-xzf', `kafkajs-${KAFKAJS_VERSION}.tgz`], stock, 60000)
    const expected = filesUnder(join(stock, 'package'))
    const actual = filesUnder(join(project, 'node_modules', 'kafkajs'))
    expect([...actual.keys()].sort()).to.deep.equal([...expected.keys()].sort())
    const changed = [...expected].filter(([file, bytes]) => !bytes.equals(actual.get(file)!)).map(([file]) => file)
    expect(changed, 'files of node_modules/kafkajs that differ from the registry tarball').to.deep.equal([])
  })

  it("type-checks the README's examples and the project's tests with its own tsc (nodenext and bundler resolution)", async () => {
    const version = JSON.parse(readFileSync(join(project, 'node_modules', 'typescript', 'package.json'), 'utf8')).version
    for (const config of ['tsconfig.json', 'tsconfig.bundler.json']) {
      const result = await timed(`tsc ${version} -p ${config}`, () => run('npx', ['tsc', '-p', config], 180000, { allowFailure: true }))
      expect(result.code, `tsc ${version} -p ${config}:\n${tail(result.stdout + result.stderr)}`).to.equal(0)
    }
  })

  it(`type-checks them with TypeScript ${REPO_TYPESCRIPT} too (nodenext resolution)`, async () => {
    const tsc = await installTypeScript(REPO_TYPESCRIPT)
    const result = await timed(`tsc ${REPO_TYPESCRIPT} -p tsconfig.json`, () =>
      run(process.execPath, [tsc, '-p', 'tsconfig.json'], 180000, { allowFailure: true })
    )
    expect(result.code, `tsc ${REPO_TYPESCRIPT} -p tsconfig.json:\n${tail(result.stdout + result.stderr)}`).to.equal(0)
  })

  // node10 (`moduleResolution: "node"`) reads no `exports`: our packages need a top-level "types" and typesVersions for their
  // subpaths. TypeScript 7 has removed node10 (TS5108), so this runs on the repository's TypeScript; vitest's own types do
  // not resolve under node10 (vite/module-runner), so that config leaves test/vitest out.
  it(`resolves the packages' types under moduleResolution node10 too (TypeScript ${REPO_TYPESCRIPT})`, async () => {
    const tsc = await installTypeScript(REPO_TYPESCRIPT)
    const result = await timed(`tsc ${REPO_TYPESCRIPT} -p tsconfig.node10.json`, () =>
      run(process.execPath, [tsc, '-p', 'tsconfig.node10.json'], 180000, { allowFailure: true })
    )
    expect(result.code, `tsc ${REPO_TYPESCRIPT} -p tsconfig.node10.json:\n${tail(result.stdout + result.stderr)}`).to.equal(0)
  })

  it("runs the README's Processor API example, as written, with plain node and prints what the README says", async () => {
    await checkReadmeExample(projectEnv())
  })

  it("npx mocha: the project's mocha tests of the README topologies pass", async () => {
    await checkMocha(projectEnv(), 'npx mocha')
  })

  it("npx vitest run: the project's vitest tests of the README topologies pass", async () => {
    await checkVitest(projectEnv(), 'npx vitest run')
  })

  it('require()s every package from CommonJS', async () => {
    await checkRequire(projectEnv(), process.version)
  })

  it("loads every public entry point (every subpath of each package's exports) with plain node", async () => {
    const entryPoints = published.flatMap(({ name }) => {
      const { exports } = JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'))
      return Object.keys(exports)
        .filter(subpath => subpath !== './package.json')
        .map(subpath => name + subpath.slice(1))
    })
    expect(entryPoints).to.include.members(['@kstreams/core', '@kstreams/testing/in-memory-kafka', '@kstreams/stores/compliance'])
    const result = await fixture('check-entry-points.js', JSON.stringify(entryPoints))
    expect(Object.keys(result.entries)).to.deep.equal(entryPoints)
    expect(result.execArgv.join(' ') + result.nodeOptions).not.to.match(/@kstreams\/source|tsx/)
    for (const [entryPoint, { file, exports }] of Object.entries<{ file: string; exports: number }>(result.entries)) {
      expect(fileURLToPath(file), entryPoint).to.match(/\/app\/node_modules\/@kstreams\/[a-z-]+\/dist\/src\/.+\.js$/)
      expect(exports, entryPoint).to.be.greaterThan(0)
    }
  })

  it('loads @kstreams/testing and @kstreams/testing/in-memory-kafka without loading kafkajs', async () => {
    const result = await fixture('check-in-memory-kafka.js')
    expect(result).to.deep.equal({ records: 1, afterTesting: false, afterInMemoryKafka: false, afterKafkajsPackage: true })
  })

  it('a KafkaStreams without a client throws the ConfigError that names @kstreams/kafkajs', async () => {
    const result = await fixture('check-no-client.js')
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

  it("runs @kstreams/cli's kstreams bin from the project: --help, and describe on a module of the project", async () => {
    const help = await run('npx', ['kstreams', '--help'], 60000)
    for (const command of ['reset', 'describe', 'state', 'query']) expect(help.stdout).to.match(new RegExp(`^  ${command} `, 'm'))
    await writeFile(
      join(project, 'cli-topology.mjs'),
      "import { Topology } from '@kstreams/core'\nexport default new Topology().addSource('S', 'in').addSink('K', 'out', {}, 'S')\n"
    )
    const text = await run('npx', ['kstreams', 'describe', 'cli-topology.mjs'], 60000)
    expect(text.stdout).to.include('Source: S (topics: [in])')
    const mermaid = await run('npx', ['kstreams', 'describe', 'cli-topology.mjs', '--format', 'mermaid'], 60000)
    expect(mermaid.stdout).to.match(/^flowchart/m)
  })

  it("serves @kstreams/dashboard's page, script, style sheet and JSON from the installed package, on 127.0.0.1", async () => {
    const result = await fixture('check-dashboard.js')
    expect(result).to.deep.equal({
      host: '127.0.0.1',
      statuses: [200, 200, 200, 200],
      types: ['text/html; charset=utf-8', 'text/javascript; charset=utf-8', 'text/css; charset=utf-8', 'application/json'],
      changelogDrawn: true,
      repartitionDrawn: true,
      external: false,
      scriptParses: true,
      state: ['CREATED']
    })
  })

  it('runs the WordCount on the broker to RUNNING, writes the exact counts and closes cleanly', async function () {
    await timed('WordCount on kafkajs', () => runWordCount(this, {}))
  })

  it('runs the WordCount under exactly_once_v2 on @kstreams/platformatic the same way', async function () {
    await timed('WordCount on platformatic, exactly_once_v2', () =>
      runWordCount(this, { WORDCOUNT_CLIENT: 'platformatic', WORDCOUNT_GUARANTEE: 'exactly_once_v2' })
    )
  })

  it('runs the WordCount with 2 stream threads on worker threads (KafkaStreams.onWorkerThreads, the built package) the same way', async function () {
    await timed('WordCount on 2 worker threads', () => runWordCount(this, { WORDCOUNT_THREADS: '2' }))
  })

  describe(`on Node ${NODE_22}`, () => {
    let env22: NodeJS.ProcessEnv
    before(async () => {
      const pkg = `node-${process.platform}-${process.arch}`
      const dir = join(root!.path, `node-${NODE_22}`)
      await mkdir(dir)
      await writeFile(join(dir, 'package.json'), '{ "private": true }\n')
      await timed(`npm install ${pkg}@${NODE_22}`, () =>
        runIn('npm', ['install', `${pkg}@${NODE_22}`, ...NPM_FLAGS], dir, 300000, { env: projectEnv() })
      )
      const bin = join(dir, 'bin')
      await mkdir(bin)
      await symlink(join(dir, 'node_modules', pkg, 'bin', 'node'), join(bin, 'node'))
      env22 = projectEnv({}, bin)
    })

    it("runs the README's Processor API example, as written, with plain node and prints what the README says", async () => {
      await checkReadmeExample(env22)
    })

    it("npx mocha: the project's mocha tests of the README topologies pass", async () => {
      await checkMocha(env22, `npx mocha (Node ${NODE_22})`)
    })

    it("npx vitest run: the project's vitest tests of the README topologies pass", async () => {
      await checkVitest(env22, `npx vitest run (Node ${NODE_22})`)
    })

    it('require()s every package from CommonJS', async () => {
      await checkRequire(env22, `v${NODE_22}`)
    })
  })

  /** `node src/readme-processor-api-driver.ts` (the README's example as one file) prints the describe() text, the counts and the store's value. */
  async function checkReadmeExample(env: NodeJS.ProcessEnv): Promise<void> {
    const { stdout } = await run('node', ['src/readme-processor-api-driver.ts'], 60000, { env })
    expect(stdout).to.match(/^Topologies:/m)
    // console.log(output.readKeyValuesToMap())  // Map { 'hello' => 1, 'kafka' => 1, 'streams' => 1 }
    // console.log(driver.getKeyValueStore('Counts')!.get('kafka'))
    expect(stdout).to.match(/^Map\(3\) \{ 'hello' => 1, 'kafka' => 1, 'streams' => 1 \}\n1\n$/m)
  }

  /** `npx mocha` in the project: exit 0, every test of test/mocha passing. */
  async function checkMocha(env: NodeJS.ProcessEnv, phase: string): Promise<void> {
    const result = await timed(phase, () => run('npx', ['mocha'], 180000, { allowFailure: true, env }))
    const output = result.stdout + result.stderr
    const expectedTests = countTests(join(project, 'test', 'mocha'))
    expect(
      {
        code: result.code,
        passing: Number(/(\d+) passing/.exec(output)?.[1] ?? 0),
        failing: Number(/(\d+) failing/.exec(output)?.[1] ?? 0)
      },
      tail(output)
    ).to.deep.equal({ code: 0, passing: expectedTests, failing: 0 })
  }

  /** `npx vitest run` in the project: exit 0, every test of test/vitest passed. */
  async function checkVitest(env: NodeJS.ProcessEnv, phase: string): Promise<void> {
    const result = await timed(phase, () => run('npx', ['vitest', 'run'], 180000, { allowFailure: true, env }))
    const output = result.stdout + result.stderr
    const expectedTests = countTests(join(project, 'test', 'vitest'))
    const tests = /Tests\s+(?:(\d+) failed \| )?(\d+) passed \((\d+)\)/.exec(output)
    expect(
      { code: result.code, failed: Number(tests?.[1] ?? 0), passed: Number(tests?.[2] ?? 0), total: Number(tests?.[3] ?? 0) },
      tail(output)
    ).to.deep.equal({ code: 0, failed: 0, passed: expectedTests, total: expectedTests })
  }

  /** check-require.cjs: require() of every installed package works on the node of env (nodeVersion). */
  async function checkRequire(env: NodeJS.ProcessEnv, nodeVersion: string): Promise<void> {
    const entryPoints = published.filter(p => existsSync(join(project, 'node_modules', p.name))).map(p => p.name)
    const { stdout } = await run('node', ['check-require.cjs', JSON.stringify(entryPoints)], 60000, { env })
    const { node, results } = JSON.parse(stdout.trim().split('\n').at(-1)!)
    expect(node).to.equal(nodeVersion)
    for (const entryPoint of entryPoints) expect(results[entryPoint], entryPoint).to.include({ ok: true })
    expect(results['@kstreams/core'].exports).to.be.greaterThan(0)
  }

  /** TypeScript `version` in its own directory beside the project (not one of its dependencies); its tsc. */
  async function installTypeScript(version: string): Promise<string> {
    const dir = join(root!.path, `typescript-${version}`)
    const tsc = join(dir, 'node_modules', 'typescript', 'bin', 'tsc')
    if (existsSync(tsc)) return tsc
    await mkdir(dir, { recursive: true })
    await writeFile(join(dir, 'package.json'), '{ "private": true }\n')
    await timed(`npm install typescript@${version}`, () =>
      runIn('npm', ['install', `typescript@${version}`, ...NPM_FLAGS], dir, 180000, { env: projectEnv() })
    )
    return tsc
  }

  /** The one JSON line a fixture prints on stdout. */
  async function fixture(file: string, ...args: string[]): Promise<any> {
    const { stdout } = await run('node', [file, ...args], 60000)
    return JSON.parse(stdout.trim().split('\n').at(-1)!)
  }

  /** The fixture wordcount.js with `extraEnv`, to RUNNING, exact counts, a clean close. */
  async function runWordCount(context: Mocha.Context, extraEnv: Record<string, string>): Promise<void> {
    const bootstrap = process.env.KAFKA_BOOTSTRAP_SERVERS
    if (bootstrap === undefined || bootstrap === '') {
      // No broker (the root hook starts one when KAFKA_BOOTSTRAP_SERVERS is unset, so only without it).
      context.test!.title += ' (skipped: KAFKA_BOOTSTRAP_SERVERS is not set)'
      context.skip()
    }
    const prefix = unique('registry-wc')
    const topics = { input: `${prefix}-in`, output: `${prefix}-out` }
    await createTopics([
      { topic: topics.input, numPartitions: 2 },
      { topic: topics.output, numPartitions: 2 }
    ])
    const state = await tempDir('kstreams-registry-state')
    const events: Array<{ event: string; to?: string; clean?: boolean }> = []
    let stderr = ''
    const child = spawn('node', ['wordcount.js'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: projectEnv({
        KAFKA_BOOTSTRAP_SERVERS: bootstrap,
        WORDCOUNT_APP_ID: `${prefix}-app`,
        WORDCOUNT_INPUT: topics.input,
        WORDCOUNT_OUTPUT: topics.output,
        WORDCOUNT_STATE_DIR: state.path,
        ...extraEnv
      })
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

/**
 * The TypeScript code blocks (```ts) of a `## ` section of the README whose title matches heading,
 * in order: the section runs to the next `#` or `##` heading outside a code block.
 */
function readmeCodeBlocks(markdown: string, heading: RegExp): string[] {
  const lines = markdown.split('\n')
  const start = lines.findIndex(line => /^## /.test(line) && heading.test(line.slice(3).trim()))
  if (start < 0) throw new Error(`README.md has no "## " section matching ${heading}`)
  const blocks: string[] = []
  let block: string[] | undefined
  let fenced = false
  for (const line of lines.slice(start + 1)) {
    if (/^```/.test(line)) {
      if (!fenced && /^```(ts|typescript)\s*$/.test(line)) block = []
      else if (fenced && block !== undefined) {
        blocks.push(block.join('\n'))
        block = undefined
      }
      fenced = !fenced
      continue
    }
    if (!fenced && /^#{1,2} /.test(line)) break
    block?.push(line)
  }
  return blocks
}

/**
 * The arguments of every `npm install` (or `npm i`) line naming an @kstreams package in the README's
 * shell code blocks, in order, without a trailing # comment.
 */
function readmeInstallCommands(markdown: string): string[][] {
  const commands: string[][] = []
  let shell = false
  for (const line of markdown.split('\n')) {
    if (/^```/.test(line)) {
      shell = !shell && /^```(sh|shell|bash|console)\s*$/.test(line)
      continue
    }
    const command = shell ? /^(?:\$\s+)?npm\s+(?:install|i)\s+([^#]*)/.exec(line.trim()) : null
    const words = command?.[1]?.trim().split(/\s+/) ?? []
    if (words.some(word => word.startsWith('@kstreams/'))) commands.push(words)
  }
  return commands
}

/**
 * The README's examples as files of the project: the Processor API block (exporting its topology
 * and WordCount), that block followed by its "Test it" block (the README's whole example, run as
 * it is), and the DSL block (exporting its topology).
 */
async function writeReadmeExamples(project: string): Promise<void> {
  const readme = README_TEXT
  const processorApi = readmeCodeBlocks(readme, /^Processor API in five minutes$/i)
  const dsl = readmeCodeBlocks(readme, /^The DSL in five minutes$/i)
  expect(processorApi.length, 'the ```ts blocks of "## Processor API in five minutes"').to.be.at.least(2)
  expect(dsl.length, 'the ```ts blocks of "## The DSL in five minutes"').to.be.at.least(1)
  const header = '// Extracted from README.md by tests/integration/test/installed-from-registry.test.ts\n'
  await mkdir(join(project, 'src'), { recursive: true })
  await writeFile(join(project, 'src', 'readme-processor-api.ts'), `${header}${processorApi[0]}\n\nexport { topology, WordCount }\n`)
  await writeFile(join(project, 'src', 'readme-processor-api-driver.ts'), `${header}${processorApi[0]}\n\n${processorApi[1]}\n`)
  await writeFile(join(project, 'src', 'readme-dsl.ts'), `${header}${dsl[0]}\n\nexport { topology }\n`)
}

/** How many `it(` a test directory has: what its runner must report as passed. */
function countTests(dir: string): number {
  return [...filesUnder(dir).values()].reduce((n, source) => n + (source.toString().match(/^\s*it\(/gm)?.length ?? 0), 0)
}

/** The promise, or a rejection with message after ms. */
async function within<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
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
