/**
 * What a secured local cluster is made of: the files in its security directory (a CA, the
 * brokers' and the admin's certificates as PEM and PKCS#12, a trust store, a Java client config),
 * the server.properties keys of the secured listener, and the SCRAM users StorageTool writes
 * when it formats the storage.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { BrokerProperties } from './broker-config.js'
import { createCertificateAuthority, issueCertificate } from './certificates.js'
import { pkcs12KeyStore, pkcs12TrustStore } from './pkcs12.js'
import { ADMIN_USER, BROKER_PRINCIPAL, type SaslMechanism, type SecurityRecord } from './security-options.js'

/** Absolute paths of the files in a secured cluster's security directory. */
export interface SecurityFiles {
  /** The CA certificate (PEM): what clients trust. */
  readonly caPem: string
  /** The CA's private key (PEM, PKCS#8), for issuing more certificates. */
  readonly caKeyPem: string
  /** Java trust store (PKCS12, password `storePassword`) holding the CA. */
  readonly truststore: string
  /** The brokers' key store (PKCS12): CN kafka-local-broker, subjectAltName 127.0.0.1 and localhost. */
  readonly brokerKeystore: string
  /** The admin's client certificate (PEM, CN admin): the super user under mTLS. TLS protocols only. */
  readonly adminCertPem: string
  /** Its private key (PEM, unencrypted PKCS#8). */
  readonly adminKeyPem: string
  /** The same certificate and key as a Java key store (PKCS12, password `storePassword`). */
  readonly adminKeystore: string
  /** Java client config (`--command-config` of Kafka's tools) connecting as admin. */
  readonly clientProperties: string
}

const SERVER_NAMES = ['127.0.0.1', 'localhost']
const MECHANISM_NAMES: Readonly<Record<SaslMechanism, string>> = {
  plain: 'PLAIN',
  'scram-sha-256': 'SCRAM-SHA-256',
  'scram-sha-512': 'SCRAM-SHA-512',
  oauthbearer: 'OAUTHBEARER'
}

/** The files of the security directory `dir`. */
export function securityFiles(dir: string): SecurityFiles {
  return {
    caPem: join(dir, 'ca.pem'),
    caKeyPem: join(dir, 'ca-key.pem'),
    truststore: join(dir, 'truststore.p12'),
    brokerKeystore: join(dir, 'broker.p12'),
    adminCertPem: join(dir, 'admin.pem'),
    adminKeyPem: join(dir, 'admin-key.pem'),
    adminKeystore: join(dir, 'admin.p12'),
    clientProperties: join(dir, 'client.properties')
  }
}

/** Kafka's name of a mechanism, e.g. "SCRAM-SHA-512". */
export function kafkaMechanismName(mechanism: SaslMechanism): string {
  return MECHANISM_NAMES[mechanism]
}

/** The client listener's name: its protocol in capitals, or PLAINTEXT for an unsecured cluster. */
export function listenerName(security: SecurityRecord | undefined): string {
  return security === undefined ? 'PLAINTEXT' : security.protocol.toUpperCase()
}

/** Makes a fresh security directory: CA, certificates, stores and the Java client config. */
export async function writeSecurityFiles(security: SecurityRecord): Promise<void> {
  const files = securityFiles(security.dir)
  await rm(security.dir, { recursive: true, force: true })
  await mkdir(security.dir, { recursive: true, mode: 0o700 })
  const password = security.storePassword
  const ca = createCertificateAuthority({ commonName: 'kstreams kafka-local CA' })
  const broker = issueCertificate(ca, { commonName: BROKER_PRINCIPAL, altNames: SERVER_NAMES })
  await writeFile(files.caPem, ca.cert)
  await writeFile(files.caKeyPem, ca.key, { mode: 0o600 })
  await writeFile(files.truststore, pkcs12TrustStore({ alias: 'ca', ca: ca.cert, password }))
  await writeFile(files.brokerKeystore, pkcs12KeyStore({ alias: 'broker', key: broker.key, chain: [broker.cert, ca.cert], password }))
  if (security.protocol !== 'sasl_plaintext') {
    const admin = issueCertificate(ca, { commonName: ADMIN_USER })
    await writeFile(files.adminCertPem, admin.cert)
    await writeFile(files.adminKeyPem, admin.key, { mode: 0o600 })
    await writeFile(files.adminKeystore, pkcs12KeyStore({ alias: ADMIN_USER, key: admin.key, chain: [admin.cert, ca.cert], password }))
  }
  await writeFile(files.clientProperties, javaClientProperties(security), { mode: 0o600 })
}

