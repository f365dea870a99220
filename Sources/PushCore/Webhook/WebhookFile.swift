/// One file of a FILE message: the payload's own `filename`/`url`/`content_type`/`content_size`,
/// or an entry of its `files[]` (multi-file messages).
public struct WebhookFile: Sendable, Hashable {
    public var url: String
    public var name: String
    /// MIME type, e.g. `image/jpeg`; drives `{file_type_friendly}`.
    public var contentType: String
    public var size: Int64
    /// Copied to the payload's `files[].require_auth` when present.
    public var requireAuth: Bool?

    public init(url: String, name: String, contentType: String, size: Int64, requireAuth: Bool? = nil) {
        self.url = url
        self.name = name
        self.contentType = contentType
        self.size = size
        self.requireAuth = requireAuth
    }

    /// Accepts both spellings seen for file entries (`file_name`/`name`, `file_type`/`type`/
    /// `content_type`, `file_size`/`size`/`content_size`).
    init?(_ value: JSONValue) {
        guard let object = value.objectValue else { return nil }
        let reader = JSONObjectReader(object)
        self.init(
            url: reader.string("url"),
            name: (reader.optionalString("file_name") ?? reader.optionalString("filename") ?? reader.string("name"))
                .cut(toBytes: TextLimits.nameBytes),
            contentType: reader.optionalString("file_type") ?? reader.optionalString("content_type")
                ?? reader.string("type"),
            size: reader.value("file_size")?.lenientInt64 ?? reader.value("content_size")?.lenientInt64
                ?? reader.int64("size"),
            requireAuth: reader.optionalBool("require_auth")
        )
    }
}
