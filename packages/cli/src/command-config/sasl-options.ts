/**
 * `sasl.mechanism`, `sasl.jaas.config` and the OAUTHBEARER login keys of a Kafka client config as
 * the adapters' `sasl` setting: `{ mechanism, username, password }` for PLAIN and SCRAM (from the
 * PlainLoginModule or ScramLoginModule options) and `{ mechanism: 'oauthbearer',
 * oauthBearerProvider }` for OAUTHBEARER, with the tokens Kafka's Java login would get: unsecured
 * tokens from the `unsecuredLogin*` options (Kafka's default login callback handler), or with
 * `sasl.login.callback.handler.class` set to Kafka's OAuthBearerLoginCallbackHandler, access
 * tokens from `sasl.oauthbearer.token.endpoint.url` (client credentials, or a token file). GSSAPI,
 * AWS_MSK_IAM and other Java classes cannot run here: refused, saying what is supported. @internal
 */
import type { ConfigEntries } from './config-entries.js'
import { JaasSyntaxError, parseJaasConfig, type JaasEntry } from './jaas-config.js'
import { ClientCredentialsTokens, unsecuredToken, type OAuthBearerToken } from './oauth-bearer-tokens.js'

/** SASL with a user name and password. */
export type PasswordSasl = {
  readonly mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'
  readonly username: string
  readonly password: string
}

/** SASL OAUTHBEARER with a token provider, called for each authentication. */
export type OAuthBearerSasl = {
  readonly mechanism: 'oauthbearer'
  readonly oauthBearerProvider: () => Promise<OAuthBearerToken>
}

/** The `sasl` setting of a command config. */
export type CommandConfigSasl = PasswordSasl | OAuthBearerSasl

