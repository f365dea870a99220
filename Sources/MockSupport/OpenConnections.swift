import NIOCore

/// A mock's open connections, numbered 1, 2, … in accept order (the number its records carry): the
/// open count its stats show, and the channels to close at shutdown or to tell of a new setting.
package struct OpenConnections: Sendable {
    private var open: [Int: any Channel] = [:]
    private var lastID = 0

    package init() {}

    /// Registers `channel` and returns its number.
    package mutating func accept(_ channel: any Channel) -> Int {
        lastID += 1
        open[lastID] = channel
        return lastID
    }

    /// Forgets connection `id`; false if it was not open, so a close is counted once.
    package mutating func close(id: Int) -> Bool {
        open.removeValue(forKey: id) != nil
    }

    package var count: Int { open.count }

    package var channels: [any Channel] { Array(open.values) }
}
