/**
 * The `security` option of a local cluster and its checked, resolved form. The one client
 * listener carries the security (TLS, SASL or both); the brokers talk to each other over it too,
 * as the super user; only the KRaft controller listener stays PLAINTEXT on 127.0.0.1. The
 * resolved form (passwords generated, users complete) is what cluster.json records, so another
 * process can reach the cluster again.
 */
import { randomBytes } from 'node:crypto'
import { KafkaLocalError } from './kafka-local-error.js'

/** The client listener's security protocol (the cluster is PLAINTEXT without a `security` option). */
export type SecurityProtocol = 'ssl' | 'sasl_plaintext' | 'sasl_ssl'

/** A SASL mechanism the local broker offers; `oauthbearer` is Kafka's unsecured-JWS mode (see `unsecuredJwt`). */
export type SaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512' | 'oauthbearer'

/** How the local cluster is secured. */
export interface SecurityOptions {
  /** 'ssl' (TLS), 'sasl_plaintext' or 'sasl_ssl' (SASL over TLS). */
  readonly protocol: SecurityProtocol
  /**
   * SASL mechanisms enabled on the listener (SASL protocols only), any of 'plain', 'scram-sha-256',
   * 'scram-sha-512' and 'oauthbearer'; default ['scram-sha-512']. The first is the one the brokers
   * use between themselves.
   */
  readonly saslMechanisms?: readonly SaslMechanism[]
  /** Require a client certificate (`ssl.client.auth=required`); 'ssl' and 'sasl_ssl' only; default false. */
  readonly mtls?: boolean
  /**
   * KRaft's StandardAuthorizer: nothing is allowed without an ACL, except to the super users
   * (`admin` and the brokers). Needs authenticated clients: a SASL protocol, or 'ssl' with mtls.
   * Default false.
   */
  readonly authorizer?: boolean
  /**
   * SASL users besides `admin` (whose password is generated): user name to password. PLAIN users
   * go into the broker's JAAS config, SCRAM users are written when the storage is formatted.
   * Names: letters, digits, '.', '_', '-'; passwords: no spaces, quotes, backslashes, ',', ';', '=', '[' or ']'.
   */
  readonly users?: Readonly<Record<string, string>>
}

/** The security of a started cluster, as cluster.json records it. */
export interface SecurityRecord {
  readonly protocol: SecurityProtocol
  /** Empty for 'ssl'. */
  readonly saslMechanisms: readonly SaslMechanism[]
  readonly mtls: boolean
  readonly authorizer: boolean
  /** Every SASL user, `admin` first: name to password. Empty for 'ssl'. */
  readonly users: Readonly<Record<string, string>>
  /** Password of every PKCS#12 store in the security directory. */
  readonly storePassword: string
  /** The security directory: CA, certificates, key and trust stores, client.properties. */
  readonly dir: string
}

/** The harness's super user: every SASL mechanism and the client certificate authenticate as it. */
export const ADMIN_USER = 'admin'
/** The brokers' certificate's CN, their principal between themselves under 'ssl'. */
export const BROKER_PRINCIPAL = 'kafka-local-broker'

const PROTOCOLS: readonly SecurityProtocol[] = ['ssl', 'sasl_plaintext', 'sasl_ssl']
const MECHANISMS: readonly SaslMechanism[] = ['plain', 'scram-sha-256', 'scram-sha-512', 'oauthbearer']
const USER_NAME = /^[A-Za-z0-9._-]+$/
const PASSWORD = /^[^\s"'\\,;=[\]]+$/

/** Checks `options` (INVALID_OPTION naming what is wrong) and completes them: mechanisms, users with admin, store password. */
export function resolveSecurity(options: SecurityOptions, dir: string): SecurityRecord {
  const protocol = options.protocol
  if (!PROTOCOLS.includes(protocol)) {
    throw invalid(`security.protocol must be one of ${PROTOCOLS.join(', ')}, got "${String(protocol)}"`)
  }
  const sasl = protocol !== 'ssl'
  const tls = protocol !== 'sasl_plaintext'
  if (!sasl && options.saslMechanisms !== undefined) {
    throw invalid(`security.saslMechanisms needs a SASL protocol (sasl_plaintext or sasl_ssl), not ${protocol}`)
  }
  const saslMechanisms = sasl ? [...(options.saslMechanisms ?? ['scram-sha-512'])] : []
  if (sasl && saslMechanisms.length === 0) throw invalid('security.saslMechanisms must name at least one mechanism')
  for (const mechanism of saslMechanisms) {
    if (!MECHANISMS.includes(mechanism)) {
      throw invalid(`security.saslMechanisms: "${String(mechanism)}" is not one of ${MECHANISMS.join(', ')}`)
    }
  }
  if (new Set(saslMechanisms).size !== saslMechanisms.length) throw invalid('security.saslMechanisms lists a mechanism twice')
  const mtls = options.mtls ?? false
  if (mtls && !tls) throw invalid('security.mtls needs TLS: use protocol ssl or sasl_ssl, not sasl_plaintext')
  const authorizer = options.authorizer ?? false
  if (authorizer && !sasl && !mtls) {
    throw invalid('security.authorizer needs authenticated clients: a SASL protocol, or protocol ssl with mtls')
  }
  const extra = Object.entries(options.users ?? {})
  if (!sasl && extra.length > 0) {
    throw invalid('security.users are SASL users and need a SASL protocol; with ssl and mtls, issue a client certificate per user')
  }
  const users: Record<string, string> = {}
  if (sasl) users[ADMIN_USER] = randomBytes(12).toString('hex')
  for (const [name, password] of extra) {
    if (name === ADMIN_USER) throw invalid(`security.users: "${ADMIN_USER}" is the harness's super user, its password is generated`)
    if (!USER_NAME.test(name)) throw invalid(`security.users: user name "${name}" may only have letters, digits, '.', '_' and '-'`)
    if (typeof password !== 'string' || !PASSWORD.test(password)) {
      throw invalid(
        `security.users: the password of "${name}" must be non-empty, without spaces, quotes, backslashes, ',', ';', '=', '[' or ']'`
      )
    }
    users[name] = password
  }
  return { protocol, saslMechanisms, mtls, authorizer, users, storePassword: randomBytes(12).toString('hex'), dir }
}

function invalid(message: string): KafkaLocalError {
  return new KafkaLocalError('INVALID_OPTION', message)
}
