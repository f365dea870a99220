import Foundation
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// Sends hand-written HTTP/1.1 bytes over a plain loopback socket and returns everything the
/// server answers until it closes: for requests a normal client would not produce (a chunked
/// body with no Content-Length).
enum RawHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `request` and reads until the server closes or a JSON body is complete, on a thread
    /// of its own (the socket calls block).
    static func exchange(port: Int, _ request: [UInt8]) async throws -> String {
        try await offThread { try blockingExchange(port: port, request) }
    }

    private static func blockingExchange(port: Int, _ request: [UInt8]) throws -> String {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        // A receive timeout bounds a failing run; the success path ends when the server closes.
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect() failed") }
        var offset = 0
        while offset < request.count {
            let written = request[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // The server may answer 413 and close before reading everything; stop writing then.
            if written <= 0 { break }
            offset += written
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
            if let text = String(bytes: response, encoding: .utf8), text.contains("\r\n\r\n"), text.hasSuffix("}") { break }
        }
        return String(decoding: response, as: UTF8.self)
    }
}
