/// The message itself (webhook `payload`).
public struct WebhookMessage: Sendable, Hashable {
    /// Sendbird's 64-bit message id, kept exact.
    public var messageID: Int64
    public var customType: String
    /// The text; empty for most FILE messages.
    public var message: String
    /// Locale to translated text.
    public var translations: [String: String]
    /// Unix milliseconds.
    public var createdAt: Int64
    /// The message's free-form `data` field.
    public var data: String
    /// FILE messages: the attached files (the payload's single file, or its `files[]`).
    public var files: [WebhookFile]

    public init(
        messageID: Int64,
        customType: String = "",
        message: String = "",
        translations: [String: String] = [:],
        createdAt: Int64 = 0,
        data: String = "",
        files: [WebhookFile] = []
    ) {
        self.messageID = messageID
        self.customType = customType
        self.message = message
        self.translations = translations
        self.createdAt = createdAt
        self.data = data
        self.files = files
    }

    /// The first file's name, or empty: `{filename}` in templates.
    public var filename: String { files.first?.name ?? "" }

    init(_ reader: JSONObjectReader) throws(WebhookEventError) {
        var files = (reader.array("files") ?? []).compactMap(WebhookFile.init)
        if files.isEmpty, let single = WebhookFile(.object(reader.object)),
            !single.url.isEmpty || !single.name.isEmpty
        {
            files = [single]
        }
        self.init(
            messageID: try reader.requiredInt64("message_id"),
            customType: reader.string("custom_type"),
            message: reader.string("message").cut(toScalars: TextLimits.messageScalars),
            translations: reader.stringMap("translations"),
            createdAt: reader.int64("created_at"),
            data: reader.text("data"),
            files: files
        )
    }
}
