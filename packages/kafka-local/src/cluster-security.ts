/**
 * What a test gets back from a secured local cluster: the credentials and certificates, in the
 * shapes kafkajs and kstreams take them (`ssl`: Node TLS options with PEM strings; `sasl`:
 * `{ mechanism, username, password }` or `{ mechanism: 'oauthbearer', oauthBearerProvider }`),
 * the files for Java clients, more client certificates on demand, and ACL grants as the admin.
 */
import { readFileSync } from 'node:fs'
import { aclEntries, createAcls, type AclGrant } from './acl-grants.js'
import { issueCertificate, type PemCredentials } from './certificates.js'
import { KafkaLocalError } from './kafka-local-error.js'
import { kafkaMechanismName, securityFiles, type SecurityFiles } from './security-config.js'
import { ADMIN_USER, BROKER_PRINCIPAL, type SaslMechanism, type SecurityProtocol, type SecurityRecord } from './security-options.js'
import { unsecuredJwt } from './unsecured-jwt.js'

/** Node TLS options for a client (kafkajs' and kstreams' `ssl`): the CA to trust and, under mTLS, the client's certificate. */
export type TlsClientOptions = {
  /** The cluster's CA certificate (PEM). */
  readonly ca: string
  /** The client certificate (PEM); set under mTLS. */
  readonly cert?: string
  /** Its private key (PEM); set under mTLS. */
  readonly key?: string
}

/** kafkajs' (and kstreams') `sasl` for one user and mechanism. */
export type SaslClientOptions = PasswordSasl<'plain'> | PasswordSasl<'scram-sha-256'> | PasswordSasl<'scram-sha-512'> | OAuthBearerSasl

/** SASL OAUTHBEARER as kafkajs takes it: a function giving a token at every authentication. */
export type OAuthBearerSasl = {
  /** Always 'oauthbearer'. */
  readonly mechanism: 'oauthbearer'
  /** Makes a fresh unsecured token (one hour) for the user at every authentication. */
  readonly oauthBearerProvider: () => Promise<OAuthBearerToken>
}

/** What an OAUTHBEARER token provider gives kafkajs. */
export type OAuthBearerToken = {
  /** The token (here an unsecured JWS). */
  value: string
}

/** SASL with a user name and password, for one mechanism. */
export type PasswordSasl<M extends 'plain' | 'scram-sha-256' | 'scram-sha-512'> = {
  /** The mechanism, in kafkajs' lower case. */
  readonly mechanism: M
  /** The SASL user. */
  readonly username: string
  /** Its password. */
  readonly password: string
}

/** `ssl` and `sasl` for a Kafka client, to spread into kafkajs' `new Kafka({...})` or a kstreams config. */
export type ClientSecurityOptions = {
  /** Set unless the protocol is 'sasl_plaintext'. */
  readonly ssl?: TlsClientOptions
  /** Set for the SASL protocols. */
  readonly sasl?: SaslClientOptions
}

/** Which identity `clientOptions()` and `sasl()` use. */
export interface ClientIdentity {
  /** A SASL user (default 'admin'); for 'oauthbearer' any principal. Under mTLS without SASL, use issueClientCertificate. */
  readonly user?: string
  /** One of the enabled mechanisms; default the first. */
  readonly mechanism?: SaslMechanism
}

/** The security of a started local cluster: how to connect, as whom, and with which files. */
export class ClusterSecurity {
  /** The client listener's protocol. */
  readonly protocol: SecurityProtocol
  /** SASL mechanisms enabled on the listener (empty for 'ssl'). */
  readonly saslMechanisms: readonly SaslMechanism[]
  /** Whether the listener requires a client certificate. */
  readonly mtls: boolean
  /** Whether StandardAuthorizer checks ACLs. */
  readonly authorizer: boolean
  /** Every SASL user, 'admin' first: user name to password (empty for 'ssl'). */
  readonly users: Readonly<Record<string, string>>
  /** The principals allowed everything: User:admin, User:kafka-local-broker and (controller listener only) User:ANONYMOUS. */
  readonly superUsers: readonly string[]
  /** The password of every PKCS#12 store in `files`. */
  readonly storePassword: string
  /** CA, certificates, key and trust stores and the Java client config, on disk. */
  readonly files: SecurityFiles
  /** The CA certificate (PEM). */
  readonly caPem: string
  readonly #admin: PemCredentials | undefined
  readonly #caKey: string
  readonly #bootstrapServers: string

