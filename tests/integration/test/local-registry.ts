/**
 * A local npm registry for the registry round trip: verdaccio from tools/registry (its own npm
 * project, not a workspace, installed on demand with `npm ci --prefix tools/registry`), started on
 * 127.0.0.1 with its storage in a fresh temp directory, and `lerna publish from-package` of every
 * non-private workspace package into it.
 *
 * Lerna publishes from a staged copy of the workspace, never from the working tree itself: `lerna
 * publish` writes a `gitHead` into every package.json it publishes and afterwards runs
 * `git checkout -- <those package.json files>` (its gitReset), which in a working tree would throw
 * away any uncommitted change to them. The stage holds the working tree's files (`git ls-files
 * --cached --others --exclude-standard`: tracked and new files, no build output) and a node_modules
 * of links into the repository's, with the workspace links pointing into the stage, so each
 * package's `prepack` (tsc -b) builds the stage's sources.
 *
 * No import of ours: `node --import tsx tests/integration/test/local-registry.ts [--publish]`
 * starts a registry by hand (and publishes to it) until Ctrl-C.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { chmod, copyFile, lstat, mkdir, mkdtemp, readdir, readlink, rm, symlink, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO = fileURLToPath(new URL('../../../', import.meta.url))
export const REGISTRY_TOOL = join(REPO, 'tools', 'registry')

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  readonly url: string
  /** A token of a user registered on it: npm publishes nothing without credentials. */
  readonly token: string
  /** The temp directory of its config and storage (removed by stop()). */
  readonly dir: string
  /** An npmrc with the token for this registry (for NPM_CONFIG_USERCONFIG). */
  writeUserconfig(file: string): Promise<void>
  /** Stops verdaccio (SIGTERM, SIGKILL after 10 s) and removes its directory. */
  stop(): Promise<void>
}

export interface RunResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  ms: number
}

/**
 * The environment of a user's shell: without NODE_OPTIONS and the npm_* variables of the
 * `npm test` running us (npm_config_local_prefix and friends would point an inner npm at the
 * workspace). The cache, registry and TLS settings stay, so the workspace install's cache is reused.
 */
export function userEnv(): NodeJS.ProcessEnv {
  const keep = /^npm_config_(cache|registry|userconfig|globalconfig|cafile|https?_proxy|proxy|noproxy|strict_ssl)$/i
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if ((/^npm_/i.test(name) || name === 'INIT_CWD' || name === 'NODE_OPTIONS') && !keep.test(name)) continue
    env[name] = value
  }
  return env
}

export const tail = (text: string, lines = 60): string => text.trimEnd().split('\n').slice(-lines).join('\n')

/** Runs a command to its end; rejects with its output when it fails (unless allowFailure) or outlasts timeoutMs. */
export async function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs: number,
  options: { env?: NodeJS.ProcessEnv; allowFailure?: boolean } = {}
): Promise<RunResult> {
  const started = Date.now()
  const child = spawn(command, args, { cwd, env: options.env ?? userEnv(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  const result = await new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }))
  }).finally(() => clearTimeout(timer))
  if (result.code !== 0 && (options.allowFailure !== true || result.signal === 'SIGKILL')) {
    throw new Error(
      `\`${command} ${args.join(' ')}\` in ${cwd} ended with ${result.code ?? result.signal}${result.signal === 'SIGKILL' ? ` (timeout ${timeoutMs} ms)` : ''}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`
    )
  }
  return result
}

/**
 * The node verdaccio runs on: this one when it is Node 22+ (verdaccio 6.9+ needs it), else the
 * repository's Node 24 (the `node` dev dependency npm scripts run on).
 */
function nodeForVerdaccio(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  const repoNode = join(REPO, 'node_modules', 'node', 'bin', 'node')
  if (existsSync(repoNode)) return repoNode
  throw new Error(`verdaccio needs Node 22+, this is ${process.version} and ${repoNode} is missing (npm ci at the repository root)`)
}

