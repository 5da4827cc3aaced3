/**
 * `@kstreams/core`: the public API. Internal parts for sibling packages are in ./internal.
 * @packageDocumentation
 */
export {
  StreamsError,
  TopologyError,
  SerializationError,
  ConfigError,
  IllegalStateError,
  InvalidStateStoreError,
  ProcessingError
} from './errors.js'
export type { StreamsErrorCode, StreamsErrorOptions } from './errors.js'
export { KeyValue } from './key-value.js'
export { Record, Headers } from './record.js'
export type { Header } from './record.js'
export { TaskId } from './task-id.js'
export { ManualClock, systemClock } from './clock.js'
export type { Clock } from './clock.js'

export { toSerializer, toDeserializer } from './serialization/serde.js'
export type { Serializer, Deserializer, Serde, SerializerLike, DeserializerLike } from './serialization/serde.js'
export { Serdes } from './serialization/serdes.js'
export { murmur2, partitionFor } from './partitioner/murmur2.js'

export { PunctuationType, AutoOffsetReset } from './processor/api.js'
export { ContextualProcessor } from './processor/contextual-processor.js'
export type {
  Processor,
  ProcessorSupplier,
  ProcessorContext,
  ProcessingContext,
  Punctuator,
  Cancellable,
  RecordMetadata,
  TimestampExtractor,
  ConsumerRecordInfo,
  TopicNameExtractor,
  RecordContext,
  StreamPartitioner,
  StreamPartitions,
  ByDurationOffsetReset
} from './processor/api.js'
export {
  failOnInvalidTimestamp,
  logAndSkipOnInvalidTimestamp,
  usePartitionTimeOnInvalidTimestamp,
  wallclockTimestampExtractor
} from './processor/timestamp-extractors.js'

export { Topology } from './topology/topology.js'
export type { SourceOptions, SinkOptions, GlobalStoreOptions, ReadOnlyStateStoreOptions } from './topology/topology.js'
export type {
  TopologyDescription,
  SubtopologyDescription,
  GlobalStoreDescription,
  NodeDescription,
  SourceNodeDescription,
  ProcessorNodeDescription,
  SinkNodeDescription
} from './topology/topology-description.js'
export { toMermaid } from './topology/topology-mermaid.js'
export type { MermaidOptions } from './topology/topology-mermaid.js'

export { resolveStreamsConfig } from './config/streams-config.js'
export type { StreamsConfig, ResolvedStreamsConfig, ProcessingGuarantee, TopologyOptimizationName } from './config/streams-config.js'
export { resolveClientConfigs, intAtLeast } from './config/client-configs.js'
export type {
  ClientConfigs,
  ClientConfigValue,
  ClientConfigCheck,
  ClientKind,
  AdapterClientConfigs,
  ClientPassThroughConfig,
  ResolvedClientConfigs,
  ConsumerClientConfig,
  ProducerClientConfig,
  ClientDefaults,
  PrefixedClientConfigs
} from './config/client-configs.js'
export type { OperabilityConfig } from './config/operability-configs.js'

