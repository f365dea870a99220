import StoreContract

/// `push-relay migrate-store`: copies an SQLite store, as one snapshot, into a PostgreSQL store
/// whose schema `PostgresStore.open` has brought up to date: users, device tokens (with their
/// registration times), preferences, templates, session and API token digests, accepted events
/// (the webhook dedupe), skip decisions, the app server's notifications (with their ids, which
/// their pushes carry) with their noted users, topic subscriptions, and every delivery with its
/// payload and attempts (the queue and the delivery log; one in flight arrives pending with the
/// same apns-id).
///
/// Page by page, one statement each, so memory and each transaction stay bounded whatever the
/// size. Rows already in the target are left as they are: running it again, or after a run that
/// was interrupted, copies only what is missing. After each page it counts which of the page's
/// rows the target holds, so the report says, per table, whether everything arrived.
public struct StoreMigration: Sendable {
    /// One table's figures.
    public struct TableReport: Sendable, Hashable {
        public let table: String
        /// Rows in the SQLite snapshot.
        public var source = 0
        /// Rows this run inserted.
        public var copied = 0
        /// Source rows found in the target afterwards (copied now or before).
        public var present = 0

        public var missing: Int { max(0, source - present) }

        init(_ table: String) { self.table = table }
    }

    public struct Report: Sendable {
        public var tables: [TableReport] = []
        /// Deliveries in flight at the source, now pending in the target.
        public var inFlightMadePending = 0

        /// Whether every source row is in the target.
        public var isComplete: Bool { tables.allSatisfy { $0.missing == 0 } }
    }

    public let source: any StoreSnapshot
    public let target: PostgresStore
    /// Rows per statement (registry, events, decisions).
    public var pageSize: Int
    /// Deliveries per statement (each with a payload of up to 5 KB and its attempts).
    public var deliveryPageSize: Int

    public init(source: any StoreSnapshot, target: PostgresStore, pageSize: Int = 1000, deliveryPageSize: Int = 500) {
        self.source = source
        self.target = target
        self.pageSize = pageSize
        self.deliveryPageSize = deliveryPageSize
    }

    /// Copies everything; `progress` hears each table's figures once it is done.
    public func run(progress: @Sendable (TableReport) -> Void = { _ in }) async throws -> Report {
        var report = Report()
        for table in CopiedTable.all {
            var figures = TableReport(table.name)
            figures.source = try await source.count(table.name)
            var cursor: TablePage.Cursor?
            repeat {
                let page = try await source.page(table, after: cursor, limit: pageSize)
                figures.copied += try await target.importPage(page)
                figures.present += try await target.countPresent(page)
                cursor = page.next
            } while cursor != nil
            report.tables.append(figures)
            progress(figures)
        }

        var deliveries = TableReport("deliveries")
        var payloads = TableReport("delivery_payloads")
        var attempts = TableReport("delivery_attempts")
        deliveries.source = try await source.count("deliveries")
        report.inFlightMadePending = try await source.deliveryStates()[DeliveryState.inFlight.rawValue] ?? 0
        var after: Int64?
        repeat {
            let page = try await source.deliveries(after: after, limit: deliveryPageSize)
            payloads.source += page.deliveries.count { $0.payload != nil }
            let pageAttempts = page.deliveries.reduce(0) { $0 + $1.attemptLog.count }
            attempts.source += pageAttempts
            let inserted = try await target.importDeliveries(page)
            deliveries.copied += inserted.deliveries
            payloads.copied += inserted.payloads
            attempts.copied += inserted.attempts
            let present = try await target.countPresent(page)
            deliveries.present += present.deliveries
            payloads.present += present.payloads
            // A relay on the target may have tried a delivery since: more attempts, not fewer.
            attempts.present += min(present.attempts, pageAttempts)
            after = page.next
        } while after != nil
        for figures in [deliveries, payloads, attempts] {
            report.tables.append(figures)
            progress(figures)
        }
        return report
    }
}