/** `npm ci --prefix tools/registry` unless the verdaccio its package.json pins is already installed. */
export async function installRegistryTool(): Promise<{ installed: boolean; ms: number }> {
  const started = Date.now()
  const wanted = JSON.parse(readFileSync(join(REGISTRY_TOOL, 'package.json'), 'utf8')).dependencies.verdaccio
  const manifest = join(REGISTRY_TOOL, 'node_modules', 'verdaccio', 'package.json')
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).version === wanted) return { installed: false, ms: 0 }
  await run('npm', ['ci', '--prefix', REGISTRY_TOOL, '--prefer-offline', '--no-audit', '--no-fund'], REGISTRY_TOOL, 300000)
  return { installed: true, ms: Date.now() - started }
}

/** A port free on 127.0.0.1 right now. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as { port: number }
  await new Promise(resolve => server.close(resolve))
  return port
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Starts verdaccio (tools/registry, installed first if needed) on a free port of 127.0.0.1 with
 * tools/registry/config.yaml and its storage in a new temp directory; resolves once it answers
 * /-/ping and a user is registered (its token is `token`).
 */
export async function startLocalRegistry(options: { log?: (line: string) => void } = {}): Promise<LocalRegistry> {
  await installRegistryTool()
  const dir = await mkdtemp(join(tmpdir(), 'kstreams-registry-'))
  await copyFile(join(REGISTRY_TOOL, 'config.yaml'), join(dir, 'config.yaml'))
  const bin = join(REGISTRY_TOOL, 'node_modules', 'verdaccio', 'bin', 'verdaccio')
  let lastError: Error | undefined
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/`
    const child = spawn(nodeForVerdaccio(), [bin, '--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
      cwd: dir,
      env: userEnv(),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    const onData = (chunk: Buffer): void => {
      output += chunk.toString()
      if (options.log !== undefined) for (const line of chunk.toString().split('\n')) if (line.trim() !== '') options.log(line)
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    const exited = new Promise<void>(resolve => child.once('exit', () => resolve()))
    try {
      await waitUntilAnswering(url, child, 60000)
      const token = await registerUser(url)
      return {
        url,
        token,
        dir,
        writeUserconfig: async file => {
          await writeFile(file, `//127.0.0.1:${port}/:_authToken=${token}\n`, { mode: 0o600 })
        },
        stop: async () => {
          await stopChild(child, exited)
          await rm(dir, { recursive: true, force: true })
        }
      }
    } catch (error) {
      await stopChild(child, exited)
      lastError = new Error(`verdaccio on port ${port}: ${(error as Error).message}\n--- its output\n${tail(output)}`)
      if (!/EADDRINUSE/.test(output)) break // only a port taken since we looked is worth another try
    }
  }
  await rm(dir, { recursive: true, force: true })
  throw lastError
}

async function waitUntilAnswering(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`)
    try {
      const response = await fetch(new URL('-/ping', url), { signal: AbortSignal.timeout(2000) })
      if (response.ok) return
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`no answer to /-/ping within ${timeoutMs} ms`)
    await sleep(100)
  }
}

/** Registers a user through the registry's npm API (what `npm adduser` does); its token. */
async function registerUser(url: string): Promise<string> {
  const name = 'kstreams-ci'
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ _id: `org.couchdb.user:${name}`, name, password: randomBytes(16).toString('hex'), type: 'user', roles: [] })
  })
  const body = (await response.json().catch(() => ({}))) as { token?: string }
  if (!response.ok || typeof body.token !== 'string')
    throw new Error(`registering a user answered ${response.status} ${JSON.stringify(body)}`)
  return body.token
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10000)
  await exited
  clearTimeout(timer)
}

export interface WorkspacePackage {
  name: string
  version: string
  /** Relative to the repository. */
  dir: string
  private: boolean
}

/** The workspace packages of the root package.json at root (`dir` or `dir/*` entries). */
export function workspacePackages(root: string): WorkspacePackage[] {
  const patterns: string[] = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).workspaces
  const dirs: string[] = []
  for (const pattern of patterns) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2)
      if (/[*?{[]/.test(parent)) throw new Error(`workspace pattern ${pattern} is not supported here`)
      for (const entry of readdirSyncSafe(join(root, parent))) dirs.push(`${parent}/${entry}`)
    } else if (/[*?{[]/.test(pattern)) {
      throw new Error(`workspace pattern ${pattern} is not supported here`)
    } else {
      dirs.push(pattern)
    }
  }
  return dirs
    .filter(dir => existsSync(join(root, dir, 'package.json')))
    .map(dir => {
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
      return { name: manifest.name, version: manifest.version, dir, private: manifest.private === true }
    })
}

/** The entries of dir, sorted (so the order of publishing and of messages does not depend on the file system); none if it is missing. */
function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir).sort()
  } catch {
    return []
  }
}

