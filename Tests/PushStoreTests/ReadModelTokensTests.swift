import Foundation
import GRDB
import PushCore
import Testing
@testable import PushStore
@testable import StoreContract

/// `users.push_tokens` is decoded by one scan when SQLite wrote it; anything else goes through
/// the general JSON parser. Both must read the same tokens, and a corrupt value must throw.
@Suite(.timeLimit(.minutes(5))) struct ReadModelTokensTests {
    /// What SQLite's `json_group_array(json_array(…))` writes for these rows, as the trigger does.
    private func sqliteText(_ rows: [(String, Int64, String, Int64)]) throws -> String {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (token TEXT, registered_at INTEGER, provider TEXT, id INTEGER)")
            for row in rows {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?, ?)", arguments: [row.0, row.1, row.2, row.3])
            }
            return try String.fetchOne(db, sql: "SELECT json_group_array(json_array(token, registered_at, provider, id)) FROM t")!
        }
    }

    @Test func sqlitesShapeIsScannedAndMatchesTheGeneralParser() throws {
        let rows: [(String, Int64, String, Int64)] = [
            (String(repeating: "ab", count: 32), 1_700_000_000_002, "apns", 7),
            ("fcm:APA91b-x_Y", 1_700_000_000_001, "fcm", 9),
            ("old", -5, "apns", 3),
        ]
        let text = try sqliteText(rows)
        let scanned = try #require(ReadModelTokens.scan(text), "\(text)")
        #expect(scanned == (try ReadModelTokens.parse(text)))
        #expect(
            try ReadModelTokens.decode(text)
                == [
                    DeviceToken(token: "old", registeredAtMs: -5, provider: .apns),
                    DeviceToken(token: "fcm:APA91b-x_Y", registeredAtMs: 1_700_000_000_001, provider: .fcm),
                    DeviceToken(token: String(repeating: "ab", count: 32), registeredAtMs: 1_700_000_000_002, provider: .apns),
                ])
    }

    /// A token of a named configuration carries it as a fifth element (`TokenConfigurationSchema`).
    @Test func aConfigurationIsTheFifthElement() throws {
        let queue = try DatabaseQueue()
        let text = try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE device_tokens (app_id TEXT, user_id TEXT, token TEXT, registered_at INTEGER, provider TEXT, id INTEGER,
                        configuration TEXT);
                    INSERT INTO device_tokens VALUES ('A', 'u', 'release', 1, 'apns', 1, NULL), ('A', 'u', 'debug', 2, 'apns', 2, 'sandbox');
                    """)
            return try String.fetchOne(db, sql: "SELECT " + TokenConfigurationSchema.tokens(app: "'A'", user: "'u'"))!
        }
        let scanned = try #require(ReadModelTokens.scan(text), "\(text)")
        #expect(scanned == (try ReadModelTokens.parse(text)))
        #expect(
            try ReadModelTokens.decode(text) == [
                DeviceToken(token: "release", registeredAtMs: 1, provider: .apns),
                DeviceToken(token: "debug", registeredAtMs: 2, provider: .apns, configuration: "sandbox"),
            ])
        // Not a string: corrupt, not a default.
        #expect(throws: PushStoreError.self) { try ReadModelTokens.decode(#"[["t",1,"apns",1,7]]"#) }
    }

    @Test func otherShapesGoThroughTheGeneralParser() throws {
        // A token SQLite has to escape, and the same list hand-written with spaces.
        let escaped = try sqliteText([("quote\"back\\slash", 2, "apns", 1), ("plain", 1, "apns", 2)])
        #expect(ReadModelTokens.scan(escaped) == nil)
        #expect(
            try ReadModelTokens.decode(escaped) == [
                DeviceToken(token: "plain", registeredAtMs: 1, provider: .apns),
                DeviceToken(token: "quote\"back\\slash", registeredAtMs: 2, provider: .apns),
            ])
        let spaced = #"[ ["t", 5, "apns", 1] ]"#
        #expect(ReadModelTokens.scan(spaced) == nil)
        #expect(try ReadModelTokens.decode(spaced) == [DeviceToken(token: "t", registeredAtMs: 5, provider: .apns)])
        // Ties by id; any provider's (the store names none), but not a name no driver could have.
        let ties = #"[["b",5,"apns",2],["x",1,"huawei",3],["a",5,"apns",1],["y",1,"Not A Name",4]]"#
        #expect(try ReadModelTokens.decode(ties).map(\.token) == ["x", "a", "b"])
        #expect(try ReadModelTokens.decode("[]") == [])
    }

    @Test(arguments: [
        "", "[", "[[]]", #"[["t",1,"apns"]]"#, #"[["t","1","apns",2]]"#, #"[["t",1,"apns",2],]"#, #"[["t",1,"apns",2]]x"#,
        #"[["t",99999999999999999999,"apns",2]]"#, #"{"t":1}"#, #"[["t",1.5,"apns",2]]"#,
    ])
    func corruptValuesThrowWithoutTheToken(text: String) {
        #expect(ReadModelTokens.scan(text) == nil)
        do {
            _ = try ReadModelTokens.decode(text)
            Issue.record("\(text) was read")
        } catch {
            #expect(!"\(error)".contains("apns\",2"), "\(error)")
        }
    }
}
