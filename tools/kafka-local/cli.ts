/**
 * `npm run kafka -- <command>`: a real Apache Kafka (KRaft) on 127.0.0.1 for this repository's
 * tests and demos, run from Maven Central jars with `java -cp`. Command-line layer only: parsing,
 * defaults from the environment, printing. The implementation is @kstreams/kafka-local's
 * LocalKafkaCluster (the class `KafkaTestCluster` wraps). `start` prints only the bootstrap
 * servers on stdout; progress goes to stderr. See README.md next to this file.
 */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import {
  BOOTSTRAP_FILE,
  KafkaDistribution,
  KafkaLocalError,
  LocalKafkaCluster,
  brokerPom,
  resolveKafkaVersion,
  type BrokerLogLevel,
  type ClusterSecurity,
  type SaslMechanism,
  type SecurityOptions,
  type SecurityProtocol
} from '@kstreams/kafka-local'

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')

const USAGE = `Usage: npm run kafka -- <command> [options]

Commands:
  start         fetch jars (cached), format, start, wait until ready; prints the bootstrap servers
  stop          stop the brokers recorded in the run dir (SIGTERM, SIGKILL after --timeout)
  status        list the recorded brokers; exit 0 only when all run and accept connections
  logs [id]     print the end of every broker's log (or of node <id>)
  security      print a secured cluster's protocol, users with passwords and files, as JSON
  kill <id>     SIGKILL node <id> (1-based), to test failover by hand
  restart <id>  start node <id> again and wait until it is back
  resolve       only fetch the jars into the cache and print the libs directory
  pom           print the generated Maven pom.xml

Options (environment variable in brackets):
  --brokers N            nodes to start: 1 (default) or 3 for failover tests
  --version V            4.1 (default, = 4.1.1), 3.9 (fallback, = 3.9.1) or x.y.z  [KAFKA_LOCAL_VERSION]
  --port P               first of 2N consecutive fixed ports; default: free ports   [KAFKA_LOCAL_PORT]
  --run-dir DIR          default .kafka-local/run in the repository                 [KAFKA_LOCAL_RUN_DIR]
  --cache-dir DIR        jar cache root, default ~/.cache/kstreams                  [KAFKA_LOCAL_CACHE_DIR]
  --heap SIZE            -Xmx per broker, default 512m                              [KAFKA_LOCAL_HEAP]
  --log-level L          broker log: WARN (default), INFO or DEBUG                  [KAFKA_LOCAL_LOG_LEVEL]
  --auto-create-topics   set auto.create.topics.enable=true (default false)
  --security P           secure the client listener: ssl, sasl_plaintext or sasl_ssl (default plaintext)
  --sasl-mechanism M     SASL mechanisms, comma-separated: plain, scram-sha-256, scram-sha-512
                         (default), oauthbearer (unsecured JWS); the first is used between brokers
  --mtls                 require client certificates (ssl or sasl_ssl)
  --authorizer           StandardAuthorizer with ACLs; user admin is a super user
  --user NAME:PASSWORD   an extra SASL user (repeatable)
  --no-cds               no class-data sharing archives (JVM start-up cache)        [KAFKA_LOCAL_CDS=0]
  --timeout SECONDS      start: readiness timeout (120); stop: grace before SIGKILL (20)
  --kill                 stop: SIGKILL at once (3 nodes stop cleanly in ~6 s, killed in <1 s)
  --lines N              logs: lines per broker (50)
  -h, --help
`

type Values = Record<string, string | boolean | string[] | undefined>

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      brokers: { type: 'string' },
      version: { type: 'string' },
      port: { type: 'string' },
      'run-dir': { type: 'string' },
      'cache-dir': { type: 'string' },
      heap: { type: 'string' },
      'log-level': { type: 'string' },
      'auto-create-topics': { type: 'boolean' },
      security: { type: 'string' },
      'sasl-mechanism': { type: 'string' },
      mtls: { type: 'boolean' },
      authorizer: { type: 'boolean' },
      user: { type: 'string', multiple: true },
      'no-cds': { type: 'boolean' },
      kill: { type: 'boolean' },
      timeout: { type: 'string' },
      lines: { type: 'string' },
      help: { type: 'boolean', short: 'h' }
    }
  })
  const [command, arg] = positionals
  if (values.help === true || command === undefined) {
    process.stdout.write(USAGE)
    return command === undefined && values.help !== true ? 2 : 0
  }
  const runDir = resolve(str(values, 'run-dir', 'KAFKA_LOCAL_RUN_DIR') ?? join(REPO_ROOT, '.kafka-local', 'run'))
  switch (command) {
    case 'start':
      return await start(values, runDir)
    case 'stop':
      return await stop(values, runDir)
    case 'status':
      return await status(runDir)
    case 'security':
      return await withCluster(runDir, async c => {
        process.stdout.write(JSON.stringify(securityReport(c), null, 2) + '\n')
      })
    case 'logs':
      return await logs(values, runDir, arg)
    case 'kill':
      return await withCluster(runDir, async c => {
        await c.killBroker(nodeIndex(arg, c))
      })
    case 'restart':
      return await withCluster(runDir, async c => {
        await c.restartBroker(nodeIndex(arg, c))
      })
    case 'resolve': {
      const d = await KafkaDistribution.resolve({
        version: version(values),
        cacheDir: str(values, 'cache-dir', 'KAFKA_LOCAL_CACHE_DIR'),
        onProgress: info
      })
      process.stdout.write(d.libsDir + '\n')
      return 0
    }
    case 'pom':
      process.stdout.write(brokerPom(resolveKafkaVersion(version(values))))
      return 0
    default:
      process.stderr.write(`unknown command "${command}"\n\n${USAGE}`)
      return 2
  }
}

