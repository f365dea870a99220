import CLZ4
import Foundation
import GRDB
import StoreContract

/// The payloads of one event's deliveries in one `packed_payloads` row (migration
/// `v13_packed_payloads`), instead of a `delivery_payloads` row each: the deliveries of one event
/// get consecutive ids, so the row is keyed by the first and says the last, and a delivery's part
/// is found by its place in that run. One insert per event instead of one per push was 26–36 % of
/// the webhook commit's CPU (`pipeline-bench`, accept, 2026-11-26).
///
/// The parts: a little-endian UInt32 count, then per delivery two UInt32 (the length of the bytes
/// it has alone, the length of its encoded spans), then each delivery's bytes and spans in turn.
/// Spans are `StoredPayload`'s (their shared bytes are in `event_payloads`); a part without spans
/// is the whole payload, and an empty part is a payload erased with its user.
///
/// Stored compressed (`parts` column: the parts' length as a little-endian UInt32, then an LZ4
/// block). One event's payloads differ in little beyond the recipient (the same alert, keys and
/// sound), so the parts of 8 pushes shrink to a fraction; each payload alone would not.
enum PackedPayloads {
    /// Most parts a row may claim to hold, so a damaged count cannot make a reader reserve
    /// gigabytes. An event's deliveries are bounded far below it by its members
    /// (`apps[].limits.max_members_per_event`) and their tokens; more would be stored a row each.
    static let maximumCount = 1 << 20

    /// Most bytes of parts a row may claim to hold (a damaged length cannot make a reader
    /// allocate more): a 1,000-member event's parts are well under 1 MB.
    static let maximumPartsBytes = 1 << 28

    /// The column's bytes for `parts`, in delivery order.
    static func encode(_ parts: [(alone: [UInt8], spans: [UInt8])]) -> [UInt8] {
        compress(raw(parts))
    }

    /// The column's bytes for `deliveries`' payloads: each without the runs of `shared` it
    /// repeats, or whole when they are not what it claims (`StoredPayload.split`).
    static func encode(_ deliveries: [NewDelivery], shared: [UInt8]) -> [UInt8] {
        encode(deliveries.map { StoredPayload.split($0.payload, spans: $0.sharedSpans, shared: shared) ?? ([UInt8]($0.payload), []) })
    }

