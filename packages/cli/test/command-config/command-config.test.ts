/**
 * A command config (a Kafka tools' client properties file) mapped onto the adapters' client
 * settings: security.protocol, sasl.mechanism with sasl.jaas.config per mechanism (OAUTHBEARER's
 * unsecured tokens, and client-credentials tokens from a real local token endpoint), client.id,
 * the timeouts, bootstrap.servers; every other key a warning or an error naming it; no secret in
 * any message. The ssl.* keys have their own file (tls-options.test.ts).
 */
import { expect } from 'chai'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { commandConfig, loadCommandConfig, type CommandConfig } from '../../src/command-config/command-config.js'
import { CommandConfigError } from '../../src/command-config/command-config-error.js'
import { ConfigEntries } from '../../src/command-config/config-entries.js'
import { parseJavaProperties } from '../../src/command-config/java-properties.js'

const PLAIN = 'org.apache.kafka.common.security.plain.PlainLoginModule'
const SCRAM = 'org.apache.kafka.common.security.scram.ScramLoginModule'
const OAUTH = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule'
const OAUTH_HANDLER = 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler'
const NOW = Date.UTC(2026, 0, 1)

const load = async (text: string, now: () => number = () => NOW): Promise<CommandConfig> =>
  await commandConfig(new ConfigEntries('client.properties', parseJavaProperties(text, 'client.properties')), tmpdir(), now)
const refused = async (text: string): Promise<CommandConfigError> => {
  try {
    await load(text)
  } catch (error) {
    expect(error).to.be.instanceOf(CommandConfigError)
    expect((error as CommandConfigError).exitCode).to.equal(2)
    return error as CommandConfigError
  }
  throw new Error('expected a CommandConfigError')
}
const sasl = (mechanism: string, jaas: string, extra = ''): string =>
  `security.protocol=SASL_SSL\nsasl.mechanism=${mechanism}\nsasl.jaas.config=${jaas}\n${extra}`
const claimsOf = (token: string): Record<string, unknown> => {
  const [header, claims, signature] = token.split('.')
  expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).to.deep.equal({ alg: 'none' })
  expect(signature).to.equal('')
  return JSON.parse(Buffer.from(claims!, 'base64url').toString()) as Record<string, unknown>
}

