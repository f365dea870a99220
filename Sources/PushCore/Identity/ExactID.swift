import Foundation

/// An identifier as the relay compares it: equal only when the UTF-8 bytes are, and hashed by
/// them. This is the relay's one identity rule for user ids, channel URLs, app ids and device
/// tokens.
///
/// Why not `String`: its `==` and hashing follow Unicode canonical equivalence, so `"caf\u{E9}"`
/// (NFC) and `"cafe\u{301}"` (NFD) are one key to a `Dictionary` — while SQLite and PostgreSQL
/// compare bytes and keep two users. A session token of one of them then read the other's device
/// tokens, and a cached entry of one received the other's pushes. Every comparison or key that
/// decides who is who goes through this type (or `String.sameBytes(as:)`), so the relay and its
/// stores agree: ids are bytes, exactly as Sendbird keeps them.
public struct ExactID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringInterpolation {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral value: String) {
        text = value
    }

    public var description: String { text }

    public static func == (lhs: ExactID, rhs: ExactID) -> Bool {
        lhs.text.sameBytes(as: rhs.text)
    }

    public func hash(into hasher: inout Hasher) {
        let hashed: Void? = text.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if hashed == nil {
            // Bridged or substring storage: hash a contiguous copy (same bytes, same hash).
            var copy = text
            copy.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
        // The length ends the key, as `String` does, so concatenated keys cannot collide by shifting.
        hasher.combine(text.utf8.count)
    }
}

extension String {
    /// Whether the two strings hold the same UTF-8 bytes (see `ExactID`): unlike `==`, canonically
    /// equivalent but different spellings are different.
    public func sameBytes(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || memcmp(mine.baseAddress!, theirs.baseAddress!, mine.count) == 0
            }
        }
        if case let result?? = compared { return result }
        return utf8.elementsEqual(other.utf8)
    }
}
