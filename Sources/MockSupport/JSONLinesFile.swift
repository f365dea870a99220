import Foundation
import Synchronization

/// An append-only file of JSON lines (the `recordFile`), shared by all connections.
package final class JSONLinesFile: Sendable {
    package let path: String
    private let handle: Mutex<FileHandle>

    package init(path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
            }
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        self.path = path
        self.handle = Mutex(handle)
    }

    /// Appends `value` as one JSON line. Failures are returned, not thrown, so a full disk does
    /// not take the mock down mid-test; the caller logs them.
    package func append(_ value: some Encodable) -> (any Error)? {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            var line = try encoder.encode(value)
            line.append(UInt8(ascii: "\n"))
            try self.handle.withLock { try $0.write(contentsOf: line) }
            return nil
        } catch {
            return error
        }
    }

    package func close() {
        self.handle.withLock { try? $0.close() }
    }
}