describe("command config (Kafka client properties) as the adapters' client settings", () => {
  it('PLAINTEXT, the default: no ssl, no sasl', async () => {
    for (const text of ['', 'security.protocol=PLAINTEXT\n', 'security.protocol = plaintext\n'])
      expect(await load(text)).to.deep.include({ ssl: undefined, sasl: undefined, warnings: [] })
  })

  it('SSL: TLS without SASL; SASL_PLAINTEXT: SASL without TLS; SASL_SSL: both', async () => {
    const jaas = `${SCRAM} required username="alice" password="alice-secret";`
    expect(await load('security.protocol=SSL\n')).to.deep.include({ ssl: {}, sasl: undefined })
    const plaintext = await load(`security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\nsasl.jaas.config=${jaas}\n`)
    expect(plaintext.ssl).to.equal(undefined)
    expect(plaintext.sasl).to.deep.equal({ mechanism: 'scram-sha-256', username: 'alice', password: 'alice-secret' })
    expect((await load(sasl('SCRAM-SHA-512', jaas))).ssl).to.deep.equal({})
  })

  it('refuses an unknown security.protocol', async () => {
    expect((await refused('security.protocol=TLS\n')).message).to.equal(
      "client.properties: security.protocol (line 1) must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL, got 'TLS'"
    )
  })

  it('PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512: { mechanism (lower case), username, password } from the login module options', async () => {
    expect((await load(sasl('PLAIN', `${PLAIN} required username='KEY' password='SECRET';`))).sasl).to.deep.equal({
      mechanism: 'plain',
      username: 'KEY',
      password: 'SECRET'
    })
    for (const mechanism of ['SCRAM-SHA-256', 'SCRAM-SHA-512']) {
      // A JAAS escape inside a properties value: the properties file doubles its backslash (p\\"w reads as JAAS p\"w, the password p"w).
      const config = await load(sasl(mechanism, `${SCRAM} required username="alice" password="p\\\\"w" tokenauth=false;`))
      expect(config.sasl).to.deep.equal({ mechanism: mechanism.toLowerCase(), username: 'alice', password: 'p"w' })
    }
  })

  it('reads the JAAS config over continuation lines, as Kafka docs write it', async () => {
    const text = `security.protocol=SASL_SSL\nsasl.mechanism=SCRAM-SHA-512\nsasl.jaas.config=${SCRAM} required \\\n  username="alice" \\\n  password="alice-secret";\n`
    expect((await load(text)).sasl).to.deep.equal({ mechanism: 'scram-sha-512', username: 'alice', password: 'alice-secret' })
  })

  describe('refuses SASL settings it cannot honour, naming the key and never a secret', () => {
    const cases: Array<[string, string, string]> = [
      [
        'no sasl.mechanism (Java: GSSAPI)',
        `security.protocol=SASL_SSL\nsasl.jaas.config=${SCRAM} required username="u" password="hunter2";`,
        "sasl.mechanism is required with a SASL security.protocol (Java's default, GSSAPI, is not supported): one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER"
      ],
      [
        'GSSAPI',
        sasl('GSSAPI', 'com.sun.security.auth.module.Krb5LoginModule required;'),
        'sasl.mechanism (line 2) GSSAPI: GSSAPI (Kerberos) is not supported by the Node Kafka clients; supported: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER'
      ],
      [
        'AWS_MSK_IAM',
        sasl('AWS_MSK_IAM', 'software.amazon.msk.auth.iam.IAMLoginModule required;'),
        'sasl.mechanism (line 2) AWS_MSK_IAM: AWS_MSK_IAM needs the AWS IAM login, which the CLI does not have: use SCRAM-SHA-512 (MSK supports it)'
      ],
      [
        'an unknown mechanism',
        sasl('DIGEST-MD5', `${SCRAM} required;`),
        "sasl.mechanism (line 2) must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER, got 'DIGEST-MD5'"
      ],
      [
        'no sasl.jaas.config',
        'security.protocol=SASL_SSL\nsasl.mechanism=PLAIN',
        `sasl.jaas.config is required (the CLI reads no JAAS file): ${PLAIN} required ...;`
      ],
      [
        'a JAAS syntax error',
        sasl('PLAIN', `${PLAIN} required username="u" password="hunter2"`),
        'sasl.jaas.config (line 3) does not parse: the login module is not ended by a semicolon (at character'
      ],
      [
        'the login module of another mechanism',
        sasl('SCRAM-SHA-512', `${PLAIN} required username="u" password="hunter2";`),
        `sasl.jaas.config (line 3) names login module ${PLAIN}, but sasl.mechanism SCRAM-SHA-512 needs ${SCRAM}`
      ],
      ['no username', sasl('PLAIN', `${PLAIN} required password="hunter2";`), 'sasl.jaas.config (line 3) has no username option'],
      ['no password', sasl('SCRAM-SHA-256', `${SCRAM} required username="u";`), 'sasl.jaas.config (line 3) has no password option'],
      [
        'a misspelt option',
        sasl('PLAIN', `${PLAIN} required usename="u" password="hunter2";`),
        `sasl.jaas.config (line 3) has option usename, which ${PLAIN} does not take (it takes username and password)`
      ],
      [
        'SCRAM delegation tokens',
        sasl('SCRAM-SHA-256', `${SCRAM} required username="u" password="hunter2" tokenauth="true";`),
        'sasl.jaas.config (line 3) option tokenauth (delegation tokens) is not supported'
      ],
      [
        'sasl.* without SASL',
        `security.protocol=SSL\nsasl.mechanism=PLAIN`,
        'sasl.mechanism (line 2) is set, but security.protocol SSL has no SASL (SASL_PLAINTEXT or SASL_SSL)'
      ],
      [
        'ssl.* without TLS',
        `security.protocol=SASL_PLAINTEXT\nssl.truststore.location=/ca.pem`,
        'ssl.truststore.location (line 2) is set, but security.protocol SASL_PLAINTEXT has no TLS (SSL or SASL_SSL)'
      ],
      [
        'an OAUTHBEARER key with SCRAM',
        sasl(
          'SCRAM-SHA-512',
          `${SCRAM} required username="u" password="hunter2";`,
          'sasl.oauthbearer.token.endpoint.url=https://idp/token'
        ),
        'sasl.oauthbearer.token.endpoint.url (line 4) is for OAUTHBEARER, but sasl.mechanism is SCRAM-SHA-512'
      ]
    ]
    for (const [what, text, message] of cases) {
      it(what, async () => {
        const error = await refused(`${text}\n`)
        expect(error.message).to.include(`client.properties: ${message}`)
        expect(error.message).not.to.include('hunter2')
      })
    }
  })

  describe('OAUTHBEARER', () => {
    it("without a login callback handler: the unsecured tokens of Kafka's default login (unsecuredLogin* options), made per call", async () => {
      let now = NOW
      const config = await load(
        sasl(
          'OAUTHBEARER',
          `${OAUTH} required unsecuredLoginStringClaim_sub="alice" unsecuredLoginNumberClaim_level="3" unsecuredLoginListClaim_scope=",read,write" unsecuredLoginLifetimeSeconds="600";`
        ),
        () => now
      )
      expect(config.sasl?.mechanism).to.equal('oauthbearer')
      const provider = (config.sasl as { oauthBearerProvider: () => Promise<{ value: string; extensions?: unknown }> }).oauthBearerProvider
      const first = await provider()
      expect(first).to.have.keys(['value'])
      expect(claimsOf(first.value)).to.deep.equal({
        sub: 'alice',
        level: 3,
        scope: ['read', 'write'],
        iat: NOW / 1000,
        exp: NOW / 1000 + 600
      })
      now += 5_000
      expect(claimsOf((await provider()).value).iat).to.equal((NOW + 5_000) / 1000)
    })

    it('unsecured: a principal claim name of its own, and SASL extensions (unsecuredLoginExtension_<name>)', async () => {
      const config = await load(
        sasl(
          'OAUTHBEARER',
          `${OAUTH} required unsecuredLoginPrincipalClaimName="client_id" unsecuredLoginStringClaim_client_id="svc" unsecuredLoginExtension_logicalCluster="lkc-1";`
        )
      )
      expect(config.saslExtensions).to.deep.equal(['logicalCluster'])
      const token = await (
        config.sasl as { oauthBearerProvider: () => Promise<{ value: string; extensions?: unknown }> }
      ).oauthBearerProvider()
      expect(claimsOf(token.value)).to.include({ client_id: 'svc' })
      expect(token.extensions).to.deep.equal({ logicalCluster: 'lkc-1' })
    })

    it('unsecured: refuses a missing principal, reserved claims, a bad number, a token endpoint without the handler, other options', async () => {
      const cases: Array<[string, string]> = [
        [`${OAUTH} required;`, 'needs option unsecuredLoginStringClaim_sub (the principal of the unsecured token)'],
        [
          `${OAUTH} required unsecuredLoginStringClaim_sub="a" unsecuredLoginNumberClaim_exp="1";`,
          'option unsecuredLoginNumberClaim_exp: iat and exp are set by the login'
        ],
        [
          `${OAUTH} required unsecuredLoginStringClaim_sub="a" unsecuredLoginNumberClaim_n="x";`,
          'option unsecuredLoginNumberClaim_n must be a number'
        ],
        [
          `${OAUTH} required unsecuredLoginStringClaim_sub="a" unsecuredLoginLifetimeSeconds="1h";`,
          'option unsecuredLoginLifetimeSeconds must be a whole number of seconds'
        ],
        [
          `${OAUTH} required unsecuredLoginStringClaim_sub="a" unsecuredLoginExtension_auth="x";`,
          'option unsecuredLoginExtension_auth: a SASL extension name is letters only, and not auth'
        ],
        [
          `${OAUTH} required clientId="id" clientSecret="hunter2";`,
          'has option clientId: without sasl.login.callback.handler.class, OAUTHBEARER makes unsecured tokens'
        ]
      ]
      for (const [jaas, message] of cases) {
        const error = await refused(sasl('OAUTHBEARER', jaas))
        expect(error.message).to.include(`client.properties: sasl.jaas.config (line 3) ${message}`)
        expect(error.message).not.to.include('hunter2')
      }
      const endpoint = await refused(
        sasl('OAUTHBEARER', `${OAUTH} required unsecuredLoginStringClaim_sub="a";`, 'sasl.oauthbearer.token.endpoint.url=https://idp/token')
      )
      expect(endpoint.message).to.equal(
        `client.properties: sasl.oauthbearer.token.endpoint.url (line 4) needs sasl.login.callback.handler.class=${OAUTH_HANDLER}`
      )
    })

    describe('with OAuthBearerLoginCallbackHandler: client-credentials tokens from sasl.oauthbearer.token.endpoint.url (KIP-768)', () => {
      let server: Server
      let url = ''
      const requests: Array<{ authorization: string | undefined; contentType: string | undefined; body: string }> = []
      let answer: { status: number; body: unknown } = { status: 200, body: {} }
      before(async () => {
        server = createServer((request: IncomingMessage, response) => {
          let body = ''
          request.on('data', chunk => (body += chunk))
          request.on('end', () => {
            requests.push({ authorization: request.headers.authorization, contentType: request.headers['content-type'], body })
            response.writeHead(answer.status, { 'content-type': 'application/json' })
            response.end(JSON.stringify(answer.body))
          })
        })
        await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
        url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth2/token`
      })
      after(() => new Promise<void>(resolve => server.close(() => resolve())))
      beforeEach(() => {
        requests.length = 0
      })
      const configFor = (jaas: string, extra = ''): string =>
        sasl(
          'OAUTHBEARER',
          jaas,
          `sasl.login.callback.handler.class=${OAUTH_HANDLER}\nsasl.oauthbearer.token.endpoint.url=${url}\n${extra}`
        )
      const provider = (config: CommandConfig) =>
        (config.sasl as { oauthBearerProvider: () => Promise<{ value: string; extensions?: Record<string, string> }> }).oauthBearerProvider

      it('POSTs grant_type=client_credentials and the scope with HTTP Basic client id and secret, and keeps the token for 80% of its lifetime', async () => {
        let now = NOW
        answer = { status: 200, body: { access_token: 'token-1', token_type: 'Bearer', expires_in: 100 } }
        const config = await load(
          configFor(
            `${OAUTH} required clientId="my-client" clientSecret="my:secret" scope="kafka read" extension_identityPoolId="pool-1";`
          ),
          () => now
        )
        const get = provider(config)
        expect(await get()).to.deep.equal({ value: 'token-1', extensions: { identityPoolId: 'pool-1' } })
        expect(requests).to.deep.equal([
          {
            authorization: `Basic ${Buffer.from('my-client:my:secret').toString('base64')}`,
            contentType: 'application/x-www-form-urlencoded',
            body: 'grant_type=client_credentials&scope=kafka+read'
          }
        ])
        answer = { status: 200, body: { access_token: 'token-2', expires_in: 100 } }
        now += 79_000
        expect((await get()).value).to.equal('token-1')
        now += 2_000
        expect((await get()).value).to.equal('token-2')
        expect(requests).to.have.length(2)
      })

      it('takes the lifetime from the JWT exp claim, and URL-encodes the Basic credentials with sasl.oauthbearer.header.urlencode=true', async () => {
        const jwt = `e30.${Buffer.from(JSON.stringify({ sub: 'svc', exp: NOW / 1000 + 10 })).toString('base64url')}.sig`
        answer = { status: 200, body: { access_token: jwt, expires_in: 3600 } }
        let now = NOW
        const get = provider(
          await load(
            configFor(`${OAUTH} required clientId="id" clientSecret="a b&c";`, 'sasl.oauthbearer.header.urlencode=true\n'),
            () => now
          )
        )
        expect((await get()).value).to.equal(jwt)
        expect(requests[0]!.authorization).to.equal(`Basic ${Buffer.from('id:a%20b%26c').toString('base64')}`)
        expect(requests[0]!.body).to.equal('grant_type=client_credentials')
        now += 9_000
        await get()
        expect(requests).to.have.length(2)
      })

      it("fails with the endpoint's OAuth error (status, error, description) and never the secret", async () => {
        answer = { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } }
        const get = provider(await load(configFor(`${OAUTH} required clientId="id" clientSecret="hunter2";`)))
        const error = await get().then(
          () => undefined,
          (e: Error) => e
        )
        expect(error?.message).to.equal(
          `the token endpoint ${new URL(url).origin}/oauth2/token answered HTTP 401: invalid_client: Client authentication failed`
        )
        answer = { status: 200, body: { token_type: 'Bearer' } }
        expect((await get().catch((e: Error) => e)) as Error)
          .to.have.property('message')
          .that.match(/answered without an access_token$/)
      })

      it('reads the token from a file: URL each time', async () => {
        const dir = await mkdtemp(join(tmpdir(), 'kstreams-token-'))
        try {
          const file = join(dir, 'token')
          await writeFile(file, 'file-token-1\n')
          const get = provider(
            await load(
              sasl(
                'OAUTHBEARER',
                `${OAUTH} required;`,
                `sasl.login.callback.handler.class=${OAUTH_HANDLER}\nsasl.oauthbearer.token.endpoint.url=${pathToFileURL(file).href}\n`
              )
            )
          )
          expect((await get()).value).to.equal('file-token-1')
          await writeFile(file, 'file-token-2')
          expect((await get()).value).to.equal('file-token-2')
        } finally {
          await rm(dir, { recursive: true, force: true })
        }
      })

      it('refuses another handler class, a missing or odd endpoint URL, missing client credentials, other options', async () => {
        const cases: Array<[string, string]> = [
          [
            sasl('OAUTHBEARER', `${OAUTH} required;`, 'sasl.login.callback.handler.class=com.example.MyHandler'),
            `sasl.login.callback.handler.class (line 4) com.example.MyHandler is a Java class the CLI cannot run: supported are ${OAUTH_HANDLER} (a token endpoint) or none (unsecured tokens)`
          ],
          [
            sasl('OAUTHBEARER', `${OAUTH} required;`, `sasl.login.callback.handler.class=${OAUTH_HANDLER}`),
            `sasl.oauthbearer.token.endpoint.url is required with sasl.login.callback.handler.class=${OAUTH_HANDLER}`
          ],
          [
            configFor(`${OAUTH} required clientId="id";`),
            'sasl.jaas.config (line 3) needs options clientId and clientSecret for the token endpoint'
          ],
          [
            configFor(`${OAUTH} required clientId="id" clientSecret="hunter2" audience="x";`),
            'sasl.jaas.config (line 3) has option audience, which the token endpoint login does not take'
          ],
          [
            sasl(
              'OAUTHBEARER',
              `${OAUTH} required;`,
              `sasl.login.callback.handler.class=${OAUTH_HANDLER}\nsasl.oauthbearer.token.endpoint.url=ftp://idp/token`
            ),
            'sasl.oauthbearer.token.endpoint.url (line 5) must be an http, https or file URL, got ftp:'
          ],
          [
            configFor(`${OAUTH} required clientId="id" clientSecret="hunter2";`, 'sasl.oauthbearer.header.urlencode=yes'),
            "sasl.oauthbearer.header.urlencode (line 6) must be true or false, got 'yes'"
          ]
        ]
        for (const [text, message] of cases) {
          const error = await refused(text)
          expect(error.message).to.include(`client.properties: ${message}`)
          expect(error.message).not.to.include('hunter2')
        }
      })
    })
  })

  it('client.id, request.timeout.ms, socket.connection.setup.timeout.ms and bootstrap.servers', async () => {
    const config = await load(
      'client.id=ops-tools\nrequest.timeout.ms=45000\nsocket.connection.setup.timeout.ms=5000\nbootstrap.servers=broker-1:9093,broker-2:9093\n'
    )
    expect(config).to.deep.include({
      clientId: 'ops-tools',
      requestTimeoutMs: 45_000,
      connectionTimeoutMs: 5_000,
      bootstrapServers: 'broker-1:9093,broker-2:9093'
    })
    expect((await refused('request.timeout.ms=30s\n')).message).to.equal(
      "client.properties: request.timeout.ms (line 1) must be a positive integer, got '30s'"
    )
  })

  it('warns about, and ignores, Java TLS engine, token refresh, client tuning and Schema Registry keys, naming the key and not the value', async () => {
    const config = await load(
      'security.protocol=SSL\nssl.enabled.protocols=TLSv1.3\nsasl.login.refresh.buffer.seconds=300\nsession.timeout.ms=45000\nclient.dns.lookup=use_all_dns_ips\nacks=all\nbasic.auth.user.info=KEY:hunter2\n'
    )
    expect(config.warnings).to.deep.equal([
      "client.properties: ignoring ssl.enabled.protocols: a setting of Java's TLS engine; Node's TLS defaults apply (TLS 1.2 or 1.3)",
      "client.properties: ignoring sasl.login.refresh.buffer.seconds: a setting of Java's token refresh or token checks; the CLI gets a token when it connects and the broker checks it",
      'client.properties: ignoring session.timeout.ms: a tuning setting of the Java clients, not used by the CLI',
      'client.properties: ignoring client.dns.lookup: a tuning setting of the Java clients, not used by the CLI',
      'client.properties: ignoring acks: a tuning setting of the Java clients, not used by the CLI',
      'client.properties: ignoring basic.auth.user.info: a Schema Registry setting; the CLI does not talk to a schema registry'
    ])
    expect(config.warnings.join('\n')).not.to.include('hunter2')
  })

  it('refuses any other key, naming it (with the Kafka name for a librdkafka one), before reading anything else', async () => {
    expect((await refused('security.protocol=SSL\nssl.truststore.locaton=/etc/ca.pem\n')).message).to.equal(
      'client.properties: ssl.truststore.locaton (line 2) is not a client setting the CLI knows (see the --command-config section of the README)'
    )
    const librdkafka = await refused('sasl.mechanisms=PLAIN\nsasl.password=hunter2\n')
    expect(librdkafka.message).to.equal("client.properties: sasl.mechanisms (line 1) librdkafka's name: Kafka's tools take sasl.mechanism")
    expect(librdkafka.key).to.equal('sasl.mechanisms')
    expect((await refused('sasl.client.callback.handler.class=com.example.Handler\n')).message).to.equal(
      'client.properties: sasl.client.callback.handler.class (line 1) a Java class, which the CLI cannot run'
    )
    expect((await refused('sasl.kerberos.service.name=kafka\n')).message).to.include(
      'sasl.kerberos.service.name (line 1) is a GSSAPI (Kerberos) setting'
    )
  })

  it('loadCommandConfig reads the file as ISO-8859-1 relative to the working directory, and names a file it cannot read', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kstreams-command-config-'))
    try {
      await writeFile(
        join(dir, 'client.properties'),
        `security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=${PLAIN} required username="u" password="p\\u00e4ss";\n`
      )
      const config = await loadCommandConfig('client.properties', dir)
      expect(config.sasl).to.deep.equal({ mechanism: 'plain', username: 'u', password: 'päss' })
      const missing = await loadCommandConfig('nowhere.properties', dir).catch((e: CommandConfigError) => e)
      expect(missing).to.be.instanceOf(CommandConfigError)
      expect((missing as Error).message).to.match(/^--command-config nowhere\.properties cannot be read: ENOENT/)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