  /** @internal Built by LocalKafkaCluster from the recorded security; reads the PEM files. */
  constructor(record: SecurityRecord, bootstrapServers: string) {
    this.#bootstrapServers = bootstrapServers
    this.protocol = record.protocol
    this.saslMechanisms = record.saslMechanisms
    this.mtls = record.mtls
    this.authorizer = record.authorizer
    this.users = record.users
    this.superUsers = record.authorizer ? [ADMIN_USER, BROKER_PRINCIPAL, 'ANONYMOUS'].map(u => `User:${u}`) : []
    this.storePassword = record.storePassword
    this.files = securityFiles(record.dir)
    this.caPem = readFileSync(this.files.caPem, 'utf8')
    this.#caKey = readFileSync(this.files.caKeyPem, 'utf8')
    this.#admin =
      record.protocol === 'sasl_plaintext'
        ? undefined
        : { cert: readFileSync(this.files.adminCertPem, 'utf8'), key: readFileSync(this.files.adminKeyPem, 'utf8') }
  }

  /** The admin user's name ('admin'), a super user when the authorizer is on. */
  get adminUser(): string {
    return ADMIN_USER
  }

  /** The admin's SASL password (undefined for 'ssl'). */
  get adminPassword(): string | undefined {
    return this.users[ADMIN_USER]
  }

  /**
   * TLS options as the admin: the CA and, under mTLS, the admin's client certificate and key.
   * Undefined for 'sasl_plaintext'.
   */
  get ssl(): TlsClientOptions | undefined {
    if (this.#admin === undefined) return undefined
    return this.mtls ? { ca: this.caPem, cert: this.#admin.cert, key: this.#admin.key } : { ca: this.caPem }
  }

  /** `sasl` for `identity` (default: admin, first mechanism); INVALID_OPTION for 'ssl', a mechanism not enabled or an unknown user. */
  sasl(identity: ClientIdentity = {}): SaslClientOptions {
    const mechanism = identity.mechanism ?? this.saslMechanisms[0]
    if (mechanism === undefined) throw new KafkaLocalError('INVALID_OPTION', `the cluster's protocol is ${this.protocol}: there is no SASL`)
    if (!this.saslMechanisms.includes(mechanism)) {
      throw new KafkaLocalError('INVALID_OPTION', `SASL ${mechanism} is not enabled; the cluster offers ${this.saslMechanisms.join(', ')}`)
    }
    const user = identity.user ?? ADMIN_USER
    if (mechanism === 'oauthbearer') {
      return { mechanism, oauthBearerProvider: async () => ({ value: unsecuredJwt({ principal: user }) }) }
    }
    const password = this.users[user]
    if (password === undefined) {
      throw new KafkaLocalError('INVALID_OPTION', `no SASL user "${user}"; the users are ${Object.keys(this.users).join(', ')}`)
    }
    return { mechanism, username: user, password }
  }

  /**
   * `{ ssl, sasl }` for a client, as `identity` (default: admin with the first mechanism): spread
   * into `new Kafka({ clientId, brokers, ...security.clientOptions() })` or a kstreams config.
   */
  clientOptions(identity: ClientIdentity = {}): ClientSecurityOptions {
    const ssl = this.ssl
    return {
      ...(ssl === undefined ? {} : { ssl }),
      ...(this.saslMechanisms.length === 0 ? {} : { sasl: this.sasl(identity) })
    }
  }

  /**
   * A new client certificate from the cluster's CA for `commonName` (its principal is
   * User:<commonName>), e.g. a restricted user under mTLS: `{ ssl: { ca: security.caPem, ...cert } }`.
   * Certificates from another CA are refused by the broker.
   */
  issueClientCertificate(commonName: string): PemCredentials {
    return issueCertificate({ cert: this.caPem, key: this.#caKey }, { commonName })
  }

  /**
   * Grants (or, with permission 'deny', denies) `principal` ("alice" for User:alice) the
   * operations of `grants`, as the admin, and resolves once the brokers list the new ACLs.
   * INVALID_OPTION without the authorizer; ACL_TIMEOUT if they do not show up within 30 s.
   */
  async grant(principal: string, grants: readonly AclGrant[]): Promise<void> {
    if (!this.authorizer) throw new KafkaLocalError('INVALID_OPTION', 'the cluster runs without the authorizer (security.authorizer)')
    await createAcls({ brokers: this.#bootstrapServers.split(','), ...this.clientOptions() }, aclEntries(principal, grants))
  }

  /** One line for people: protocol, mechanisms, mTLS, authorizer. */
  describe(): string {
    const parts = [this.protocol.toUpperCase()]
    if (this.saslMechanisms.length > 0) parts.push(`SASL ${this.saslMechanisms.map(kafkaMechanismName).join(', ')}`)
    if (this.mtls) parts.push('mTLS')
    if (this.authorizer) parts.push('ACLs (StandardAuthorizer)')
    return parts.join(', ')
  }
}
