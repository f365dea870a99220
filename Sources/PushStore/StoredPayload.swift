import Foundation
import GRDB
import PushCore
import StoreContract

/// A payload as `delivery_payloads` keeps it when it repeats its event's shared bytes
/// (`SharedSpan`): the bytes it has alone, and `spans`, 12 bytes per span (its position in the
/// payload, its offset in the shared bytes and its length, each a little-endian UInt32).
enum StoredPayload {
    /// Runs one payload may leave out.
    static let maximumSpans = 16

    /// `payload` without the spans, and the spans encoded; nil when a span is not what it claims
    /// (out of bounds, overlapping, or other bytes than the shared ones), so the payload is
    /// stored whole instead. Both are made at their final size with one copy of each run (this
    /// runs for every push the webhook accepts).
    static func split(_ payload: Data, spans: [SharedSpan], shared: [UInt8]) -> (alone: [UInt8], spans: [UInt8])? {
        guard !spans.isEmpty, spans.count <= maximumSpans else { return nil }
        return payload.withUnsafeBytes { bytes in
            shared.withUnsafeBytes { sharedBytes in split(bytes, spans: spans, shared: sharedBytes) }
        }
    }

    private static func split(_ bytes: UnsafeRawBufferPointer, spans: [SharedSpan], shared: UnsafeRawBufferPointer)
        -> (alone: [UInt8], spans: [UInt8])?
    {
        var next = 0
        for span in spans {
            guard span.position >= next, span.length > 0, span.position + span.length <= bytes.count, span.offset >= 0,
                span.offset + span.length <= shared.count, span.position + span.length <= UInt32.max,
                memcmp(bytes.baseAddress! + span.position, shared.baseAddress! + span.offset, span.length) == 0
            else { return nil }
            next = span.position + span.length
        }
        let aloneCount = bytes.count - spans.reduce(0) { $0 + $1.length }
        let alone = [UInt8](unsafeUninitializedCapacity: aloneCount) { out, count in
            var from = 0
            for span in spans {
                copy(bytes, from..<span.position, to: out, at: &count)
                from = span.position + span.length
            }
            copy(bytes, from..<bytes.count, to: out, at: &count)
        }
        let encoded = [UInt8](unsafeUninitializedCapacity: 12 * spans.count) { out, count in
            let raw = UnsafeMutableRawBufferPointer(out)
            for span in spans {
                raw.storeBytes(of: UInt32(span.position).littleEndian, toByteOffset: count, as: UInt32.self)
                raw.storeBytes(of: UInt32(span.offset).littleEndian, toByteOffset: count + 4, as: UInt32.self)
                raw.storeBytes(of: UInt32(span.length).littleEndian, toByteOffset: count + 8, as: UInt32.self)
                count += 12
            }
        }
        return (alone, encoded)
    }

    private static func copy(
        _ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, to out: UnsafeMutableBufferPointer<UInt8>, at count: inout Int
    ) {
        guard !range.isEmpty else { return }
        UnsafeMutableRawPointer(out.baseAddress! + count).copyMemory(from: bytes.baseAddress! + range.lowerBound, byteCount: range.count)
        count += range.count
    }

    static func join(_ alone: Data, spans: Data, shared: Data) -> Data? {
        alone.withUnsafeBytes { alone in
            spans.withUnsafeBytes { spans in shared.withUnsafeBytes { join(alone: alone, spans: spans, shared: $0) } }
        }
    }

    /// The whole payload from what `split` stored; nil when they do not fit together.
    static func join(alone: UnsafeRawBufferPointer, spans: UnsafeRawBufferPointer, shared: UnsafeRawBufferPointer) -> Data? {
        // `split` writes one entry per shared run (4 from `PayloadBuilder`); more is damage, and
        // would let a damaged row ask for a payload many times the shared bytes.
        guard spans.count % 12 == 0, spans.count <= 12 * maximumSpans else { return nil }
        var total = alone.count
        for start in stride(from: 0, to: spans.count, by: 12) {
            let length = Int(UInt32(littleEndian: spans.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self)))
            // Bounds total by what the parts hold, whatever the stored numbers say.
            guard length > 0, length <= shared.count else { return nil }
            total += length
        }
        var out = Data(count: total)
        let ok = out.withUnsafeMutableBytes { out -> Bool in
            var written = 0, read = 0
            for start in stride(from: 0, to: spans.count, by: 12) {
                let position = Int(UInt32(littleEndian: spans.loadUnaligned(fromByteOffset: start, as: UInt32.self)))
                let offset = Int(UInt32(littleEndian: spans.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self)))
                let length = Int(UInt32(littleEndian: spans.loadUnaligned(fromByteOffset: start + 8, as: UInt32.self)))
                let own = position - written
                guard own >= 0, read + own <= alone.count, offset + length <= shared.count else { return false }
                if own > 0 { out.baseAddress!.advanced(by: written).copyMemory(from: alone.baseAddress! + read, byteCount: own) }
                out.baseAddress!.advanced(by: position).copyMemory(from: shared.baseAddress! + offset, byteCount: length)
                written = position + length
                read += own
            }
            guard alone.count - read == total - written else { return false }
            if read < alone.count {
                out.baseAddress!.advanced(by: written).copyMemory(from: alone.baseAddress! + read, byteCount: alone.count - read)
            }
            return true
        }
        return ok ? out : nil
    }
}

