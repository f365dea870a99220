#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a credential file whole, turning every way that can fail into a `CredentialError`
/// that names the path (POSIX calls rather than FileManager, so the reason is the real errno).
package enum CredentialFileReader {
    /// Credential files are a few KiB; anything this large was given by mistake.
    static let maximumSize = 1 << 20

    package static func read(_ path: String) throws(CredentialError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { throw .fileNotFound(path: path) }
            if code == ENOTDIR { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, reason: reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: reason(errno)) }
        if info.st_mode & S_IFMT == S_IFDIR {
            throw .unreadable(path: path, reason: "it is a directory, not a file")
        }
        if info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > maximumSize {
            throw .wrongFormat(
                path: path,
                detail: "it is \(info.st_size) bytes, far too large for a key or certificate")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: reason(errno))
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > maximumSize {
                throw .wrongFormat(path: path, detail: "it is far too large for a key or certificate")
            }
        }
        if bytes.isEmpty { throw .wrongFormat(path: path, detail: "the file is empty") }
        return bytes
    }

    private static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

/// The C `read(2)`; a file-scope name because `CredentialFileReader.read` shadows it inside the enum.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