/**
 * Copies the working tree (tracked and untracked files that git does not ignore: no node_modules,
 * no dist, no broker data) to a new temp directory and gives it a node_modules of links: each
 * entry of the repository's node_modules, except the workspace links, which point at the stage's
 * own packages (and the repository's nested node_modules of each workspace package, if any).
 */
export async function stageWorkspace(repo: string = REPO): Promise<{ path: string; remove: () => Promise<void> }> {
  const stage = await mkdtemp(join(tmpdir(), 'kstreams-publish-'))
  const remove = async (): Promise<void> => rm(stage, { recursive: true, force: true })
  try {
    const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repo, 60000)
    const made = new Set<string>()
    for (const file of stdout.split('\0').filter(f => f !== '')) {
      const from = join(repo, file)
      const stat = await lstat(from).catch(() => undefined)
      if (stat === undefined || stat.isDirectory()) continue // deleted in the working tree, or a submodule
      const to = join(stage, file)
      if (!made.has(dirname(to))) {
        await mkdir(dirname(to), { recursive: true })
        made.add(dirname(to))
      }
      if (stat.isSymbolicLink()) await symlink(await readlink(from), to)
      else {
        await copyFile(from, to)
        await chmod(to, stat.mode & 0o777)
      }
    }
    const packages = workspacePackages(stage)
    const workspaceDirs = packages.map(p => resolve(repo, p.dir))
    const isWorkspaceLink = async (path: string): Promise<boolean> => {
      const stat = await lstat(path)
      if (!stat.isSymbolicLink()) return false
      const target = resolve(dirname(path), await readlink(path))
      return workspaceDirs.includes(target)
    }
    const repoModules = join(repo, 'node_modules')
    const stageModules = join(stage, 'node_modules')
    await mkdir(stageModules)
    for (const entry of await readdir(repoModules)) {
      if (entry === '.cache' || entry === '.package-lock.json') continue
      const from = join(repoModules, entry)
      if (entry.startsWith('@')) {
        const children = await readdir(from)
        const links = await Promise.all(children.map(child => isWorkspaceLink(join(from, child))))
        if (!links.some(Boolean)) {
          await symlink(from, join(stageModules, entry))
          continue
        }
        await mkdir(join(stageModules, entry))
        for (const [i, child] of children.entries()) if (!links[i]) await symlink(join(from, child), join(stageModules, entry, child))
      } else if (!(await isWorkspaceLink(from))) {
        await symlink(from, join(stageModules, entry))
      }
    }
    for (const pkg of packages) {
      const link = join(stageModules, ...pkg.name.split('/'))
      await mkdir(dirname(link), { recursive: true })
      await symlink(relative(dirname(link), join(stage, pkg.dir)), link)
      const nested = join(repo, pkg.dir, 'node_modules')
      if (existsSync(nested)) await symlink(nested, join(stage, pkg.dir, 'node_modules'))
    }
    return { path: stage, remove }
  } catch (error) {
    await remove()
    throw error
  }
}