/// Reads stored payloads back whole inside one read or write, each event's shared bytes and
/// packed row once (a claim's rows come event by event).
struct StoredPayloadReader {
    private let lookup: Statement
    private let packedLookup: Statement
    private var last: (app: String, messageID: Int64, shared: Data?)?
    private var lastPacked: (ids: ClosedRange<Int64>, parts: Data, layout: [(alone: Range<Int>, spans: Range<Int>)]?)?

    init(_ db: Database) throws {
        lookup = try db.cachedStatement(sql: "SELECT shared FROM event_payloads WHERE app_id = ? AND message_id = ?")
        packedLookup = try db.cachedStatement(sql: PackedPayloads.containingRow)
    }

    /// The shared bytes of message `messageID` of `app` (nil when there are none), looked up
    /// once for consecutive deliveries of the same message.
    mutating func sharedBytes(app: String, messageID: Int64) throws -> Data? {
        if let last, last.app == app, last.messageID == messageID { return last.shared }
        let query = RawStatement(lookup)
        query.bind(1, app)
        query.bind(2, messageID)
        var shared: Data?
        try query.forEachRow { shared = $0.data(0) }
        last = (app, messageID, shared)
        return shared
    }

    /// The payload of a row whose columns `alone` and `spans` are `delivery_payloads`' `payload`
    /// and `spans` (both NULL without such a row: then it is in `packed_payloads`), for delivery
    /// `deliveryID` of message `messageID` of `app`.
    mutating func payload(
        _ row: RawStatement.Row, alone: Int32, spans: Int32, app: String, messageID: Int64, deliveryID: Int64
    ) throws -> Data {
        guard let split = row.withBlob(spans, { Data($0) }) else {
            if row.withBlob(alone, { _ in true }) == nil {
                // A damaged row fails this delivery alone, as below.
                do {
                    return try packedPayload(app: app, messageID: messageID, deliveryID: deliveryID) ?? Data()
                } catch PushStoreError.corruptValue {
                    return Data()
                }
            }
            return row.data(alone)
        }
        let joined = try sharedBytes(app: app, messageID: messageID).flatMap { shared in
            row.withBlob(alone) { alone in
                split.withUnsafeBytes { spans in shared.withUnsafeBytes { StoredPayload.join(alone: alone, spans: spans, shared: $0) } }
            } ?? nil
        }
        // Missing shared bytes (erased with their sender meanwhile) or a damaged row: no payload,
        // as for a payload row deleted by erasure. APNs refuses it (`PayloadEmpty`) and that one
        // delivery fails, instead of every claim failing on it.
        return joined ?? Data()
    }

    /// Delivery `deliveryID`'s payload from its event's `packed_payloads` row; nil when there is
    /// none (erased with its user, or with the sender whose shared bytes it needs). Throws
    /// `PushStoreError.corruptValue` for a row whose parts do not fit together.
    mutating func packedPayload(app: String, messageID: Int64, deliveryID: Int64) throws -> Data? {
        if lastPacked.map({ !$0.ids.contains(deliveryID) }) ?? true {
            let query = RawStatement(packedLookup)
            query.bind(1, deliveryID)
            lastPacked = nil
            try query.forEachRow { row in
                let first = row.int64(0), last = row.int64(1)
                guard first <= last else { return }
                let parts = row.withBlob(2) { PackedPayloads.decompress($0) }.flatMap { $0 }.map { Data($0) } ?? Data()
                lastPacked = (first...last, parts, parts.withUnsafeBytes { PackedPayloads.layout($0) })
            }
        }
        guard let packed = lastPacked, packed.ids.contains(deliveryID) else { return nil }
        let place = Int(deliveryID - packed.ids.lowerBound)
        guard let layout = packed.layout, place < layout.count else { throw damaged(packed.ids.lowerBound) }
        let (alone, spans) = layout[place]
        if alone.isEmpty && spans.isEmpty { return nil }  // erased with its user
        if spans.isEmpty { return Data(packed.parts[alone]) }  // a copy, so its indices start at 0
        guard let shared = try sharedBytes(app: app, messageID: messageID) else { return nil }
        let joined = packed.parts.withUnsafeBytes { parts in
            shared.withUnsafeBytes {
                StoredPayload.join(
                    alone: UnsafeRawBufferPointer(rebasing: parts[alone]), spans: UnsafeRawBufferPointer(rebasing: parts[spans]), shared: $0
                )
            }
        }
        guard let joined else { throw damaged(packed.ids.lowerBound) }
        return joined
    }

    private func damaged(_ first: Int64) -> PushStoreError {
        .corruptValue(table: "packed_payloads", column: "parts", value: "first delivery \(first)")
    }
}
