import COpenSSL

/// A failed OpenSSL call with the contents of OpenSSL's (thread-local) error queue at that time.
///
/// Use `OpenSSLError.drainQueue()` right after the failing call, on the same thread, to turn the
/// queue into text for an error message; it also empties the queue so that stale entries do not
/// leak into the next failure's message.
package struct OpenSSLError: Error, CustomStringConvertible, Sendable {
    /// The call or step that failed, e.g. "SSL_CTX_use_certificate".
    package let operation: String
    /// The drained error queue, or a note that it was empty.
    package let detail: String

    package init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    /// Captures and drains the current thread's error queue for the failed `operation`.
    package static func capture(_ operation: String) -> OpenSSLError {
        OpenSSLError(operation: operation, detail: drainQueue())
    }

    package var description: String { "\(operation) failed: \(detail)" }

    /// Empties the calling thread's OpenSSL error queue and returns its entries, oldest first,
    /// separated by "; ". Each entry reads like
    /// `error:0308010C:digital envelope routines::unsupported (Algorithm (RC2-40-CBC : 0))`.
    package static func drainQueue() -> String {
        var entries: [String] = []
        while true {
            var data: UnsafePointer<CChar>?
            var flags: Int32 = 0
            let code = ERR_get_error_all(nil, nil, nil, &data, &flags)
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            var entry = String(
                decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) },
                as: UTF8.self)
            if flags & ERR_TXT_STRING != 0, let data, data.pointee != 0 {
                entry += " (\(String(cString: data)))"
            }
            entries.append(entry)
        }
        return entries.isEmpty ? "no detail from OpenSSL" : entries.joined(separator: "; ")
    }

    /// Discards whatever is in the calling thread's error queue (before a call whose failure
    /// will be reported, so the report shows only that failure).
    package static func clearQueue() {
        ERR_clear_error()
    }
}
