#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging

/// The file descriptors the relay needs, and the start-up step that makes RLIMIT_NOFILE fit
/// them: every HTTP connection, every APNs connection and SQLite hold descriptors, and an
/// exhausted table fails whichever of them asks next (accept, an APNs reconnect, a SQLite read).
///
/// `required` = `http.max_connections` + the sockets in transit (`ConnectionGate.inTransit`)
/// + 4 per provider pool connection (its socket and wake-up eventfd, twice: a SIGHUP reload opens
/// the new pools before the old ones close) + `reserve`.
public struct DescriptorBudget: Sendable, Hashable {
    public var httpConnections: Int
    public var providerConnections: Int

    /// The listening socket, stdio, the journal socket, SQLite (database, WAL and shared-memory
    /// files for the writer, the checkpointer, each reader of the pool and each of the webhook's
    /// snapshot readers, as many again; the health probe), and the event loops' epoll, eventfd and
    /// timerfd descriptors: about 100 on a 16-core machine; the rest is margin.
    public static let reserve = 256

    public init(httpConnections: Int, providerConnections: Int) {
        self.httpConnections = httpConnections
        self.providerConnections = providerConnections
    }

    public init(configuration: RelayConfiguration) {
        self.init(
            httpConnections: configuration.http.maxConnections,
            providerConnections: configuration.apps.reduce(0) { $0 + $1.providers.all.reduce(0) { $0 + $1.connectionBudget } })
    }

    public var required: Int { httpConnections + ConnectionGate.inTransit + 4 * providerConnections + Self.reserve }

    /// What to do with RLIMIT_NOFILE (soft, hard) for `required` descriptors: keep a soft limit
    /// that fits, else raise it towards `required` but never past the hard limit (only root could
    /// raise that). `fits` says whether the result is enough.
    public static func plan(required: UInt64, soft: UInt64, hard: UInt64) -> (newSoft: UInt64?, fits: Bool) {
        if soft >= required { return (nil, true) }
        let target = min(required, hard)
        return (target > soft ? target : nil, target >= required)
    }

    /// Raises this process's soft RLIMIT_NOFILE when it is below `required`, and logs a warning
    /// naming the key and the unit setting when even the hard limit is too low.
    public func apply(logger: Logger) {
        var limit = rlimit()
        guard getrlimit(Self.noFile, &limit) == 0 else {
            logger.warning("cannot read the descriptor limit (RLIMIT_NOFILE)", metadata: ["errno": .stringConvertible(errno)])
            return
        }
        let needed = UInt64(required)
        let (newSoft, fits) = Self.plan(required: needed, soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
        var soft = UInt64(limit.rlim_cur)
        if let newSoft {
            var raised = limit
            raised.rlim_cur = rlim_t(newSoft)
            if setrlimit(Self.noFile, &raised) == 0 {
                logger.info(
                    "raised the descriptor limit",
                    metadata: [
                        "from": .stringConvertible(soft), "to": .stringConvertible(newSoft), "required": .stringConvertible(needed),
                    ])
                soft = newSoft
            } else {
                logger.warning("cannot raise the descriptor limit (RLIMIT_NOFILE)", metadata: ["errno": .stringConvertible(errno)])
            }
        }
        if !fits || soft < needed {
            logger.warning(
                "the descriptor limit is below what http.max_connections needs: raise LimitNOFILE= in the unit or lower http.max_connections",
                metadata: [
                    "limit": .stringConvertible(soft), "required": .stringConvertible(needed),
                    "max_connections": .stringConvertible(httpConnections), "provider_connections": .stringConvertible(providerConnections),
                ])
        }
    }

    #if canImport(Glibc)
        private static let noFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let noFile = RLIMIT_NOFILE
    #endif
}
