import NIOCore
import NIOPosix

/// What a started mock holds: its event-loop threads, its TLS listener and, when asked for, its
/// admin listener on 127.0.0.1.
package struct MockListeners: Sendable {
    package let group: MultiThreadedEventLoopGroup
    package let server: any Channel
    package let admin: (any Channel)?
    /// The bound ports (the asked ones, or the ephemeral ones for 0).
    package let port: Int
    package let adminPort: Int?

    /// Starts the configured event loops and binds both listeners; `admin` answers the admin API,
    /// `connection` sets up each accepted connection. Nothing stays open or running when this
    /// throws. `maxMessagesPerRead` overrides NIO's reads per wakeup on connections.
    package static func bind(
        _ configuration: some MockListenerConfiguration, maxMessagesPerRead: UInt? = nil, admin: AdminRoutes,
        connection: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>
    ) async throws -> MockListeners {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.eventLoopThreads))
        do {
            var bootstrap = ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 1024)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            if let maxMessagesPerRead {
                bootstrap = bootstrap.childChannelOption(.maxMessagesPerRead, value: maxMessagesPerRead)
            }
            let server = try await bootstrap.childChannelInitializer(connection)
                .bind(host: configuration.host, port: configuration.port).get()
            let admin = try await AdminHTTPHandler.bind(
                group: group, port: configuration.adminPort, closingOnFailure: server, respond: admin.respond)
            return MockListeners(
                group: group, server: server, admin: admin, port: server.localAddress?.port ?? 0,
                adminPort: admin?.localAddress?.port)
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// Closes the listeners, then `connections`, then stops the threads and closes `recordFile`
    /// (which they write): at shutdown, or when a shutdown came while a start was binding (no
    /// connections then).
    package func close(connections: [any Channel], recordFile: JSONLinesFile? = nil) async throws {
        defer { recordFile?.close() }
        try? await server.close()
        try? await admin?.close()
        for connection in connections { try? await connection.close() }
        try await group.shutdownGracefully()
    }
}