async function start(values: Values, runDir: string): Promise<number> {
  const brokers = int(values, 'brokers') ?? 1
  const security = securityOptions(values)
  const running = await LocalKafkaCluster.attach(runDir)
  if (running !== undefined && (await running.status()).every(b => b.running)) {
    if (running.brokerCount !== brokers) {
      throw new KafkaLocalError('ALREADY_RUNNING', `${running.brokerCount} broker(s) already run from ${runDir}; stop them first`)
    }
    if (!sameSecurity(running.security, security)) {
      throw new KafkaLocalError(
        'ALREADY_RUNNING',
        `a cluster with other security (${running.security?.describe() ?? 'PLAINTEXT'}) already runs from ${runDir}; stop it first`
      )
    }
    info(`already running: Kafka ${running.kafkaVersion} at ${running.bootstrapServers}`)
    process.stdout.write(running.bootstrapServers + '\n')
    return 0
  }
  if (running !== undefined) {
    info('stopping what is left of an earlier cluster')
    await running.stop({ timeoutMs: 5000 })
  }
  const timeout = int(values, 'timeout')
  const port = str(values, 'port', 'KAFKA_LOCAL_PORT')
  const cluster = await LocalKafkaCluster.start({
    runDir,
    brokers,
    version: version(values),
    cacheDir: str(values, 'cache-dir', 'KAFKA_LOCAL_CACHE_DIR'),
    port: port === undefined ? undefined : positive(port, 'port'),
    heap: str(values, 'heap', 'KAFKA_LOCAL_HEAP'),
    logLevel: logLevel(str(values, 'log-level', 'KAFKA_LOCAL_LOG_LEVEL')),
    autoCreateTopics: values['auto-create-topics'] === true,
    security,
    classDataSharing: values['no-cds'] !== true && process.env.KAFKA_LOCAL_CDS !== '0',
    startTimeoutMs: timeout === undefined ? undefined : timeout * 1000,
    detached: true,
    onProgress: info
  })
  info(`pids ${(await cluster.status()).map(b => b.pid).join(' ')}; bootstrap servers also in ${join(runDir, BOOTSTRAP_FILE)}`)
  if (cluster.security !== undefined) {
    info(`security: ${cluster.security.describe()}; CA ${cluster.security.files.caPem}`)
    info(`credentials: \`npm run kafka -- security\` (JSON), Java client config ${cluster.security.files.clientProperties}`)
  }
  process.stdout.write(cluster.bootstrapServers + '\n')
  return 0
}

async function stop(values: Values, runDir: string): Promise<number> {
  const cluster = await LocalKafkaCluster.attach(runDir)
  if (cluster === undefined) {
    info(`nothing recorded in ${runDir}`)
    return 0
  }
  const timeout = int(values, 'timeout')
  const began = Date.now()
  await cluster.stop({ timeoutMs: timeout === undefined ? undefined : timeout * 1000, kill: values.kill === true })
  info(`stopped ${cluster.brokerCount} broker(s) in ${Date.now() - began} ms`)
  return 0
}

async function status(runDir: string): Promise<number> {
  const cluster = await LocalKafkaCluster.attach(runDir)
  if (cluster === undefined) {
    process.stdout.write(`no cluster recorded in ${runDir}\n`)
    return 1
  }
  const brokers = await cluster.status()
  process.stdout.write(`Kafka ${cluster.kafkaVersion}, cluster ${cluster.clusterId}, bootstrap ${cluster.bootstrapServers}\n`)
  process.stdout.write(`  security: ${cluster.security?.describe() ?? 'PLAINTEXT'}\n`)
  for (const b of brokers) {
    const state = b.running ? (b.reachable ? 'running' : 'running, port closed') : 'not running'
    process.stdout.write(`  node ${b.nodeId}  pid ${b.pid}  127.0.0.1:${b.port}  ${state}  ${b.logPath}\n`)
  }
  return brokers.every(b => b.running && b.reachable) ? 0 : 1
}

async function logs(values: Values, runDir: string, id: string | undefined): Promise<number> {
  return await withCluster(runDir, async cluster => {
    const lines = int(values, 'lines') ?? 50
    const indexes = id === undefined ? cluster.nodes.map((_, i) => i) : [nodeIndex(id, cluster)]
    for (const i of indexes) {
      process.stdout.write(`== node ${i + 1}: ${cluster.nodes[i]!.logPath}\n${await cluster.logs(i, lines)}\n`)
    }
  })
}

