/**
 * @kstreams/kafka-local: a real Apache Kafka cluster (KRaft, 1 to 9 nodes on 127.0.0.1) run from
 * Maven Central jars with `java -cp`, no Docker. Needs Java 17+ and, on the first run per Kafka
 * version, Maven with access to Maven Central (see README.md). `KafkaTestCluster` is the one for
 * tests; `LocalKafkaCluster` is the layer under it, whose state lives in its run directory so that
 * another process can attach to it (the repository's `npm run kafka` CLI). Either can secure its
 * client listener (`security`: TLS, mTLS, SASL PLAIN/SCRAM/OAUTHBEARER, ACLs); `ClusterSecurity`
 * then gives the credentials in the shapes kafkajs and kstreams take.
 */
export { KafkaTestCluster } from './kafka-test-cluster.js'
export type { KafkaTestClusterOptions } from './kafka-test-cluster.js'
export { LocalKafkaCluster } from './local-kafka-cluster.js'
export type { BrokerStatus, LocalKafkaClusterOptions, StopOptions } from './local-kafka-cluster.js'
export { ClusterSecurity } from './cluster-security.js'
export type {
  ClientIdentity,
  ClientSecurityOptions,
  OAuthBearerSasl,
  OAuthBearerToken,
  PasswordSasl,
  SaslClientOptions,
  TlsClientOptions
} from './cluster-security.js'
export type { SaslMechanism, SecurityOptions, SecurityProtocol } from './security-options.js'
export type { SecurityFiles } from './security-config.js'
export type { AclGrant, AclOperation } from './acl-grants.js'
export type { CertificateRequest, PemCredentials } from './certificates.js'
export { unsecuredJwt } from './unsecured-jwt.js'
export type { UnsecuredJwtOptions } from './unsecured-jwt.js'
export type { BrokerConfigOptions, BrokerNode, BrokerProperties } from './broker-config.js'
export type { BrokerLaunchOptions } from './broker-process.js'
export type { BrokerLogLevel } from './logging-config.js'
export { KafkaDistribution, defaultCacheDir, defaultJavaCommand } from './kafka-distribution.js'
export type { ClassArchiveKind, KafkaDistributionOptions } from './kafka-distribution.js'
export { DEFAULT_KAFKA_VERSION, FALLBACK_KAFKA_VERSION, resolveKafkaVersion } from './kafka-version.js'
export type { KafkaVersion } from './kafka-version.js'
export { brokerPom } from './maven-pom.js'
export { buildJavaProgram } from './java-program.js'
export type { JavaProgram, JavaProgramOptions } from './java-program.js'
export { BOOTSTRAP_FILE } from './cluster-state.js'
export { KafkaLocalError } from './kafka-local-error.js'
export type { KafkaLocalErrorCode } from './kafka-local-error.js'
