import COpenSSL

/// Read-only OpenSSL memory BIOs over Swift byte arrays.
enum MemoryBIO {
    /// Calls `body` with a BIO reading `bytes`; the BIO must not escape `body` because it points
    /// into the array's storage. Returns nil only if OpenSSL cannot allocate the BIO.
    static func withBIO<Result>(over bytes: [UInt8], _ body: (OpaquePointer) -> Result) -> Result? {
        bytes.withUnsafeBytes { buffer -> Result? in
            guard buffer.count <= Int(Int32.max),
                let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count))
            else { return nil }
            defer { BIO_free(bio) }
            return body(bio)
        }
    }
}
