/**
 * The security settings of the Kafka clients (`ssl` and `sasl` of a StreamsConfig): their types,
 * one SASL shape per mechanism, and their check. A misspelt or unknown option is a ConfigError
 * naming it (`sasl.usernme`, `ssl.rejectUnauthorised`), a mechanism no adapter has says what to use
 * instead, and TLS material Node cannot load (a key whose passphrase is wrong) fails at start-up,
 * not at the first connection. The values are never logged.
 */
import { createSecureContext, type PeerCertificate } from 'node:tls'
import { ConfigError } from '../errors.js'

/** PEM text or its bytes; several in an array. */
export type PemInput = string | Buffer | ReadonlyArray<string | Buffer>

/**
 * TLS for the Kafka clients (the broker's listener is SSL or SASL_SSL); kafkajs' names, which
 * are Node's TLS options. `ssl: true` trusts the system's CAs (a cloud cluster with a public
 * certificate); a private cluster needs `ca`; mTLS adds `cert` and `key` (or `pfx`).
 */
export interface SslConfig {
  /** The CA certificates to trust (PEM), instead of the system's. */
  readonly ca?: PemInput
  /** The client certificate chain (PEM), for mTLS. */
  readonly cert?: PemInput
  /** The client's private key (PEM), for mTLS. */
  readonly key?: PemInput
  /** The passphrase of `key` or `pfx`. */
  readonly passphrase?: string
  /** The client certificate and key as PKCS#12 bytes (a `.p12` keystore), instead of `cert` and `key`. */
  readonly pfx?: string | Buffer | ReadonlyArray<string | Buffer>
  /** The host name the broker's certificate must match (SNI); default each broker's host. */
  readonly servername?: string
  /** Whether an untrusted broker certificate fails the connection; default true. Never false outside tests. */
  readonly rejectUnauthorized?: boolean
  /**
   * Node's check of the broker's host name against its certificate, after the chain is verified;
   * `() => undefined` turns the host name check off (Kafka's empty
   * `ssl.endpoint.identification.algorithm`) while keeping the chain check.
   */
  readonly checkServerIdentity?: (hostname: string, cert: PeerCertificate) => Error | undefined
}

/** SASL PLAIN or SCRAM: a user name and password. */
export interface SaslPasswordConfig {
  /** 'plain' (over TLS only), 'scram-sha-256' or 'scram-sha-512'. */
  readonly mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'
  /** The SASL user (Confluent Cloud: the API key). */
  readonly username: string
  /** Its password (Confluent Cloud: the API secret). */
  readonly password: string
}

/** What an OAUTHBEARER token provider gives: the token, and SASL extensions where the cluster wants them. */
export interface OAuthBearerToken {
  /** The bearer token (a JWT, or an MSK IAM token from aws-msk-iam-sasl-signer-js). */
  readonly value: string
  /** SASL extensions sent with the token (Confluent Cloud: `logicalCluster`, `identityPoolId`). */
  readonly extensions?: Readonly<Record<string, string>>
}

/**
 * SASL OAUTHBEARER: a function giving a token. It is called at every authentication: each new
 * connection, and each re-authentication before the session the broker granted ends (KIP-368;
 * the broker bounds it by the token's expiry when `connections.max.reauth.ms` is set). Cache the
 * token in the function if getting one is costly, and give a fresh one before the old expires.
 */
export interface SaslOAuthBearerConfig {
  /** 'oauthbearer'. */
  readonly mechanism: 'oauthbearer'
  /** Gives the token to authenticate with (kafkajs' name). */
  readonly oauthBearerProvider: () => Promise<OAuthBearerToken> | OAuthBearerToken
}

/** SASL authentication for the Kafka clients, one shape per mechanism (kafkajs' names). Never logged. */
export type SaslConfig = SaslPasswordConfig | SaslOAuthBearerConfig

/** A SASL mechanism kstreams' adapters speak. */
export type SaslMechanism = SaslConfig['mechanism']

const SSL_KEYS: Readonly<Record<keyof SslConfig, (v: unknown) => boolean>> = {
  ca: isPemInput,
  cert: isPemInput,
  key: isPemInput,
  passphrase: v => typeof v === 'string',
  pfx: isPemInput,
  servername: v => typeof v === 'string' && v !== '',
  rejectUnauthorized: v => typeof v === 'boolean',
  checkServerIdentity: v => typeof v === 'function'
}

const SSL_EXPECTED: Readonly<Record<keyof SslConfig, string>> = {
  ca: 'PEM text or bytes, or an array of them',
  cert: 'PEM text or bytes, or an array of them',
  key: 'PEM text or bytes, or an array of them',
  passphrase: 'a string',
  pfx: 'PKCS#12 bytes, or an array of them',
  servername: 'a non-empty host name',
  rejectUnauthorized: 'a boolean',
  checkServerIdentity: 'a function (hostname, certificate) => Error | undefined'
}

const PASSWORD_KEYS = ['mechanism', 'username', 'password'] as const
const OAUTHBEARER_KEYS = ['mechanism', 'oauthBearerProvider'] as const
const MECHANISMS: readonly SaslMechanism[] = ['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer']

const MSK_IAM =
  "for Amazon MSK's IAM access control use { mechanism: 'oauthbearer', oauthBearerProvider } with a token from " +
  "aws-msk-iam-sasl-signer-js (generateAuthToken({ region })) on MSK's IAM port 9098 with ssl: true, or SCRAM-SHA-512 on port 9096"

