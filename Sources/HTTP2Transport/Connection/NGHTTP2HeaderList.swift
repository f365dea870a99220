import CNGHTTP2

/// One connection's `nghttp2_nv` list for the request being submitted: `:method`, `:scheme` and
/// `:authority` laid out once, then pointers into the request's `HTTP2HeaderBlock` and to the
/// `authorization` value. nghttp2 copies names and values during `nghttp2_submit_request`, so the
/// list is only valid inside `withList`. Owned by the connection's thread; once grown it
/// allocates nothing per request (building the fields there cost 15 % of that thread).
final class NGHTTP2HeaderList {
    /// `:method` `POST` `:scheme` `https` `:authority` <authority> `authorization`, back to back.
    private let fixed: UnsafeMutableBufferPointer<UInt8>
    private var entries: UnsafeMutableBufferPointer<nghttp2_nv>
    private let authorizationName: UnsafeMutablePointer<UInt8>
    private static let authorizationNameLength = 13
    private static let leading = 3

    init(authority: [UInt8]) {
        let parts: [[UInt8]] = [
            Array(":method".utf8), Array("POST".utf8), Array(":scheme".utf8), Array("https".utf8),
            Array(":authority".utf8), authority, Array("authorization".utf8),
        ]
        fixed = .allocate(capacity: parts.reduce(0) { $0 + $1.count })
        entries = .allocate(capacity: 16)
        var offset = 0
        var starts: [UnsafeMutablePointer<UInt8>] = []
        for part in parts {
            _ = UnsafeMutableBufferPointer(rebasing: fixed[offset..<offset + part.count]).initialize(from: part)
            starts.append(fixed.baseAddress! + offset)
            offset += part.count
        }
        for i in 0..<Self.leading {
            entries[i] = nghttp2_nv(
                name: starts[2 * i], value: starts[2 * i + 1], namelen: parts[2 * i].count, valuelen: parts[2 * i + 1].count,
                flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
        }
        authorizationName = starts[6]
    }

    deinit {
        fixed.deallocate()
        entries.deallocate()
    }

    /// Calls `body` with the whole header list of `request`, plus `authorization` if given.
    func withList<R>(_ request: HTTP2Request, authorization: String?, _ body: (UnsafeMutablePointer<nghttp2_nv>, Int) -> R) -> R {
        let block = request.headerBlock
        let count = Self.leading + block.fields.count + (authorization == nil ? 0 : 1)
        if entries.count < count {
            let grown = UnsafeMutableBufferPointer<nghttp2_nv>.allocate(capacity: max(count, 2 * entries.count))
            _ = grown.initialize(from: entries[0..<Self.leading])
            entries.deallocate()
            entries = grown
        }
        let entries = entries
        return block.bytes.withUnsafeBufferPointer { raw in
            let base = UnsafeMutablePointer(mutating: raw.baseAddress!)
            var i = Self.leading
            for f in block.fields {
                entries[i] = nghttp2_nv(
                    name: base + f.name, value: base + f.value, namelen: f.nameLength, valuelen: f.valueLength,
                    flags: UInt8(f.sensitive ? NGHTTP2_NV_FLAG_NO_INDEX.rawValue : NGHTTP2_NV_FLAG_NONE.rawValue))
                i += 1
            }
            guard var authorization else { return body(entries.baseAddress!, count) }
            return authorization.withUTF8 { value in
                entries[i] = nghttp2_nv(
                    name: authorizationName, value: UnsafeMutablePointer(mutating: value.baseAddress ?? raw.baseAddress!),
                    namelen: Self.authorizationNameLength, valuelen: value.count, flags: UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue))
                return body(entries.baseAddress!, count)
            }
        }
    }
}
