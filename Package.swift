// swift-tools-version:6.1
import PackageDescription

// Module layout follows ../shared/DESIGN.md: C interop (nghttp2, OpenSSL) stays inside
// `HTTP2Transport`, under the push providers (`APNs`, `FCM`), which never depend on each other;
// `APNsMock` and `FCMMock` are built on a different HTTP/2 stack (swift-nio-http2 + NIOSSL) on
// purpose, so the two check each other.
let package = Package(
    name: "PushRelay",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "push-relay", targets: ["push-relay"]),
        .executable(name: "apns-mock", targets: ["apns-mock"]),
        .executable(name: "fcm-mock", targets: ["fcm-mock"]),
        .executable(name: "hms-mock", targets: ["hms-mock"]),
        .executable(name: "webpush-mock", targets: ["webpush-mock"]),
        .library(name: "APNs", targets: ["APNs"]),
        .library(name: "APNsMock", targets: ["APNsMock"]),
        // For the per-stage suite in Benchmarks/Stages, a package of its own.
        .library(name: "PushCore", targets: ["PushCore"]),
        .library(name: "PushStore", targets: ["PushStore"]),
        .library(name: "StoreContract", targets: ["StoreContract"]),
        .library(name: "PushStorePostgres", targets: ["PushStorePostgres"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // NIOHTTPTypes: the HTTP parts Hummingbird's channel pipeline carries (the connection limiter watches them).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.34.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // Deque: a connection's queue of requests waiting for a stream (already in NIO's graph).
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        // HMS Push Kit's client: HTTP/2 when Huawei's server offers it over ALPN, else a pool of
        // HTTP/1.1 connections (Huawei documents HTTPS only).
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // The operator console's pages (`Sources/PushService/Console`): logic-less templates that escape every value.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CNGHTTP2",
            pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        // LZ4 for the stored payloads of one event, which repeat each other (`PackedPayloads`).
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"])]
        ),
        // The one rule for showing secrets and device tokens in logs, shared by the relay, the
        // APNs client and the mock (which otherwise share no code on purpose).
        .target(name: "LogRedaction"),
        // A UUID as lowercase text (apns-ids), written without Foundation's allocations; shared by the client and the stores.
        .target(name: "UUIDText"),
        // The seam between the dispatcher and each push provider: `PushSender`, what it is handed
        // and what it answers. Every provider module implements it; none depends on another.
        .target(name: "PushSending", dependencies: ["LogRedaction"]),
        // When a provider connection that stopped answering is closed: PINGs, their deadline, requests
        // in a row without an answer. Pure decisions, shared by the HTTP/2 transport and HMS's client.
        .target(name: "ConnectionLiveness"),
        // The HTTP/2 client under every push provider: TLS (OpenSSL, ALPN h2, client certificates), nghttp2
        // sessions, connection pools, deadlines, and the OpenSSL key reading and signing the providers' tokens
        // need. The only target that depends on CNGHTTP2 and COpenSSL.
        .target(
            name: "HTTP2Transport",
            dependencies: [
                "CNGHTTP2",
                "COpenSSL",
                "ConnectionLiveness",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // APNs: provider tokens, the request/response/reason model and the client, on the transport.
        .target(
            name: "APNs",
            dependencies: [
                "ConfigSupport",
                "ConnectionLiveness",
                "HTTP2Transport",
                "LogRedaction",
                "PooledHTTP",
                "ProviderDriver",
                "PushCore",
                "PushSending",
                "UUIDText",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(name: "PushCore"),
        // The configuration's building blocks every part reads its section with: YAML mappings key by key, secrets and
        // where they come from, durations, pool sizes, the errors that name a key.
        .target(name: "ConfigSupport", dependencies: ["LogRedaction", .product(name: "Yams", package: "Yams")]),
        // What a push provider's module implements to join the relay (`ProviderDriver`): its description, its
        // settings, the sender they build. The composition root lists the drivers once (`ProviderCatalog`).
        .target(
            name: "ProviderDriver",
            dependencies: [
                "ConfigSupport", "PushCore", "PushSending", .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ]),
        // FCM HTTP v1: service-account credentials, the error model and the client, on the transport.
        .target(
            name: "FCM",
            dependencies: [
                "ConfigSupport", "ConnectionLiveness", "HTTP2Transport", "LogRedaction", "ProviderDriver", "PushCore", "PushSending",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // AsyncHTTPClient as the providers on it use it (HMS): HTTP/2 or HTTP/1.1 as ALPN chooses, and
        // every HTTP/2 connection watched by `ConnectionLiveness` (AsyncHTTPClient has no PING of its own).
        .target(
            name: "PooledHTTP",
            dependencies: [
                "ConnectionLiveness",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Web Push (RFC 8030/8291/8292): subscriptions as tokens, VAPID, aes128gcm, the declarative message.
        .target(
            name: "WebPush",
            dependencies: [
                "ConfigSupport", "ConnectionLiveness", "PooledHTTP", "ProviderDriver", "PushCore", "PushSending",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]),
        // HMS Push Kit: OAuth client credentials, the data message, answer classification.
        .target(
            name: "HMS",
            dependencies: [
                "ConfigSupport",
                "ConnectionLiveness",
                "ProviderDriver",
                "PooledHTTP",
                "PushCore",
                "PushSending",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The store contract: the interfaces both stores implement, their records, and the rules both follow
        // (the recipient cache, credential watching, preference limits). No database.
        .target(name: "StoreContract", dependencies: ["PushCore", "UUIDText"]),
        // GRDB links the system libsqlite3 on Linux (its `GRDBSQLite` system module; libsqlite3-dev).
        .target(
            name: "PushStore",
            dependencies: [
                "StoreContract",
                "CLZ4",
                "LogRedaction",
                "PushCore",
                "UUIDText",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The same store on PostgreSQL: one database shared by a fleet of relays.
        .target(
            name: "PushStorePostgres",
            dependencies: [
                "StoreContract",
                "LogRedaction",
                "PushCore",
                "UUIDText",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The engine: the dispatcher and delivery (claims, sends through each app's routes, outcomes, retries), on the
        // store contract and the sender seam. No HTTP server and no provider: the service hands it routes.
        .target(
            name: "PushEngine",
            dependencies: [
                "StoreContract",
                "LogRedaction",
                "ProviderDriver",
                "PushCore",
                "PushSending",
                "UUIDText",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .target(
            name: "PushService",
            dependencies: [
                "StoreContract",
                "PushEngine",
                "APNs",
                "ConfigSupport",
                "ProviderDriver",
                "FCM",
                "HMS",
                "WebPush",
                "HTTP2Transport",
                "PushSending",
                "LogRedaction",
                "PushCore",
                "PushStore",
                "PushStorePostgres",
                "UUIDText",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                // HTTPParserError: a body that breaks HTTP's framing or ends early (AbortedRequest).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            // The one OpenAPI document, compiled in: served at /openapi.yaml. The console's templates and style sheet, compiled in too.
            resources: [
                .embedInCode("OpenAPI/push-relay.yaml"), .embedInCode("Console/Templates/head.mustache"),
                .embedInCode("Console/Templates/foot.mustache"), .embedInCode("Console/Templates/sign_in.mustache"),
                .embedInCode("Console/Templates/error.mustache"), .embedInCode("Console/Templates/overview.mustache"),
                .embedInCode("Console/Templates/why.mustache"), .embedInCode("Console/Templates/notifications.mustache"),
                .embedInCode("Console/Templates/user.mustache"),
                .embedInCode("Console/Templates/test_push.mustache"), .embedInCode("Console/Templates/console.css"),
            ]
        ),
        // What the mocks share: the listeners, TLS and HTTP/2 set-up, the admin API's plumbing and routing, waits
        // with deadlines, the record file, signals, base64url, the server's start-once lifecycle and the run loop.
        .target(
            name: "MockSupport",
            dependencies: [
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .target(
            name: "APNsMock",
            dependencies: [
                "LogRedaction",
                "MockSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "apns-mock",
            dependencies: [
                "APNsMock",
                "MockSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // FCM HTTP v1 and Google's OAuth token endpoint, on swift-nio like APNsMock (not the relay's
        // nghttp2 transport), so the relay's FCM client is checked against an independent stack.
        .target(
            name: "FCMMock",
            dependencies: [
                "LogRedaction",
                "MockSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "fcm-mock",
            dependencies: [
                "FCMMock",
                "MockSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // HMS Push Kit and Huawei's OAuth token endpoint on swift-nio like the other mocks (not the relay's
        // client stack), over HTTP/2 or HTTP/1.1 as ALPN chooses, since the relay's HMS client speaks both.
        .target(
            name: "HMSMock",
            dependencies: [
                "LogRedaction",
                "MockSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hms-mock",
            dependencies: [
                "HMSMock",
                "MockSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A Web Push service stand-in: decrypts (RFC 8291) and checks VAPID (RFC 8292) as browsers' push services do.
        .target(
            name: "WebPushMock",
            dependencies: [
                "MockSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
        .executableTarget(
            name: "webpush-mock",
            dependencies: [
                "WebPushMock",
                "MockSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "push-relay",
            dependencies: [
                "APNs",
                "ConfigSupport",
                "HTTP2Transport",
                "PushService",
                "PushStore",
                "PushStorePostgres",
                "UUIDText",
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "apns-bench",
            dependencies: [
                "APNs",
                "HTTP2Transport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/apns-bench"
        ),
        .executableTarget(
            name: "relay-bench",
            dependencies: [
                "APNs",
                "ConfigSupport",
                "HTTP2Transport",
                "PushService",
                "PushStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/relay-bench"
        ),
        .executableTarget(
            name: "http-floor",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Benchmarks/http-floor"
        ),
        .executableTarget(
            name: "pipeline-bench",
            dependencies: ["APNs", "PushCore", "PushService", "PushStore"],
            path: "Benchmarks/pipeline-bench"
        ),
        // What several test targets need: the repository's paths, child processes without Foundation's `Process`, and
        // waiting off Swift's cooperative pool.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "HTTP2TransportTests",
            dependencies: ["HTTP2Transport", "APNsMock", "TestSupport", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "APNsTests",
            dependencies: [
                "APNs", "APNsMock", "ConnectionLiveness", "ProviderDriver", "HTTP2Transport", "PushCore", "PushSending", "TestSupport",
                "UUIDText",
            ]),
        .testTarget(
            name: "APNsMockTests",
            dependencies: [
                "APNsMock",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "PushCoreTests", dependencies: ["PushCore"]),
        .testTarget(name: "PushSendingTests", dependencies: ["PushSending"]),
        .testTarget(name: "ConnectionLivenessTests", dependencies: ["ConnectionLiveness"]),
        .testTarget(
            name: "PooledHTTPTests",
            dependencies: [
                "ConnectionLiveness", "PooledHTTP", .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"), .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "WebPushTests",
            dependencies: [
                "ConnectionLiveness", "PushCore", "PushSending", "TestSupport", "WebPush", "WebPushMock",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "HMSTests", dependencies: ["ConnectionLiveness", "HMS", "HMSMock", "PushCore", "PushSending", "TestSupport"]),
        .testTarget(
            name: "FCMTests", dependencies: ["ConnectionLiveness", "FCM", "FCMMock", "HTTP2Transport", "PushSending", "TestSupport"]),
        .testTarget(name: "FCMMockTests", dependencies: ["FCMMock"]),
        .testTarget(
            name: "HMSMockTests",
            dependencies: [
                "HMSMock",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(
            name: "MockSupportTests",
            dependencies: [
                "MockSupport",
                "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .testTarget(name: "LogRedactionTests", dependencies: ["LogRedaction"]),
        .testTarget(name: "UUIDTextTests", dependencies: ["UUIDText"]),
        .testTarget(name: "StoreContractTests", dependencies: ["StoreContract"]),
        .testTarget(name: "PushStoreTests", dependencies: ["PushStore", "PushStorePostgres", "PushCore", "StoreContract", "TestSupport"]),
        .testTarget(
            name: "PushServiceTests",
            dependencies: [
                "StoreContract",
                "PushEngine",
                "APNs",
                "APNsMock",
                "ConfigSupport",
                "ProviderDriver",
                "PushSending",
                "FCM",
                "FCMMock",
                "HMS",
                "HMSMock",
                "WebPush",
                "HTTP2Transport",
                "PushService",
                "PushStore",
                "PushCore",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                // The HTTP/1 codec in front of ConnectionLimitHandler, as Hummingbird sets it up.
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