export type { StateStore, StateStoreContext, StoreBuilder, ChangelogWriter, StateRestoreCallback } from './state/state-store.js'
export { ValueAndTimestamp } from './state/key-value-store.js'
export type {
  KeyValueStore,
  ReadOnlyKeyValueStore,
  KeyValueIterator,
  TimestampedKeyValueStore,
  KeyValueBytesStore,
  KeyValueBytesStoreSupplier
} from './state/key-value-store.js'
export { KeyValueStoreBuilder } from './state/key-value-store-builder.js'
export {
  PUT_RETURN_CODE_VALID_TO_UNDEFINED,
  PUT_RETURN_CODE_NOT_PUT,
  isVersionedBytesStoreSupplier,
  defaultVersionedSegmentInterval
} from './state/versioned-key-value-store.js'
export type {
  VersionedKeyValueStore,
  ReadOnlyVersionedKeyValueStore,
  VersionedBytesStore,
  VersionedBytesStoreSupplier
} from './state/versioned-key-value-store.js'
export { VersionedRecord } from './state/versioned-record.js'
export type { VersionedRecordIterator } from './state/versioned-record-iterator.js'
export { VersionedKeyValueStoreBuilder } from './state/versioned-key-value-store-builder.js'
export { SegmentedVersionedBytesStore, checkVersionedStoreArguments } from './state/segmented-versioned-bytes-store.js'
export type { SegmentedVersionedBytesStoreOptions } from './state/segmented-versioned-bytes-store.js'
export type { DslStoreSuppliers, DslKeyValueParams, DslWindowParams, DslSessionParams } from './state/dsl-store-suppliers.js'
export { TimestampedKeyValueStoreBuilder } from './state/timestamped-key-value-store-builder.js'
export { ValueAndTimestampSerde } from './state/value-and-timestamp-serde.js'
export { Window, TimeWindow, SessionWindow, Windowed } from './state/windowed.js'
export type {
  ReadOnlyWindowStore,
  WindowStore,
  TimestampedWindowStore,
  WindowStoreIterator,
  WindowBytesStore,
  WindowBytesStoreSupplier
} from './state/window-store.js'
export type { ReadOnlySessionStore, SessionStore, SessionBytesStore, SessionBytesStoreSupplier } from './state/session-store.js'
export { WindowStoreBuilder } from './state/window-store-builder.js'
export { TimestampedWindowStoreBuilder } from './state/timestamped-window-store-builder.js'
export { SessionStoreBuilder } from './state/session-store-builder.js'
export { WindowedSerdes } from './serialization/windowed-serdes.js'