const MECHANISMS = {
  PLAIN: { name: 'plain', module: 'org.apache.kafka.common.security.plain.PlainLoginModule' },
  'SCRAM-SHA-256': { name: 'scram-sha-256', module: 'org.apache.kafka.common.security.scram.ScramLoginModule' },
  'SCRAM-SHA-512': { name: 'scram-sha-512', module: 'org.apache.kafka.common.security.scram.ScramLoginModule' },
  OAUTHBEARER: { name: 'oauthbearer', module: 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule' }
} as const
const SUPPORTED = Object.keys(MECHANISMS).join(', ')
const NOT_HERE: Readonly<Record<string, string>> = {
  GSSAPI: 'GSSAPI (Kerberos) is not supported by the Node Kafka clients',
  AWS_MSK_IAM: 'AWS_MSK_IAM needs the AWS IAM login, which the CLI does not have: use SCRAM-SHA-512 (MSK supports it)'
}
const LOGIN_HANDLERS = new Set([
  'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler',
  'org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler'
])
/** The keys only OAUTHBEARER logins read. */
export const OAUTHBEARER_KEYS = [
  'sasl.login.callback.handler.class',
  'sasl.oauthbearer.token.endpoint.url',
  'sasl.oauthbearer.header.urlencode',
  'sasl.login.connect.timeout.ms',
  'sasl.login.read.timeout.ms'
]
const SASL_EXTENSION_NAME = /^[A-Za-z]+$/

/** The SASL setting of `config` (called for SASL_PLAINTEXT and SASL_SSL), and the names of the SASL extensions it sends. */
export function saslOptions(config: ConfigEntries, now: () => number = Date.now): { sasl: CommandConfigSasl; extensions: string[] } {
  const given = config.get('sasl.mechanism')
  if (given === undefined || given === '')
    throw config.error(
      'sasl.mechanism',
      `is required with a SASL security.protocol (Java's default, GSSAPI, is not supported): one of ${SUPPORTED}`
    )
  const upper = given.toUpperCase()
  const notHere = NOT_HERE[upper]
  if (notHere !== undefined) throw config.error('sasl.mechanism', `${upper}: ${notHere}; supported: ${SUPPORTED}`)
  if (!(upper in MECHANISMS)) throw config.error('sasl.mechanism', `must be one of ${SUPPORTED}, got '${given}'`)
  const mechanism = MECHANISMS[upper as keyof typeof MECHANISMS]
  const jaasText = config.get('sasl.jaas.config')
  if (jaasText === undefined || jaasText === '')
    throw config.error('sasl.jaas.config', `is required (the CLI reads no JAAS file): ${mechanism.module} required ...;`)
  let jaas: JaasEntry
  try {
    jaas = parseJaasConfig(jaasText)
  } catch (error) {
    if (error instanceof JaasSyntaxError) throw config.error('sasl.jaas.config', `does not parse: ${error.message}`, error)
    throw error
  }
  if (jaas.loginModule !== mechanism.module)
    throw config.error('sasl.jaas.config', `names login module ${jaas.loginModule}, but sasl.mechanism ${upper} needs ${mechanism.module}`)
  if (mechanism.name !== 'oauthbearer') {
    for (const key of OAUTHBEARER_KEYS) if (config.has(key)) throw config.error(key, `is for OAUTHBEARER, but sasl.mechanism is ${upper}`)
    return { sasl: passwordSasl(config, mechanism.name, jaas), extensions: [] }
  }
  return oauthBearerSasl(config, jaas, now)
}

function passwordSasl(config: ConfigEntries, mechanism: PasswordSasl['mechanism'], jaas: JaasEntry): PasswordSasl {
  for (const [option, value] of jaas.options) {
    if (option === 'username' || option === 'password') continue
    if (option === 'tokenauth' && value.toLowerCase() === 'false') continue
    if (option === 'tokenauth')
      throw config.error('sasl.jaas.config', 'option tokenauth (delegation tokens) is not supported: the clients send no SCRAM extensions')
    throw config.error('sasl.jaas.config', `has option ${option}, which ${jaas.loginModule} does not take (it takes username and password)`)
  }
  const username = jaas.options.get('username')
  const password = jaas.options.get('password')
  if (username === undefined || username === '') throw config.error('sasl.jaas.config', 'has no username option')
  if (password === undefined) throw config.error('sasl.jaas.config', 'has no password option')
  return { mechanism, username, password }
}

function oauthBearerSasl(config: ConfigEntries, jaas: JaasEntry, now: () => number): { sasl: OAuthBearerSasl; extensions: string[] } {
  const handler = config.get('sasl.login.callback.handler.class')
  const endpoint = config.get('sasl.oauthbearer.token.endpoint.url')
  const extensions: Record<string, string> = {}
  const extension = (option: string, prefix: string, value: string): void => {
    const name = option.slice(prefix.length)
    if (!SASL_EXTENSION_NAME.test(name) || name === 'auth')
      throw config.error('sasl.jaas.config', `option ${option}: a SASL extension name is letters only, and not auth`)
    extensions[name] = value
  }
  let token: () => Promise<string>
  if (handler === undefined) {
    if (endpoint !== undefined)
      throw config.error('sasl.oauthbearer.token.endpoint.url', `needs sasl.login.callback.handler.class=${[...LOGIN_HANDLERS][0]}`)
    for (const key of ['sasl.oauthbearer.header.urlencode', 'sasl.login.connect.timeout.ms', 'sasl.login.read.timeout.ms'])
      if (config.has(key))
        throw config.error(key, `is for the token endpoint login (sasl.login.callback.handler.class=${[...LOGIN_HANDLERS][0]})`)
    for (const [option, value] of jaas.options) {
      if (option.startsWith('unsecuredLoginExtension_')) extension(option, 'unsecuredLoginExtension_', value)
      else if (!/^unsecuredLogin((String|Number|List)Claim_.+|PrincipalClaimName|LifetimeSeconds|ScopeClaimName)$/.test(option))
        throw config.error(
          'sasl.jaas.config',
          `has option ${option}: without sasl.login.callback.handler.class, OAUTHBEARER makes unsecured tokens from the unsecuredLogin* options (for a token endpoint, set sasl.login.callback.handler.class=${[...LOGIN_HANDLERS][0]})`
        )
      else if (/^unsecuredLogin(String|Number|List)Claim_(iat|exp)$/.test(option))
        throw config.error('sasl.jaas.config', `option ${option}: iat and exp are set by the login`)
      else if (option.startsWith('unsecuredLoginNumberClaim_') && !Number.isFinite(Number(value)))
        throw config.error('sasl.jaas.config', `option ${option} must be a number`)
    }
    const lifetime = jaas.options.get('unsecuredLoginLifetimeSeconds')
    if (lifetime !== undefined && !/^\d+$/.test(lifetime))
      throw config.error('sasl.jaas.config', 'option unsecuredLoginLifetimeSeconds must be a whole number of seconds')
    const principal = jaas.options.get('unsecuredLoginPrincipalClaimName')?.trim() || 'sub'
    if ((jaas.options.get(`unsecuredLoginStringClaim_${principal}`) ?? '').trim() === '')
      throw config.error('sasl.jaas.config', `needs option unsecuredLoginStringClaim_${principal} (the principal of the unsecured token)`)
    token = async () => unsecuredToken(jaas.options, now())
  } else {
    if (!LOGIN_HANDLERS.has(handler))
      throw config.error(
        'sasl.login.callback.handler.class',
        `${handler} is a Java class the CLI cannot run: supported are ${[...LOGIN_HANDLERS][0]} (a token endpoint) or none (unsecured tokens)`
      )
    const url = config.require('sasl.oauthbearer.token.endpoint.url', `with sasl.login.callback.handler.class=${handler}`)
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch (error) {
      throw config.error('sasl.oauthbearer.token.endpoint.url', 'is not a URL', error)
    }
    if (!['http:', 'https:', 'file:'].includes(parsed.protocol))
      throw config.error('sasl.oauthbearer.token.endpoint.url', `must be an http, https or file URL, got ${parsed.protocol}`)
    for (const [option, value] of jaas.options) {
      if (option.startsWith('extension_')) extension(option, 'extension_', value)
      else if (option !== 'clientId' && option !== 'clientSecret' && option !== 'scope')
        throw config.error(
          'sasl.jaas.config',
          `has option ${option}, which the token endpoint login does not take (it takes clientId, clientSecret, scope, extension_<name>)`
        )
    }
    const clientId = jaas.options.get('clientId')
    const clientSecret = jaas.options.get('clientSecret')
    if (parsed.protocol !== 'file:' && (clientId === undefined || clientSecret === undefined))
      throw config.error('sasl.jaas.config', 'needs options clientId and clientSecret for the token endpoint')
    const urlencode = config.get('sasl.oauthbearer.header.urlencode')
    if (urlencode !== undefined && !/^(true|false)$/i.test(urlencode))
      throw config.error('sasl.oauthbearer.header.urlencode', `must be true or false, got '${urlencode}'`)
    const timeoutMs =
      (config.positiveInteger('sasl.login.connect.timeout.ms') ?? 10_000) + (config.positiveInteger('sasl.login.read.timeout.ms') ?? 10_000)
    const scope = jaas.options.get('scope')
    const tokens = new ClientCredentialsTokens(
      {
        endpoint: parsed,
        ...(clientId === undefined ? {} : { clientId }),
        ...(clientSecret === undefined ? {} : { clientSecret }),
        ...(scope === undefined ? {} : { scope }),
        urlencodeHeader: urlencode?.toLowerCase() === 'true',
        timeoutMs
      },
      now
    )
    token = async () => await tokens.token()
  }
  const names = Object.keys(extensions)
  const oauthBearerProvider = async (): Promise<OAuthBearerToken> => ({
    value: await token(),
    ...(names.length === 0 ? {} : { extensions })
  })
  return { sasl: { mechanism: 'oauthbearer', oauthBearerProvider }, extensions: names }
}