async function withCluster(runDir: string, action: (cluster: LocalKafkaCluster) => Promise<void>): Promise<number> {
  const cluster = await LocalKafkaCluster.attach(runDir)
  if (cluster === undefined) throw new KafkaLocalError('NOT_RUNNING', `no cluster recorded in ${runDir}`)
  await action(cluster)
  return 0
}

function nodeIndex(id: string | undefined, cluster: LocalKafkaCluster): number {
  const n = positive(id ?? '', 'node id')
  if (n > cluster.brokerCount) throw new KafkaLocalError('INVALID_OPTION', `node id must be 1..${cluster.brokerCount}`)
  return n - 1
}

function securityOptions(values: Values): SecurityOptions | undefined {
  const protocol = str(values, 'security')
  const mechanisms = str(values, 'sasl-mechanism')
  const users = Array.isArray(values.user) ? values.user : []
  if (protocol === undefined || protocol.toLowerCase() === 'plaintext') {
    if (mechanisms !== undefined || users.length > 0 || values.mtls === true || values.authorizer === true) {
      throw new KafkaLocalError(
        'INVALID_OPTION',
        '--sasl-mechanism, --user, --mtls and --authorizer need --security ssl, sasl_plaintext or sasl_ssl'
      )
    }
    return undefined
  }
  return {
    protocol: protocol.toLowerCase() as SecurityProtocol,
    ...(mechanisms === undefined ? {} : { saslMechanisms: mechanisms.toLowerCase().split(',') as SaslMechanism[] }),
    mtls: values.mtls === true,
    authorizer: values.authorizer === true,
    users: Object.fromEntries(
      users.map(entry => {
        const colon = entry.indexOf(':')
        if (colon <= 0) throw new KafkaLocalError('INVALID_OPTION', `--user takes NAME:PASSWORD, got "${entry}"`)
        return [entry.slice(0, colon), entry.slice(colon + 1)]
      })
    )
  }
}

/** Whether a running cluster's security is what `requested` asks for (users aside: their passwords are generated or given). */
function sameSecurity(running: ClusterSecurity | undefined, requested: SecurityOptions | undefined): boolean {
  if (running === undefined || requested === undefined) return running === requested
  return (
    running.protocol === requested.protocol &&
    running.saslMechanisms.join(',') === (requested.saslMechanisms ?? (requested.protocol === 'ssl' ? [] : ['scram-sha-512'])).join(',') &&
    running.mtls === (requested.mtls ?? false) &&
    running.authorizer === (requested.authorizer ?? false)
  )
}

/** What `security` prints: enough for a script to connect (the passwords included). */
function securityReport(cluster: LocalKafkaCluster): object {
  const security = cluster.security
  if (security === undefined) return { protocol: 'plaintext', bootstrapServers: cluster.bootstrapServers }
  return {
    protocol: security.protocol,
    bootstrapServers: cluster.bootstrapServers,
    saslMechanisms: security.saslMechanisms,
    mtls: security.mtls,
    authorizer: security.authorizer,
    users: security.users,
    superUsers: security.superUsers,
    storePassword: security.storePassword,
    files: security.files
  }
}

function logLevel(text: string | undefined): BrokerLogLevel | undefined {
  if (text === undefined) return undefined
  const level = text.toUpperCase()
  if (level === 'ERROR' || level === 'WARN' || level === 'INFO' || level === 'DEBUG') return level
  throw new KafkaLocalError('INVALID_OPTION', `log level must be ERROR, WARN, INFO or DEBUG, got "${text}"`)
}

function version(values: Values): string | undefined {
  return str(values, 'version', 'KAFKA_LOCAL_VERSION')
}

function str(values: Values, name: string, env?: string): string | undefined {
  const value = values[name]
  if (typeof value === 'string' && value !== '') return value
  const fromEnv = env === undefined ? undefined : process.env[env]
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv
}

function int(values: Values, name: string): number | undefined {
  const value = str(values, name)
  return value === undefined ? undefined : positive(value, name)
}

function positive(text: string, name: string): number {
  const n = Number(text)
  if (!Number.isInteger(n) || n <= 0) throw new KafkaLocalError('INVALID_OPTION', `${name} must be a positive integer, got "${text}"`)
  return n
}

function info(message: string): void {
  process.stderr.write(`[kafka-local] ${message}\n`)
}

main(process.argv.slice(2)).then(
  code => {
    process.exitCode = code
  },
  (error: unknown) => {
    const code = error instanceof KafkaLocalError ? error.code : 'ERROR'
    const cause = error instanceof Error && error.cause !== undefined ? `\ncaused by: ${String(error.cause)}` : ''
    process.stderr.write(`[kafka-local] ${code}: ${error instanceof Error ? error.message : String(error)}${cause}\n`)
    process.exitCode = 1
  }
)