export interface PublishResult {
  /** name@version of every package now in the registry, as lerna said it published them. */
  published: string[]
  /** The non-private workspace packages (all of which are verified to be in the registry). */
  packages: WorkspacePackage[]
  stageMs: number
  lernaMs: number
  lernaOutput: string
}

/**
 * `lerna publish from-package --yes --registry <url>` of a staged copy of the workspace; fails
 * (with lerna's output) unless lerna succeeds and every non-private workspace package's version
 * is then in the registry, and no private one is.
 */
export async function publishWorkspace(registry: LocalRegistry, options: { repo?: string } = {}): Promise<PublishResult> {
  const repo = options.repo ?? REPO
  let started = Date.now()
  const stage = await stageWorkspace(repo)
  const stageMs = Date.now() - started
  try {
    const userconfig = join(stage.path, '.npmrc-publish')
    await registry.writeUserconfig(userconfig)
    const env = userEnv()
    // `npm test` sets npm_config_userconfig (kept by userEnv): ours must be the only one lerna sees.
    for (const name of Object.keys(env)) if (/^npm_config_userconfig$/i.test(name)) delete env[name]
    delete env.NX_WORKSPACE_ROOT_PATH
    Object.assign(env, {
      NPM_CONFIG_USERCONFIG: userconfig,
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_SKIP_NX_CACHE: 'true',
      NX_TUI: 'false',
      // the repository's Node 24 (and tsc) first, as in an npm script
      PATH: `${join(repo, 'node_modules', '.bin')}:${env.PATH ?? ''}`
    })
    started = Date.now()
    const lerna = join(repo, 'node_modules', 'lerna', 'dist', 'cli.js')
    const result = await run(
      process.execPath,
      // --no-git-reset: the stage is no git work tree (lerna says so and goes on); --concurrency 1:
      // each prepack runs `tsc -b`, whose project references overlap, so no two at once.
      [lerna, 'publish', 'from-package', '--yes', '--registry', registry.url, '--no-git-reset', '--concurrency', '1', '--loglevel', 'info'],
      stage.path,
      600000,
      { env, allowFailure: true }
    )
    const lernaMs = Date.now() - started
    const lernaOutput = `${result.stdout}\n${result.stderr}`
    const packages = workspacePackages(stage.path)
    const publishable = packages.filter(p => !p.private)
    const problems: string[] = []
    if (result.code !== 0) problems.push(`lerna exited with ${result.code}`)
    for (const pkg of packages) {
      const response = await fetch(new URL(pkg.name.replace('/', '%2f'), registry.url))
      const versions = response.ok ? Object.keys(((await response.json()) as { versions?: object }).versions ?? {}) : []
      if (!pkg.private && !versions.includes(pkg.version))
        problems.push(`${pkg.name}@${pkg.version} is not in the registry (it has ${versions.join(', ') || 'no version'})`)
      if (pkg.private && versions.length > 0) problems.push(`the private ${pkg.name} was published`)
    }
    if (publishable.length === 0) problems.push('no non-private workspace package')
    if (problems.length > 0)
      throw new Error(`lerna publish to ${registry.url} failed:\n  ${problems.join('\n  ')}\n--- lerna's output\n${tail(lernaOutput, 80)}`)
    const published = [...lernaOutput.matchAll(/^ - (@?[^\s@]+@\S+)$/gm)].map(m => m[1]!)
    return { published, packages: publishable, stageMs, lernaMs, lernaOutput }
  } finally {
    await stage.remove()
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const registry = await startLocalRegistry({ log: line => process.stderr.write(`verdaccio: ${line}\n`) })
  process.stdout.write(`registry: ${registry.url}\n`)
  if (process.argv.includes('--publish')) {
    const result = await publishWorkspace(registry)
    process.stdout.write(`published (${result.stageMs} ms staging, ${result.lernaMs} ms lerna): ${result.published.join(' ')}\n`)
  }
  process.stdout.write(`@kstreams:registry=${registry.url}  (Ctrl-C stops it and deletes its storage)\n`)
  const stop = (): void => {
    void registry.stop().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
