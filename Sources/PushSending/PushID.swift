import Foundation
import Synchronization

/// The relay's id for one push: the `apns-id` of an APNs push, and the id the delivery log and
/// logs name every provider's push by.
public enum PushID {
    /// A random (version 4) UUID. Foundation's `UUID()` on Linux opens /dev/urandom for every
    /// call, and `SystemRandomNumberGenerator` makes a getrandom call per 8 bytes: at tens of
    /// thousands of pushes per second that was most of the syscalls (`perf`: ~3 % of the client's
    /// CPU in the kernel's generator). The system generator's bytes are taken 4 KiB at a time
    /// instead, 256 ids per call. A push id needs to be unique, not secret.
    public static func random() -> UUID {
        var bytes = randomBytes.withLock { $0.next() }
        return withUnsafeMutableBytes(of: &bytes) { raw in
            raw[6] = (raw[6] & 0x0F) | 0x40  // version 4
            raw[8] = (raw[8] & 0x3F) | 0x80  // RFC 4122 variant
            return UUID(uuid: raw.load(as: uuid_t.self))
        }
    }

    private static let randomBytes = Mutex(RandomBytes())

    /// The system generator's bytes, read a buffer at a time.
    private struct RandomBytes: ~Copyable {
        private var buffer = [UInt64](repeating: 0, count: 512)
        private var position = 512

        mutating func next() -> (UInt64, UInt64) {
            if position + 2 > buffer.count {
                buffer.withUnsafeMutableBytes(Self.fill)
                position = 0
            }
            defer { position += 2 }
            return (buffer[position], buffer[position + 1])
        }

        private static func fill(_ bytes: UnsafeMutableRawBufferPointer) {
            // The system generator (getrandom on Linux since glibc 2.36), one call per buffer.
            arc4random_buf(bytes.baseAddress!, bytes.count)
        }
    }
}
