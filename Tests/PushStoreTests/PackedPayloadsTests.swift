import Foundation
import GRDB
import Testing
@testable import PushStore
@testable import StoreContract

/// An event's payloads are one `packed_payloads` row (`PackedPayloads`): each delivery reads its
/// own part back whole, erasure empties a user's part and nothing else, and a damaged row fails
/// only its own deliveries.
@Suite(.timeLimit(.minutes(5))) struct PackedPayloadsTests {
    static let far: Int64 = 1_800_000_000_000 - 1

    static func count(_ store: SQLiteStore, _ sql: String) async throws -> Int {
        try await store.pool.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    @Test func partsReadBackAndDamagedRowsAreRefused() throws {
        let parts: [(alone: [UInt8], spans: [UInt8])] = [(Array("ab".utf8), [1, 2, 3]), ([], []), (Array("whole".utf8), [])]
        let raw = PackedPayloads.raw(parts)
        #expect(raw.count == 4 + 8 * 3 + 2 + 3 + 5)
        #expect(PackedPayloads.encode(parts).withUnsafeBytes { PackedPayloads.decompress($0) } == raw)
        let layout = try #require(raw.withUnsafeBytes { PackedPayloads.layout($0) })
        #expect(layout.count == 3)
        for (range, part) in zip(layout, parts) {
            #expect(Array(raw[range.alone]) == part.alone)
            #expect(Array(raw[range.spans]) == part.spans)
        }
        let blanked = try #require(PackedPayloads.blanking(Data(PackedPayloads.encode(parts)), places: [0]))
        let after = try #require(blanked.withUnsafeBytes { PackedPayloads.decompress($0) })
        let afterLayout = try #require(after.withUnsafeBytes { PackedPayloads.layout($0) })
        #expect(afterLayout[0].alone.isEmpty && afterLayout[0].spans.isEmpty)
        #expect(Array(after[afterLayout[2].alone]) == Array("whole".utf8))
        #expect(after.count == raw.count - 5)

        // Lengths that do not add up to the blob, a count past it, a truncated header: nil.
        for damaged in [Array(raw.dropLast()), raw + [0], [3, 0, 0, 0], [1, 0], [0xff, 0xff, 0xff, 0x7f]] {
            #expect(damaged.withUnsafeBytes { PackedPayloads.layout($0) } == nil)
        }
        // A stream cut short, a length that is not the stream's, one past the bound: nil.
        let stored = PackedPayloads.encode(parts)
        var wrongLength = stored
        wrongLength[0] &+= 1
        var huge = stored
        huge[3] = 0x7f
        // A stated length of 0, or below the count every parts blob starts with.
        for damaged in [
            Array(stored.dropLast()), wrongLength, huge, [0, 0, 0, 0], Array(raw), [0, 0, 0, 0, 0x10], [2, 0, 0, 0, 0x20, 0, 0],
        ] {
            #expect(damaged.withUnsafeBytes { PackedPayloads.decompress($0) } == nil)
        }
        #expect(PackedPayloads.blanking(Data(stored.dropLast()), places: [0]) == nil)
    }

    /// An event's payloads repeat each other, so its row is a fraction of the payloads' bytes.
    @Test func anEventsPayloadsAreStoredCompressed() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let event = try await SharedPayloadTests.plannedEvent(store, messageID: 3)
        #expect(try await store.acceptEvent(event))
        let stored = try await Self.count(store, "SELECT length(parts) FROM packed_payloads")
        let whole = event.deliveries.map(\.payload.count).reduce(0, +)
        #expect(stored * 3 < whole, "\(stored) bytes stored for \(whole)")
    }

    /// The packed row is made before the commit (`prepareForCommit`, off SQLite's writer); an
    /// event changed afterwards drops it and is packed again at the commit, so what is stored is
    /// what it holds.
    @Test func anEventChangedAfterItWasMadeIsPackedAgain() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        var event = try await SharedPayloadTests.plannedEvent(store, messageID: 4)
        #expect(event.packedPayloads == nil)
        store.prepareForCommit(&event)
        let made = try #require(event.packedPayloads)
        #expect(made == PackedPayloads.encode(event.deliveries, shared: try #require(event.sharedPayload)))
        event.deliveries.removeLast()
        #expect(event.packedPayloads == nil)
        #expect(try await store.acceptEvent(event))
        let claimed = try await store.claimDue(nowMs: Self.far, limit: 100)
        #expect(Set(claimed.map(\.payload)) == Set(event.deliveries.map(\.payload)))
        #expect(claimed.count == 3)
    }

    /// Erasing one recipient empties their part of the row; the others still read whole.
    @Test func erasingARecipientEmptiesOnlyTheirPart() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        let event = try await SharedPayloadTests.plannedEvent(store, messageID: 5)
        #expect(try await store.acceptEvent(event))
        let ids = try await store.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, user_id FROM deliveries ORDER BY id").map { ($0[0] as Int64, $0[1] as String) }
        }
        #expect(try await store.eraseUser(app: SharedPayloadTests.app, user: "u2"))

        let (first, parts) = try await store.pool.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT first_delivery_id, parts FROM packed_payloads"))
            return (row[0] as Int64, row[1] as Data)
        }
        let raw = try #require(parts.withUnsafeBytes { PackedPayloads.decompress($0) })
        let layout = try #require(raw.withUnsafeBytes { PackedPayloads.layout($0) })
        for (id, user) in ids {
            let part = layout[Int(id - first)]
            #expect((part.alone.isEmpty && part.spans.isEmpty) == (user == "u2"), "\(user)")
        }
        let claimed = try await store.claimDue(nowMs: Self.far, limit: 100)
        #expect(Set(claimed.map(\.userID)) == ["u1", "u3", "u4"])
        let planned = Dictionary(uniqueKeysWithValues: event.deliveries.map { ($0.userID, $0.payload) })
        for record in claimed { #expect(record.payload == planned[record.userID]) }
    }

    /// Delivery ids are reused once the highest ones are deleted. A row left holding only erased
    /// users' parts must not stand in for the next event's payloads (nor block its insert).
    @Test func idsReusedAfterAnErasureReadTheNewPayloads() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        #expect(try await store.acceptEvent(SharedPayloadTests.plannedEvent(store, messageID: 1, text: "first")))
        for user in ["u1", "u2", "u3", "u4"] { #expect(try await store.eraseUser(app: SharedPayloadTests.app, user: user)) }
        #expect(try await Self.count(store, "SELECT COUNT(*) FROM deliveries") == 0)

        let again = try await SharedPayloadTests.plannedEvent(store, messageID: 2, text: "second, which is longer")
        #expect(try await store.acceptEvent(again))
        #expect(try await Self.count(store, "SELECT COUNT(*) FROM packed_payloads") == 1)
        let claimed = try await store.claimDue(nowMs: Self.far, limit: 100)
        #expect(Set(claimed.map(\.payload)) == Set(again.deliveries.map(\.payload)))
    }

    /// A damaged row fails its own deliveries (an empty payload APNs refuses), not every claim;
    /// the copy to PostgreSQL stops on it rather than copy it wrong.
    @Test func aDamagedRowFailsOnlyItsOwnDeliveries() async throws {
        let db = try TemporaryDatabase()
        let store = try db.open()
        #expect(try await store.acceptEvent(SharedPayloadTests.plannedEvent(store, messageID: 1)))
        try await store.pool.write { db in try db.execute(sql: "UPDATE packed_payloads SET parts = x'0900000001'") }
        let claimed = try await store.claimDue(nowMs: Self.far, limit: 100)
        #expect(claimed.count == 4)
        #expect(claimed.allSatisfy { $0.payload.isEmpty })
        let snapshot = try SQLiteSnapshot(store)
        await #expect(throws: PushStoreError.self) { try await snapshot.deliveries(after: nil, limit: 100) }
    }
}