    /// The parts, uncompressed.
    static func raw(_ parts: [(alone: [UInt8], spans: [UInt8])]) -> [UInt8] {
        let total = 4 + 8 * parts.count + parts.reduce(0) { $0 + $1.alone.count + $1.spans.count }
        return [UInt8](unsafeUninitializedCapacity: total) { out, count in
            let raw = UnsafeMutableRawBufferPointer(out)
            raw.storeBytes(of: UInt32(parts.count).littleEndian, toByteOffset: 0, as: UInt32.self)
            count = 4
            for part in parts {
                raw.storeBytes(of: UInt32(part.alone.count).littleEndian, toByteOffset: count, as: UInt32.self)
                raw.storeBytes(of: UInt32(part.spans.count).littleEndian, toByteOffset: count + 4, as: UInt32.self)
                count += 8
            }
            for part in parts {
                for bytes in [part.alone, part.spans] where !bytes.isEmpty {
                    bytes.withUnsafeBytes { raw.baseAddress!.advanced(by: count).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
                    count += bytes.count
                }
            }
        }
    }

    /// `raw` as the column stores it: its length, then an LZ4 block. LZ4 rather than zlib: deflate
    /// at its fastest level cost more CPU than writing the bytes it saved (`pipeline-bench`,
    /// accept, 2026-11-26); LZ4 costs less than that.
    static func compress(_ raw: [UInt8]) -> [UInt8] {
        let bound = Int(LZ4_compressBound(Int32(raw.count)))
        return [UInt8](unsafeUninitializedCapacity: 4 + bound) { out, count in
            UnsafeMutableRawBufferPointer(out).storeBytes(of: UInt32(raw.count).littleEndian, toByteOffset: 0, as: UInt32.self)
            let length = raw.withUnsafeBytes { source in
                out.baseAddress!.advanced(by: 4).withMemoryRebound(to: CChar.self, capacity: bound) { target in
                    LZ4_compress_default(source.baseAddress?.assumingMemoryBound(to: CChar.self), target, Int32(raw.count), Int32(bound))
                }
            }
            // It fails only for a target below the bound or an input over LZ4's 2 GB limit.
            precondition(length > 0 || raw.isEmpty, "LZ4_compress_default failed")
            count = 4 + Int(length)
        }
    }

    /// The parts a column holds; nil when it is not what `compress` wrote.
    static func decompress(_ stored: UnsafeRawBufferPointer) -> [UInt8]? {
        guard stored.count > 4 else { return nil }
        let expected = Int(UInt32(littleEndian: stored.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
        // Parts hold at least their count, so a length below it is damage (and an empty buffer
        // would have no address to write to).
        guard expected >= 4, expected <= maximumPartsBytes else { return nil }
        var ok = false
        let raw = [UInt8](unsafeUninitializedCapacity: expected) { out, count in
            let length = out.baseAddress!.withMemoryRebound(to: CChar.self, capacity: expected) { target in
                LZ4_decompress_safe(
                    stored.baseAddress!.advanced(by: 4).assumingMemoryBound(to: CChar.self), target, Int32(stored.count - 4),
                    Int32(expected))
            }
            ok = Int(length) == expected
            count = ok ? expected : 0
        }
        return ok ? raw : nil
    }

    /// Where each part lies in the uncompressed parts: its bytes alone and its spans; nil when the
    /// lengths do not add up to the blob (a damaged row), so nothing is ever read out of bounds.
    static func layout(_ parts: UnsafeRawBufferPointer) -> [(alone: Range<Int>, spans: Range<Int>)]? {
        guard parts.count >= 4 else { return nil }
        let count = Int(UInt32(littleEndian: parts.loadUnaligned(fromByteOffset: 0, as: UInt32.self)))
        guard count <= maximumCount, 4 + 8 * count <= parts.count else { return nil }
        var ranges: [(alone: Range<Int>, spans: Range<Int>)] = []
        ranges.reserveCapacity(count)
        var offset = 4 + 8 * count
        for index in 0..<count {
            let alone = Int(UInt32(littleEndian: parts.loadUnaligned(fromByteOffset: 4 + 8 * index, as: UInt32.self)))
            let spans = Int(UInt32(littleEndian: parts.loadUnaligned(fromByteOffset: 8 + 8 * index, as: UInt32.self)))
            guard alone <= parts.count - offset, spans <= parts.count - offset - alone else { return nil }
            ranges.append((offset..<offset + alone, offset + alone..<offset + alone + spans))
            offset += alone + spans
        }
        return offset == parts.count ? ranges : nil
    }

    /// A column's bytes with the parts at `places` emptied (their users erased); nil for a
    /// damaged row.
    static func blanking(_ stored: Data, places: Set<Int>) -> [UInt8]? {
        guard let raw = stored.withUnsafeBytes({ decompress($0) }) else { return nil }
        return raw.withUnsafeBytes { raw in
            guard let ranges = layout(raw) else { return nil }
            return encode(
                ranges.indices.map { index in
                    places.contains(index) ? ([], []) : ([UInt8](raw[ranges[index].alone]), [UInt8](raw[ranges[index].spans]))
                })
        }
    }

    /// The row holding delivery `id`'s part, if any: the one with the greatest first id not above it.
    static let containingRow = """
        SELECT first_delivery_id, last_delivery_id, parts FROM packed_payloads
        WHERE first_delivery_id <= ? ORDER BY first_delivery_id DESC LIMIT 1
        """

    /// `containingRow` without the parts: where a row is, not what it holds.
    static let containingRowKey = """
        SELECT first_delivery_id, last_delivery_id FROM packed_payloads
        WHERE first_delivery_id <= ? ORDER BY first_delivery_id DESC LIMIT 1
        """
}

extension AcceptedEvent {
    /// What `SQLiteStore.commitEvents` stores for its payloads: the shared bytes once and the
    /// packed parts compressed, or each payload whole (`pipeline-bench` prints it).
    public var storedPayloadBytes: Int {
        guard let shared = usedSharedPayload else {
            return deliveries.reduce(0) { $0 + $1.payload.count }
        }
        return shared.count + (packedPayloads ?? PackedPayloads.encode(deliveries, shared: shared)).count
    }
}

extension SQLiteStore {
    /// Packs the event's payloads now, so the commit on the one writer does not.
    public func prepareForCommit(_ event: inout AcceptedEvent) {
        guard let shared = event.usedSharedPayload else { return }
        event.packedPayloads = PackedPayloads.encode(event.deliveries, shared: shared)
    }
}
