/**
 * The `ssl.*` keys of a Kafka client config as Node TLS options (`ca`, `cert`, `key`, and
 * `checkServerIdentity` when host name checks are off), with the rules of Kafka's
 * DefaultSslEngineFactory: a trust store is a PEM file or PKCS12 file (`ssl.truststore.location`)
 * or PEM text (`ssl.truststore.certificates`); a key store is a PEM file, PEM text
 * (`ssl.keystore.key` + `ssl.keystore.certificate.chain`) or a PKCS12 file; PEM stores take no
 * store password, a PKCS12 key store needs one. Keys come out decrypted (PKCS#8 PEM), so no
 * `passphrase` is needed. Everything is read and checked with Node's TLS before any connection,
 * and errors name the key, never a password or a key. @internal
 */
import { X509Certificate, createPrivateKey } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { createSecureContext } from 'node:tls'
import type { ConfigEntries } from './config-entries.js'
import { pemBlocks, PemError, toPem, type PemBlock } from './pem.js'
import { Pkcs12Error, readPkcs12 } from './pkcs12-reader.js'

/** Node TLS options, as the kstreams adapters take them (`ssl`). */
export type CommandConfigTls = {
  /** The trusted certificates (PEM), when a trust store is given; Node's default CAs otherwise (as Java's default trust store). */
  readonly ca?: string[]
  /** The client's certificate chain (PEM, leaf first), for mTLS. */
  readonly cert?: string
  /** The client's private key (PEM, PKCS#8, unencrypted). */
  readonly key?: string
  /** With `ssl.endpoint.identification.algorithm=` (empty): no host name check; the chain is still verified. */
  readonly checkServerIdentity?: () => undefined
}

const PRIVATE_KEY_LABELS = new Set(['PRIVATE KEY', 'ENCRYPTED PRIVATE KEY', 'RSA PRIVATE KEY', 'EC PRIVATE KEY'])
const JKS_MAGIC = 0xfeedfeed

/** The TLS options of `config` (called for SSL and SASL_SSL). Relative store paths are resolved against `cwd`, as Java does. */
export async function tlsOptions(config: ConfigEntries, cwd: string): Promise<CommandConfigTls> {
  const ca = await trustedCertificates(config, cwd)
  const identity = await clientIdentity(config, cwd)
  const algorithm = config.get('ssl.endpoint.identification.algorithm')
  if (algorithm !== undefined && algorithm !== '' && algorithm.toLowerCase() !== 'https')
    throw config.error(
      'ssl.endpoint.identification.algorithm',
      `must be https (check the host name, the default) or empty (do not), got '${algorithm}'`
    )
  const options: CommandConfigTls = {
    ...(ca === undefined ? {} : { ca }),
    ...(identity ?? {}),
    ...(algorithm === '' ? { checkServerIdentity: () => undefined } : {})
  }
  try {
    createSecureContext({ ca: options.ca, cert: options.cert, key: options.key })
  } catch (error) {
    const key = identity === undefined ? 'ssl.truststore.location' : 'ssl.keystore.location'
    throw config.error(
      config.has(key) ? key : identity === undefined ? 'ssl.truststore.certificates' : 'ssl.keystore.key',
      `is refused by Node's TLS: ${(error as Error).message}`,
      error
    )
  }
  return options
}

async function trustedCertificates(config: ConfigEntries, cwd: string): Promise<string[] | undefined> {
  const type = storeType(config, 'ssl.truststore.type')
  const location = config.get('ssl.truststore.location')
  const password = config.get('ssl.truststore.password')
  const inline = config.get('ssl.truststore.certificates')
  let blocks: PemBlock[]
  if (inline !== undefined) {
    if (type !== 'PEM') throw config.error('ssl.truststore.certificates', 'needs ssl.truststore.type=PEM')
    if (location !== undefined) throw config.error('ssl.truststore.certificates', 'and ssl.truststore.location are both set; keep one')
    if (password !== undefined) throw config.error('ssl.truststore.password', 'cannot be given for a PEM trust store')
    blocks = pem(config, 'ssl.truststore.certificates', inline)
  } else if (location !== undefined) {
    const bytes = await readStore(config, 'ssl.truststore.location', location, cwd)
    const format = storeFormat(config, 'ssl.truststore.location', 'ssl.truststore.type', type, bytes)
    if (format === 'PEM') {
      if (password !== undefined) throw config.error('ssl.truststore.password', 'cannot be given for a PEM trust store')
      blocks = pem(config, 'ssl.truststore.location', bytes.toString('latin1'))
    } else
      blocks = pkcs12(config, 'ssl.truststore', bytes, password, undefined).certificates.map(c => ({ label: 'CERTIFICATE', der: c.der }))
  } else {
    if (password !== undefined) throw config.error('ssl.truststore.password', 'is set without ssl.truststore.location')
    if (type !== undefined)
      throw config.error('ssl.truststore.type', 'is set without ssl.truststore.location or ssl.truststore.certificates')
    return undefined
  }
  const certificates = blocks.filter(b => b.label === 'CERTIFICATE')
  const key = inline !== undefined ? 'ssl.truststore.certificates' : 'ssl.truststore.location'
  if (certificates.length === 0) throw config.error(key, 'holds no certificate')
  return certificates.map(c => certificatePem(config, key, c.der))
}

