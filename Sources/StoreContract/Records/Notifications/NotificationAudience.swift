import Foundation
import PushCore

/// Who a notification goes to: listed users, or everyone subscribed to a topic when it is sent.
public enum NotificationAudience: Sendable, Hashable {
    /// User ids sorted by their bytes, each once (`NotificationAudience.users(_:)` makes them so).
    case users([String])
    case topic(String)

    /// A list audience: sorted by bytes (the order the fan-out walks), each id once.
    public static func listing(_ ids: [String]) -> NotificationAudience {
        let unique = Set(ids.map { Array($0.utf8) })
        return .users(unique.sorted { $0.lexicographicallyPrecedes($1) }.map { String(decoding: $0, as: UTF8.self) })
    }

    /// The users of a list after `cursor` (in byte order), at most `limit`.
    public func listed(after cursor: String?, limit: Int) -> [String] {
        guard case .users(let ids) = self else { return [] }
        var start = 0
        if let cursor {
            // The first id above the cursor's bytes: a binary search of the sorted list.
            var (low, high) = (0, ids.count)
            while low < high {
                let middle = (low + high) / 2
                let id = ids[middle].utf8
                if id.lexicographicallyPrecedes(cursor.utf8) || id.elementsEqual(cursor.utf8) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            start = low
        }
        return Array(ids[start..<min(ids.count, start + limit)])
    }
}

extension NotificationAudience {
    /// The stored form (both stores): `users` with a JSON array of ids, or `topic` with its name.
    public var stored: (kind: String, text: String) {
        switch self {
        case .users(let ids): ("users", JSONWriter.string(.array(ids.map { .string($0) })))
        case .topic(let name): ("topic", name)
        }
    }

    /// From the stored form; an unreadable value is a corrupt store.
    public init(kind: String, text: String) throws {
        switch kind {
        case "topic": self = .topic(text)
        case "users":
            guard case .array(let items)? = try? JSONValue.parse(Data(text.utf8)) else {
                throw PushStoreError.corruptValue(table: "notifications", column: "audience", value: String(text.prefix(40)))
            }
            self = .users(items.compactMap { if case .string(let id) = $0 { id } else { nil } })
        default: throw PushStoreError.corruptValue(table: "notifications", column: "audience_kind", value: kind)
        }
    }
}
