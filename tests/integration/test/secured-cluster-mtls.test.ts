/**
 * kstreams on a cluster whose SSL listener requires a client certificate (mTLS), the principal
 * being the certificate's CN, with StandardAuthorizer ACLs; on the suite's client
 * (KSTREAMS_TEST_CLIENT). The WordCount (RocksDB) reaches RUNNING and exact counts with a client
 * certificate, its private key in no log line; a client without a certificate fails with
 * SSL_AUTHENTICATION_FAILED naming the broker and the TLS alert, and the client goes to ERROR.
 */
import { expect } from 'chai'
import { expectedCounts, grantWordCount, logText, securedCluster, SuperUser, WordCountRun, wordCountNames } from './secured-cluster.js'

const LINES = ['mutual tls for kafka', 'tls certificates everywhere', 'kafka kafka']

describe('Secured cluster: SSL with client certificates (mTLS) and ACLs', function () {
  this.timeout(120000)
  const cluster = securedCluster({ security: { protocol: 'ssl', mtls: true, authorizer: true } })

  it('WordCount (RocksDB) with a client certificate: RUNNING, exact counts, the private key in no log line', async () => {
    const security = cluster().security!
    const names = wordCountNames('mtls')
    const admin = new SuperUser(cluster())
    await admin.createTopics(Object.values(names.topics))
    await admin.produce(names.topics.input, LINES)
    const erin = security.issueClientCertificate('erin')
    await grantWordCount(security, 'erin', names)
    const run = await WordCountRun.start(cluster(), names, { ssl: { ca: security.caPem, cert: erin.cert, key: erin.key } })
    const expected = expectedCounts(LINES)
    try {
      await run.waitFor('RUNNING', 60000)
      const counts = await admin.lastCounts(names.topics.output, c => [...expected].every(([w, n]) => c.get(w) === n), 60000)
      expect(Object.fromEntries(counts)).to.deep.equal(Object.fromEntries(expected))
    } finally {
      await run.close()
    }
    expect(run.errors).to.deep.equal([])
    const keyBody = erin.key.split('\n').find(line => line.length > 40)!
    expect(logText(run.lines)).not.to.include(keyBody)
  })

  it('no client certificate: SSL_AUTHENTICATION_FAILED naming the broker and the TLS alert; ERROR', async () => {
    const security = cluster().security!
    const run = await WordCountRun.untilError(cluster(), wordCountNames('no-cert'), { ssl: { ca: security.caPem } })
    const error = run.threadError()
    expect(error.code).to.equal('KAFKA')
    expect(error.errorName).to.equal('SSL_AUTHENTICATION_FAILED')
    expect(error.message).to.include(`TLS handshake with broker ${cluster().bootstrapServers} failed:`)
    expect(error.message).to.match(/alert bad certificate|alert certificate required/)
    expect(error.message).to.include("the broker refused the client's certificate")
  })
})