async function clientIdentity(config: ConfigEntries, cwd: string): Promise<{ cert: string; key: string } | undefined> {
  const type = storeType(config, 'ssl.keystore.type')
  const location = config.get('ssl.keystore.location')
  const password = config.get('ssl.keystore.password')
  const inlineKey = config.get('ssl.keystore.key')
  const inlineChain = config.get('ssl.keystore.certificate.chain')
  const keyPassword = config.get('ssl.key.password')
  const pemPassword = (): void => {
    if (password !== undefined)
      throw config.error('ssl.keystore.password', 'cannot be given for a PEM key store (only ssl.key.password, for an encrypted key)')
  }
  if (inlineKey !== undefined) {
    if (type !== 'PEM') throw config.error('ssl.keystore.key', 'needs ssl.keystore.type=PEM')
    if (inlineChain === undefined) throw config.error('ssl.keystore.key', 'is set without ssl.keystore.certificate.chain')
    if (location !== undefined) throw config.error('ssl.keystore.key', 'and ssl.keystore.location are both set; keep one')
    pemPassword()
    return pemIdentity(
      config,
      pem(config, 'ssl.keystore.key', inlineKey),
      pem(config, 'ssl.keystore.certificate.chain', inlineChain),
      'ssl.keystore.key',
      keyPassword
    )
  }
  if (inlineChain !== undefined) throw config.error('ssl.keystore.certificate.chain', 'is set without ssl.keystore.key')
  if (location === undefined) {
    for (const key of ['ssl.keystore.password', 'ssl.key.password', 'ssl.keystore.type'])
      if (config.has(key)) throw config.error(key, 'is set without a key store (ssl.keystore.location or ssl.keystore.key)')
    return undefined
  }
  const bytes = await readStore(config, 'ssl.keystore.location', location, cwd)
  if (storeFormat(config, 'ssl.keystore.location', 'ssl.keystore.type', type, bytes) === 'PEM') {
    pemPassword()
    const blocks = pem(config, 'ssl.keystore.location', bytes.toString('latin1'))
    return pemIdentity(config, blocks, blocks, 'ssl.keystore.location', keyPassword)
  }
  if (password === undefined) throw config.error('ssl.keystore.location', 'is a PKCS12 key store: ssl.keystore.password is needed')
  const store = pkcs12(config, 'ssl.keystore', bytes, password, keyPassword ?? password)
  if (store.keys.length !== 1)
    throw config.error('ssl.keystore.location', `holds ${store.keys.length} private keys; the client needs exactly one`)
  const [{ pkcs8, localKeyId }] = store.keys as [{ pkcs8: Buffer; localKeyId: Buffer | undefined }]
  const leafIndex =
    localKeyId === undefined ? 0 : store.certificates.findIndex(c => c.localKeyId !== undefined && c.localKeyId.equals(localKeyId))
  if (store.certificates.length === 0 || leafIndex < 0)
    throw config.error('ssl.keystore.location', 'holds no certificate for its private key')
  const chain = [store.certificates[leafIndex]!, ...store.certificates.filter((_, i) => i !== leafIndex)]
  return {
    cert: chain.map(c => certificatePem(config, 'ssl.keystore.location', c.der)).join(''),
    key: privateKeyPem(config, 'ssl.keystore.location', { key: pkcs8, format: 'der', type: 'pkcs8' })
  }
}