/** The server.properties keys of the secured listener (TLS stores, SASL mechanisms and users, authorizer). */
export function securityProperties(security: SecurityRecord): BrokerProperties {
  const files = securityFiles(security.dir)
  const prefix = `listener.name.${listenerName(security).toLowerCase()}.`
  const props: Record<string, string> = {}
  if (security.protocol !== 'sasl_plaintext') {
    Object.assign(props, {
      'ssl.keystore.type': 'PKCS12',
      'ssl.keystore.location': files.brokerKeystore,
      'ssl.keystore.password': security.storePassword,
      'ssl.key.password': security.storePassword,
      'ssl.truststore.type': 'PKCS12',
      'ssl.truststore.location': files.truststore,
      'ssl.truststore.password': security.storePassword,
      'ssl.client.auth': security.mtls ? 'required' : 'none',
      // A certificate's principal is its CN: User:admin, User:kafka-local-broker.
      'ssl.principal.mapping.rules': 'RULE:^CN=([^,]+)$/$1/,DEFAULT'
    })
  }
  if (security.saslMechanisms.length > 0) {
    props[`${prefix}sasl.enabled.mechanisms`] = security.saslMechanisms.map(kafkaMechanismName).join(',')
    props['sasl.mechanism.inter.broker.protocol'] = kafkaMechanismName(security.saslMechanisms[0]!)
    for (const mechanism of security.saslMechanisms) {
      props[`${prefix}${mechanism}.sasl.jaas.config`] = brokerJaas(mechanism, security.users)
    }
  }
  if (security.authorizer) {
    props['authorizer.class.name'] = 'org.apache.kafka.metadata.authorizer.StandardAuthorizer'
    // ANONYMOUS is the brokers' principal on the PLAINTEXT controller listener (never advertised to clients).
    props['super.users'] = [ADMIN_USER, BROKER_PRINCIPAL, 'ANONYMOUS'].map(user => `User:${user}`).join(';')
    props['allow.everyone.if.no.acl.found'] = 'false'
  }
  return props
}

/** `--add-scram` arguments of StorageTool format: every user for every SCRAM mechanism enabled. */
export function scramFormatArgs(security: SecurityRecord | undefined): string[] {
  if (security === undefined) return []
  const args: string[] = []
  for (const mechanism of security.saslMechanisms.filter(m => m.startsWith('scram-'))) {
    for (const [name, password] of Object.entries(security.users)) {
      args.push('--add-scram', `${kafkaMechanismName(mechanism)}=[name=${name},password=${password}]`)
    }
  }
  return args
}

/** A Java client config (Kafka tools' `--command-config`) connecting as admin with the first mechanism. */
export function javaClientProperties(security: SecurityRecord): string {
  const files = securityFiles(security.dir)
  const lines = [`security.protocol=${listenerName(security)}`]
  const mechanism = security.saslMechanisms[0]
  if (mechanism !== undefined) {
    lines.push(`sasl.mechanism=${kafkaMechanismName(mechanism)}`, `sasl.jaas.config=${clientJaas(mechanism, security.users)}`)
  }
  if (security.protocol !== 'sasl_plaintext') {
    lines.push(
      'ssl.truststore.type=PKCS12',
      `ssl.truststore.location=${files.truststore}`,
      `ssl.truststore.password=${security.storePassword}`
    )
  }
  if (security.mtls) {
    lines.push(
      'ssl.keystore.type=PKCS12',
      `ssl.keystore.location=${files.adminKeystore}`,
      `ssl.keystore.password=${security.storePassword}`,
      `ssl.key.password=${security.storePassword}`
    )
  }
  return lines.join('\n') + '\n'
}

/** The listener's JAAS entry for one mechanism: the broker's own login (as admin) and, for PLAIN, every user. */
function brokerJaas(mechanism: SaslMechanism, users: Readonly<Record<string, string>>): string {
  if (mechanism !== 'plain') return clientJaas(mechanism, users)
  const accounts = Object.entries(users).map(([name, password]) => ` user_${name}="${password}"`)
  return `org.apache.kafka.common.security.plain.PlainLoginModule required username="${ADMIN_USER}" password="${users[ADMIN_USER]}"${accounts.join('')};`
}

function clientJaas(mechanism: SaslMechanism, users: Readonly<Record<string, string>>): string {
  switch (mechanism) {
    case 'plain':
      return `org.apache.kafka.common.security.plain.PlainLoginModule required username="${ADMIN_USER}" password="${users[ADMIN_USER]}";`
    case 'scram-sha-256':
    case 'scram-sha-512':
      return `org.apache.kafka.common.security.scram.ScramLoginModule required username="${ADMIN_USER}" password="${users[ADMIN_USER]}";`
    case 'oauthbearer':
      // The unsecured login: the client makes an alg-none token for this subject.
      return `org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="${ADMIN_USER}";`
  }
}
