/// Connection ids in the order they joined (became idle, or started sending a request), the one
/// there the longest first. Appending, removing any id and taking the first are O(1): a doubly
/// linked list threaded through a dictionary, so a connection that changes phase leaves its
/// queue without a scan.
struct ConnectionQueue: Sendable {
    private struct Link: Sendable {
        var previous: UInt64?
        var next: UInt64?
    }

    private var links: [UInt64: Link] = [:]
    private var head: UInt64?
    private var tail: UInt64?

    var count: Int { links.count }
    var isEmpty: Bool { links.isEmpty }
    /// The id queued the longest.
    var first: UInt64? { head }

    func contains(_ id: UInt64) -> Bool { links[id] != nil }

    /// Puts `id` at the back (queued the shortest); an id already queued moves there.
    mutating func append(_ id: UInt64) {
        remove(id)
        links[id] = Link(previous: tail, next: nil)
        if let tail { links[tail]?.next = id } else { head = id }
        tail = id
    }

    /// Takes `id` out wherever it is; an id not queued is ignored.
    mutating func remove(_ id: UInt64) {
        guard let link = links.removeValue(forKey: id) else { return }
        if let previous = link.previous { links[previous]?.next = link.next } else { head = link.next }
        if let next = link.next { links[next]?.previous = link.previous } else { tail = link.previous }
    }

    /// Takes out and returns the id queued the longest.
    mutating func removeFirst() -> UInt64? {
        guard let head else { return nil }
        remove(head)
        return head
    }

    /// The ids from queued the longest to queued the shortest (O(n): for tests and diagnostics).
    var ordered: [UInt64] {
        var ids: [UInt64] = []
        ids.reserveCapacity(links.count)
        var cursor = head
        while let id = cursor {
            ids.append(id)
            cursor = links[id]?.next
        }
        return ids
    }
}