export { KafkaStreams } from './runtime/kafka-streams.js'
export type { StreamsApp } from './runtime/workers/streams-app.js'
export { KafkaStreamsState } from './runtime/kafka-streams-state.js'
export type {
  StateListener,
  StreamThreadExceptionResponse,
  StreamsUncaughtExceptionHandler,
  KafkaStreamsOptions,
  CloseOptions
} from './runtime/kafka-streams.js'
export type { StateRestoreListener } from './runtime/state-restore-listener.js'
export type { StandbyUpdateListener, StandbySuspendReason } from './runtime/standby-update-listener.js'
// The wire-level Kafka ports a client adapter implements (@kstreams/kafkajs, the in-memory Kafka of @kstreams/testing).
export type {
  KafkaClient,
  KafkaClientFactory,
  KafkaClientSettings,
  TopicPartition,
  TopicPartitionOffset,
  FetchedRecord,
  FetchedBatch,
  RecordDecoder,
  IsolationLevel,
  PartitionError,
  JoinGroupRequest,
  JoinGroupResponse,
  JoinedMember,
  SyncGroupRequest,
  GroupGeneration,
  CommittedOffset,
  GroupCoordinatorPort,
  FetchRequest,
  FetchPort,
  ProducedRecord,
  SendResult,
  ProducerPort,
  NewTopic,
  AdminPort,
  TopicPartitionTimestamp,
  GroupDescription,
  GroupMemberDescription
} from './runtime/kafka/ports.js'
export { tpKey, isPartitionError, decodedRecords } from './runtime/kafka/ports.js'
export { SerialExecutor, groupByTopic, commitOffsetsFromOutside, removeMembers } from './runtime/kafka/adapter-helpers.js'
export { KafkaRequestError, KAFKA_ERRORS, kafkaErrorName, isKafkaError } from './runtime/kafka/kafka-request-error.js'
export type { KafkaErrorName } from './runtime/kafka/kafka-request-error.js'
export { RecordBatchDecodeError, compressionCodecName } from './runtime/kafka/record-batch-decode-error.js'
export type { RecordBatchDecodeErrorOptions } from './runtime/kafka/record-batch-decode-error.js'
export {
  errorChain,
  saslAuthenticationError,
  sslAuthenticationError,
  tlsFailureOf,
  notAuthorizedReason,
  isAclApi,
  isSecurityError
} from './runtime/kafka/security-errors.js'
export type { AclApi, AclRequest, AclOperation, TlsFailure } from './runtime/kafka/security-errors.js'
export { authenticateOAuthBearer, oauthBearerClientMessage, oauthBearerRefusal } from './runtime/kafka/oauth-bearer.js'
export { consoleLogger, silentLogger, childLogger } from './logger.js'
export type { Logger, LogFn } from './logger.js'
export type {
  ErrorHandlerContext,
  DeserializationExceptionHandler,
  ProcessingExceptionHandler,
  ProductionExceptionHandler,
  ExceptionHandlerAnswer,
  ConsumerRecord,
  ProductionErrorRecord
} from './config/streams-config.js'
export type {
  SslConfig,
  SaslConfig,
  SaslPasswordConfig,
  SaslOAuthBearerConfig,
  SaslMechanism,
  OAuthBearerToken,
  PemInput
} from './config/security-config.js'
export { checkSslConfig, checkSaslConfig } from './config/security-config.js'
export {
  ErrorHandlerResponse,
  buildDeadLetterQueueRecord,
  maybeBuildDeadLetterQueueRecords,
  HEADER_ERRORS_EXCEPTION_NAME,
  HEADER_ERRORS_STACKTRACE_NAME,
  HEADER_ERRORS_EXCEPTION_MESSAGE_NAME,
  HEADER_ERRORS_TOPIC_NAME,
  HEADER_ERRORS_PARTITION_NAME,
  HEADER_ERRORS_OFFSET_NAME
} from './config/exception-handler-utils.js'
export type { DeadLetterQueueRecord, ErrorHandlerResult } from './config/exception-handler-utils.js'
export type { MetricName, MetricSnapshot } from './metrics/metric-name.js'
export { metricKind } from './metrics/metric-name.js'
export type { RecordingLevel } from './metrics/recording-level.js'
export type { StreamsMetrics, StreamsSensor } from './metrics/streams-metrics.js'
export { QueryableStoreTypes } from './runtime/iq/queryable-store-types.js'
export type { QueryableStoreType } from './runtime/iq/queryable-store-types.js'
export type { StoreQueryParameters } from './runtime/iq/queryable-store-provider.js'
export { KEY_QUERY_METADATA_NOT_AVAILABLE, UNAVAILABLE_HOST } from './runtime/iq/streams-metadata-state.js'
export type { HostInfo, KeyQueryMetadata, StreamsMetadata } from './runtime/iq/streams-metadata-state.js'
export type { LagInfo } from './runtime/iq/local-store-lags.js'
export { InteractiveQueryServer } from './runtime/iq/interactive-query-server.js'
export type { TrustedPeers } from './runtime/iq/trusted-peers.js'
export { StateQueryRequest } from './runtime/iq/v2/state-query-request.js'
export { Position, PositionBound } from './runtime/iq/v2/position.js'
export type { InStore } from './runtime/iq/v2/state-query-request.js'
export { StateQueryResult } from './runtime/iq/v2/state-query-result.js'
export { QueryResult } from './runtime/iq/v2/query-result.js'
export { QueryConfig } from './runtime/iq/v2/query-config.js'
export type { FailureReason } from './runtime/iq/v2/query-result.js'
export { QUERY_RESULT } from './runtime/iq/v2/query.js'
export type { Query } from './runtime/iq/v2/query.js'
export { KeyQuery } from './runtime/iq/v2/key-query.js'
export { TimestampedKeyQuery } from './runtime/iq/v2/timestamped-key-query.js'
export { RangeQuery } from './runtime/iq/v2/range-query.js'
export type { ResultOrder } from './runtime/iq/v2/range-query.js'
export { TimestampedRangeQuery } from './runtime/iq/v2/timestamped-range-query.js'
export { WindowKeyQuery } from './runtime/iq/v2/window-key-query.js'
export { WindowRangeQuery } from './runtime/iq/v2/window-range-query.js'
export { VersionedKeyQuery } from './runtime/iq/v2/versioned-key-query.js'
export { MultiVersionedKeyQuery } from './runtime/iq/v2/multi-versioned-key-query.js'
export type { InteractiveQueryServerOptions, QueryableStreams } from './runtime/iq/interactive-query-server.js'
export type { RestoreProgress, StandbyProgress } from './runtime/changelog-reader.js'
export type { ThreadMetadata, TaskMetadata } from './runtime/thread-metadata.js'
