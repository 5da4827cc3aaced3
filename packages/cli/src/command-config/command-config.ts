/**
 * `--command-config <file>`: a Kafka client properties file, as Kafka's tools take it
 * (kafka-streams-application-reset.sh, kafka-consumer-groups.sh), turned into the client settings
 * of the kstreams adapters: `ssl` (Node TLS options), `sasl` (per mechanism), the client id, the
 * timeouts, and `bootstrap.servers` for when `--bootstrap-server` is not given.
 *
 * Every key is accounted for: a key the CLI maps, a key it ignores with a warning (settings of
 * Java's TLS engine, of Java's login refresh, of the producer or consumer, of a schema registry:
 * none changes whom the CLI connects to or as whom), or an error naming the key (anything else, a
 * misspelt key included). A setting that cannot take effect (an `ssl.*` key without TLS, a `sasl.*`
 * key without SASL) is an error too. No message holds a secret. @internal
 */
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { ConfigEntries } from './config-entries.js'
import { CommandConfigError } from './command-config-error.js'
import { parseJavaProperties } from './java-properties.js'
import { OAUTHBEARER_KEYS, saslOptions, type CommandConfigSasl } from './sasl-options.js'
import { tlsOptions, type CommandConfigTls } from './tls-options.js'

/** What a command config sets. */
export interface CommandConfig {
  /** The file, as given. */
  readonly source: string
  /** What it connects with, for messages: `SASL_SSL, SCRAM-SHA-512 as alice` (never a secret). */
  readonly summary: string
  /** TLS (SSL and SASL_SSL), or undefined. */
  readonly ssl: CommandConfigTls | undefined
  /** SASL (SASL_PLAINTEXT and SASL_SSL), or undefined. */
  readonly sasl: CommandConfigSasl | undefined
  /** The names of the OAUTHBEARER SASL extensions sent (kafkajs sends them). */
  readonly saslExtensions: readonly string[]
  /** `client.id`. */
  readonly clientId: string | undefined
  /** `request.timeout.ms`. */
  readonly requestTimeoutMs: number | undefined
  /** `socket.connection.setup.timeout.ms`. */
  readonly connectionTimeoutMs: number | undefined
  /** `bootstrap.servers`, used when `--bootstrap-server` is not given. */
  readonly bootstrapServers: string | undefined
  /** One line per ignored key, naming it (never its value). */
  readonly warnings: readonly string[]
}

const PROTOCOLS = ['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL'] as const

const TLS_KEYS = [
  'ssl.truststore.type',
  'ssl.truststore.location',
  'ssl.truststore.password',
  'ssl.truststore.certificates',
  'ssl.keystore.type',
  'ssl.keystore.location',
  'ssl.keystore.password',
  'ssl.keystore.key',
  'ssl.keystore.certificate.chain',
  'ssl.key.password',
  'ssl.endpoint.identification.algorithm'
]
const SASL_KEYS = ['sasl.mechanism', 'sasl.jaas.config', ...OAUTHBEARER_KEYS]
const MAPPED = new Set([
  'security.protocol',
  'client.id',
  'request.timeout.ms',
  'socket.connection.setup.timeout.ms',
  'bootstrap.servers',
  ...TLS_KEYS,
  ...SASL_KEYS
])

/** Keys ignored with a warning, by why they make no difference to the CLI. */
const IGNORED: ReadonlyArray<{ readonly keys: readonly string[]; readonly why: string }> = [
  {
    keys: [
      'ssl.protocol',
      'ssl.enabled.protocols',
      'ssl.cipher.suites',
      'ssl.keymanager.algorithm',
      'ssl.trustmanager.algorithm',
      'ssl.secure.random.implementation',
      'ssl.provider'
    ],
    why: "a setting of Java's TLS engine; Node's TLS defaults apply (TLS 1.2 or 1.3)"
  },
  {
    keys: [
      'sasl.login.refresh.window.factor',
      'sasl.login.refresh.window.jitter',
      'sasl.login.refresh.min.period.seconds',
      'sasl.login.refresh.buffer.seconds',
      'sasl.login.retry.backoff.ms',
      'sasl.login.retry.backoff.max.ms',
      'sasl.oauthbearer.scope.claim.name',
      'sasl.oauthbearer.sub.claim.name',
      'sasl.oauthbearer.clock.skew.seconds',
      'sasl.oauthbearer.expected.audience',
      'sasl.oauthbearer.expected.issuer',
      'sasl.oauthbearer.jwks.endpoint.url',
      'sasl.oauthbearer.jwks.endpoint.refresh.ms',
      'sasl.oauthbearer.jwks.endpoint.retry.backoff.ms',
      'sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms'
    ],
    why: "a setting of Java's token refresh or token checks; the CLI gets a token when it connects and the broker checks it"
  },
  {
    keys: [
      'client.dns.lookup',
      'connections.max.idle.ms',
      'metadata.max.age.ms',
      'retries',
      'retry.backoff.ms',
      'retry.backoff.max.ms',
      'reconnect.backoff.ms',
      'reconnect.backoff.max.ms',
      'default.api.timeout.ms',
      'send.buffer.bytes',
      'receive.buffer.bytes',
      'session.timeout.ms',
      'heartbeat.interval.ms',
      'max.poll.interval.ms',
      'acks',
      'linger.ms',
      'batch.size',
      'compression.type'
    ],
    why: 'a tuning setting of the Java clients, not used by the CLI'
  },
  {
    keys: ['schema.registry.url', 'basic.auth.credentials.source', 'basic.auth.user.info'],
    why: 'a Schema Registry setting; the CLI does not talk to a schema registry'
  }
]
const IGNORED_WHY = new Map(IGNORED.flatMap(group => group.keys.map(key => [key, group.why] as const)))

