import GRDB
import StoreContract

/// Migration `v16_test_pushes`: a test push (`POST /v3/push/test`, `push-relay test-push`) is
/// logged as a delivery marked `is_test`, so the delivery log can tell it from a message's push.
enum TestPushSchema {
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "ALTER TABLE deliveries ADD COLUMN is_test INTEGER NOT NULL DEFAULT 0")
    }
}