/** Mechanisms users ask for that neither adapter has, and what to use instead. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  gssapi:
    'SASL GSSAPI (Kerberos) is not supported: neither kafkajs nor @platformatic/kafka implements Kerberos; ' +
    'use SCRAM-SHA-512, OAUTHBEARER or mTLS (ssl with cert and key) where the cluster offers them',
  aws: `kafkajs' 'aws' mechanism is for a third-party broker plugin, not Amazon MSK, and is not supported; ${MSK_IAM}`,
  aws_msk_iam: `SASL AWS_MSK_IAM is not supported; ${MSK_IAM}`,
  'aws-msk-iam': `SASL AWS_MSK_IAM is not supported; ${MSK_IAM}`
}

/** Throws a ConfigError (key `ssl` or `ssl.<option>`) for TLS settings that are not SslConfig or that Node cannot load. */
export function checkSslConfig(ssl: unknown): void {
  if (ssl === undefined || typeof ssl === 'boolean') return
  if (ssl === null || typeof ssl !== 'object' || Array.isArray(ssl))
    throw new ConfigError('ssl', 'Invalid value for config "ssl": must be true, false or TLS options (ca, cert, key, ...)')
  for (const [key, value] of Object.entries(ssl)) {
    if (!Object.hasOwn(SSL_KEYS, key))
      throw new ConfigError(`ssl.${key}`, `Unknown TLS option "ssl.${key}" (known: ${Object.keys(SSL_KEYS).join(', ')})`)
    const name = key as keyof SslConfig
    if (value !== undefined && !SSL_KEYS[name](value))
      throw new ConfigError(`ssl.${key}`, `Invalid value for "ssl.${key}": must be ${SSL_EXPECTED[name]}`)
  }
  const { ca, cert, key, passphrase, pfx } = ssl as SslConfig
  for (const [name, value] of [
    ['ca', ca],
    ['cert', cert],
    ['key', key]
  ] as const) {
    // Node ignores a CA that is not PEM (a file's path given for its contents): the handshake would fail later.
    if (value !== undefined && !pemItems(value).every(item => item.includes('-----BEGIN ')))
      throw new ConfigError(
        `ssl.${name}`,
        `Invalid value for "ssl.${name}": must be PEM text ("-----BEGIN ..."), not a file name; read the file: readFileSync(path, 'utf8')`
      )
  }
  if ((cert === undefined) !== (key === undefined) && pfx === undefined)
    throw new ConfigError(cert === undefined ? 'ssl.cert' : 'ssl.key', 'TLS client authentication needs both ssl.cert and ssl.key')
  try {
    // What the clients will give tls.connect: loads the certificates and decrypts the key now.
    createSecureContext({ ca, cert, key, passphrase, pfx } as Parameters<typeof createSecureContext>[0])
  } catch (error) {
    const reason = (error as Error).message
    throw new ConfigError('ssl', `The TLS options cannot be loaded (check ca, cert, key, passphrase, pfx): ${reason}`, { cause: error })
  }
}

/** Throws a ConfigError (key `sasl` or `sasl.<option>`) for SASL settings that are not a SaslConfig of a mechanism the adapters speak. */
export function checkSaslConfig(sasl: unknown): void {
  if (sasl === undefined) return
  if (sasl === null || typeof sasl !== 'object' || Array.isArray(sasl))
    throw new ConfigError('sasl', `Invalid value for config "sasl": must be an object with a mechanism (${MECHANISMS.join(', ')})`)
  const mechanism = (sasl as { mechanism?: unknown }).mechanism
  if (typeof mechanism !== 'string') throw new ConfigError('sasl.mechanism', `Missing "sasl.mechanism": one of ${MECHANISMS.join(', ')}`)
  const name = mechanism.toLowerCase()
  const unsupported = Object.hasOwn(UNSUPPORTED, name) ? UNSUPPORTED[name] : undefined
  if (unsupported !== undefined) throw new ConfigError('sasl.mechanism', unsupported)
  if (!(MECHANISMS as readonly string[]).includes(name))
    throw new ConfigError('sasl.mechanism', `Unknown SASL mechanism "${mechanism}": one of ${MECHANISMS.join(', ')}`)
  const keys: readonly string[] = name === 'oauthbearer' ? OAUTHBEARER_KEYS : PASSWORD_KEYS
  for (const key of Object.keys(sasl)) {
    if (!keys.includes(key)) {
      const hint =
        name === 'oauthbearer' && (key === 'token' || key === 'oauthBearerToken')
          ? '; give a function as oauthBearerProvider: () => ({ value: token })'
          : ''
      throw new ConfigError(`sasl.${key}`, `Unknown option "sasl.${key}" for SASL ${name} (its options: ${keys.join(', ')})${hint}`)
    }
  }
  const fields = sasl as Record<string, unknown>
  if (name === 'oauthbearer') {
    if (typeof fields.oauthBearerProvider !== 'function')
      throw new ConfigError(
        'sasl.oauthBearerProvider',
        'SASL oauthbearer needs oauthBearerProvider: a function giving { value: token }, called at every authentication'
      )
    return
  }
  for (const key of ['username', 'password'] as const) {
    if (typeof fields[key] !== 'string' || fields[key] === '')
      throw new ConfigError(`sasl.${key}`, `SASL ${name} needs "sasl.${key}": a non-empty string`)
  }
}

function pemItems(value: PemInput): string[] {
  return (Array.isArray(value) ? value : [value]).map(v => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)))
}

function isPemInput(value: unknown): boolean {
  const one = (v: unknown): boolean => typeof v === 'string' || Buffer.isBuffer(v)
  return one(value) || (Array.isArray(value) && value.every(one))
}