/** Keys of other clients (librdkafka), and Java-only keys, with what to write instead. */
const REFUSED: Readonly<Record<string, string>> = {
  'sasl.mechanisms': "librdkafka's name: Kafka's tools take sasl.mechanism",
  'sasl.username': "librdkafka's name: Kafka's tools put the user name in sasl.jaas.config",
  'sasl.password': "librdkafka's name: Kafka's tools put the password in sasl.jaas.config",
  'ssl.ca.location': "librdkafka's name: use ssl.truststore.type=PEM and ssl.truststore.location",
  'ssl.certificate.location': "librdkafka's name: use ssl.keystore.type=PEM and ssl.keystore.location (key and certificates in one file)",
  'ssl.key.location': "librdkafka's name: use ssl.keystore.type=PEM and ssl.keystore.location (key and certificates in one file)",
  'sasl.client.callback.handler.class': 'a Java class, which the CLI cannot run',
  'sasl.login.class': 'a Java class, which the CLI cannot run',
  'ssl.engine.factory.class': 'a Java class, which the CLI cannot run',
  'security.providers': 'Java security providers, which the CLI cannot run'
}

/** Reads the command config `path` (relative to `cwd`, as its store paths are). Throws CommandConfigError. */
export async function loadCommandConfig(path: string, cwd: string, now: () => number = Date.now): Promise<CommandConfig> {
  let text: string
  try {
    // ISO-8859-1, as java.util.Properties reads a stream.
    text = (await readFile(resolve(cwd, path))).toString('latin1')
  } catch (error) {
    throw new CommandConfigError(`--command-config ${path} cannot be read: ${(error as Error).message}`, { cause: error })
  }
  return await commandConfig(new ConfigEntries(path, parseJavaProperties(text, path)), cwd, now)
}

/** The settings of parsed config `config`. */
export async function commandConfig(config: ConfigEntries, cwd: string, now: () => number = Date.now): Promise<CommandConfig> {
  const warnings: string[] = []
  for (const key of config.keys()) {
    if (MAPPED.has(key)) continue
    const why = IGNORED_WHY.get(key)
    if (why !== undefined) warnings.push(`${config.source}: ignoring ${key}: ${why}`)
    else if (key.startsWith('sasl.kerberos.'))
      throw config.error(key, 'is a GSSAPI (Kerberos) setting; GSSAPI is not supported by the Node Kafka clients')
    else throw config.error(key, REFUSED[key] ?? 'is not a client setting the CLI knows (see the --command-config section of the README)')
  }
  const given = config.get('security.protocol') ?? 'PLAINTEXT'
  const protocol = given.toUpperCase()
  if (!(PROTOCOLS as readonly string[]).includes(protocol))
    throw config.error('security.protocol', `must be one of ${PROTOCOLS.join(', ')}, got '${given}'`)
  const tls = protocol === 'SSL' || protocol === 'SASL_SSL'
  const sasl = protocol.startsWith('SASL_')
  if (!tls)
    for (const key of TLS_KEYS)
      if (config.has(key)) throw config.error(key, `is set, but security.protocol ${protocol} has no TLS (SSL or SASL_SSL)`)
  if (!sasl)
    for (const key of SASL_KEYS)
      if (config.has(key)) throw config.error(key, `is set, but security.protocol ${protocol} has no SASL (SASL_PLAINTEXT or SASL_SSL)`)
  const saslSettings = sasl ? saslOptions(config, now) : undefined
  const ssl = tls ? await tlsOptions(config, cwd) : undefined
  const clientId = config.get('client.id')
  const bootstrapServers = config.get('bootstrap.servers')
  return {
    source: config.source,
    summary: summary(protocol, config, saslSettings?.sasl, ssl),
    ssl,
    sasl: saslSettings?.sasl,
    saslExtensions: saslSettings?.extensions ?? [],
    clientId: clientId === '' ? undefined : clientId,
    requestTimeoutMs: config.positiveInteger('request.timeout.ms'),
    connectionTimeoutMs: config.positiveInteger('socket.connection.setup.timeout.ms'),
    bootstrapServers: bootstrapServers === '' ? undefined : bootstrapServers,
    warnings
  }
}

function summary(protocol: string, config: ConfigEntries, sasl: CommandConfigSasl | undefined, ssl: CommandConfigTls | undefined): string {
  const parts = [protocol]
  if (sasl !== undefined) {
    const mechanism = config.get('sasl.mechanism')!.toUpperCase()
    if (sasl.mechanism !== 'oauthbearer') parts.push(`${mechanism} as ${sasl.username}`)
    else {
      const endpoint = config.get('sasl.oauthbearer.token.endpoint.url')
      const url = endpoint === undefined ? undefined : new URL(endpoint)
      parts.push(
        url === undefined
          ? `${mechanism} with unsecured tokens`
          : `${mechanism} with tokens from ${url.protocol === 'file:' ? url.href : `${url.origin}${url.pathname}`}`
      )
    }
  }
  if (ssl?.cert !== undefined) parts.push('a client certificate')
  return parts.join(', ')
}