function pemIdentity(
  config: ConfigEntries,
  keyBlocks: readonly PemBlock[],
  certBlocks: readonly PemBlock[],
  key: string,
  keyPassword: string | undefined
): { cert: string; key: string } {
  const keys = keyBlocks.filter(b => PRIVATE_KEY_LABELS.has(b.label))
  if (keys.length !== 1) throw config.error(key, `holds ${keys.length} private keys; the client needs exactly one`)
  const certs = certBlocks.filter(b => b.label === 'CERTIFICATE')
  const chainKey = key === 'ssl.keystore.key' ? 'ssl.keystore.certificate.chain' : key
  if (certs.length === 0) throw config.error(chainKey, 'holds no certificate')
  const [block] = keys as [PemBlock]
  if (block.label === 'ENCRYPTED PRIVATE KEY' && keyPassword === undefined)
    throw config.error(key, 'holds an encrypted private key: ssl.key.password is needed')
  return {
    cert: certs.map(c => certificatePem(config, chainKey, c.der)).join(''),
    key: privateKeyPem(config, key, {
      key: toPem(block.label, block.der),
      format: 'pem',
      ...(keyPassword === undefined ? {} : { passphrase: keyPassword })
    })
  }
}

function privateKeyPem(config: ConfigEntries, key: string, input: Parameters<typeof createPrivateKey>[0]): string {
  try {
    return createPrivateKey(input).export({ type: 'pkcs8', format: 'pem' }) as string
  } catch (error) {
    const encrypted = typeof input === 'object' && 'passphrase' in input
    throw config.error(
      key,
      encrypted ? 'holds a private key that ssl.key.password does not decrypt' : 'holds a private key Node cannot read',
      error
    )
  }
}

function certificatePem(config: ConfigEntries, key: string, der: Buffer): string {
  try {
    return new X509Certificate(der).toString()
  } catch (error) {
    throw config.error(key, 'holds a certificate Node cannot read', error)
  }
}

function storeType(config: ConfigEntries, key: string): 'PEM' | 'PKCS12' | 'JKS' | undefined {
  const type = config.get(key)
  if (type === undefined) return undefined
  const upper = type.toUpperCase()
  if (upper === 'PEM' || upper === 'PKCS12' || upper === 'JKS') return upper
  throw config.error(key, `must be PEM or PKCS12, got '${type}'`)
}

/** The format of a store file: its type, or (Kafka's default type JKS, which Java also reads PKCS12 as) what the bytes are. */
function storeFormat(config: ConfigEntries, key: string, typeKey: string, type: string | undefined, bytes: Buffer): 'PEM' | 'PKCS12' {
  const jks = bytes.length >= 4 && bytes.readUInt32BE(0) === JKS_MAGIC
  if (type === 'JKS' || jks)
    throw config.error(
      key,
      'is a JKS store, which the CLI cannot read: convert it (keytool -importkeystore -deststoretype PKCS12) or export PEM files, and set the type'
    )
  const looksPem = bytes.includes('-----BEGIN ')
  if (type === 'PEM') {
    if (!looksPem) throw config.error(key, `is not a PEM file (${typeKey}=PEM)`)
    return 'PEM'
  }
  if (type === undefined && looksPem)
    throw config.error(key, `is a PEM file: set ${typeKey}=PEM (Kafka's default type, JKS, does not read PEM)`)
  if (bytes[0] !== 0x30) throw config.error(key, `is not a PKCS12 file${type === undefined ? ` (set ${typeKey})` : ''}`)
  return 'PKCS12'
}

function pkcs12(
  config: ConfigEntries,
  prefix: string,
  bytes: Buffer,
  password: string | undefined,
  keyPassword: string | undefined
): ReturnType<typeof readPkcs12> {
  try {
    return readPkcs12(bytes, password, keyPassword)
  } catch (error) {
    if (!(error instanceof Pkcs12Error)) throw error
    const key =
      /private key/.test(error.message) && keyPassword !== password
        ? 'ssl.key.password'
        : /password/.test(error.message)
          ? `${prefix}.password`
          : `${prefix}.location`
    throw config.error(key, `(PKCS12 ${prefix === 'ssl.keystore' ? 'key' : 'trust'} store): ${error.message}`, error)
  }
}

function pem(config: ConfigEntries, key: string, text: string): PemBlock[] {
  try {
    const blocks = pemBlocks(text)
    if (blocks.length === 0) throw new PemError('holds no PEM block (-----BEGIN ...-----)')
    return blocks
  } catch (error) {
    if (error instanceof PemError) throw config.error(key, error.message, error)
    throw error
  }
}

async function readStore(config: ConfigEntries, key: string, location: string, cwd: string): Promise<Buffer> {
  try {
    return await readFile(resolve(cwd, location))
  } catch (error) {
    throw config.error(key, `cannot be read: ${(error as Error).message}`, error)
  }
}
