/// The values a push template's `{variables}` stand for.
public struct TemplateValues: Sendable, Hashable {
    public var senderName: String
    public var message: String
    public var filename: String
    public var channelName: String
    /// `Audio`, `Image`, `Video` or `File`.
    public var fileTypeFriendly: String

    public init(
        senderName: String = "", message: String = "", filename: String = "", channelName: String = "",
        fileTypeFriendly: String = "File"
    ) {
        self.senderName = senderName
        self.message = message
        self.filename = filename
        self.channelName = channelName
        self.fileTypeFriendly = fileTypeFriendly
    }

    /// The values of a webhook event: the sender's nickname (their user id if they have none),
    /// the message text, the first file's name and kind, and the channel name.
    public init(event: WebhookEvent) {
        let sender = event.sender
        self.init(
            senderName: sender.map { $0.nickname.isEmpty ? $0.userID : $0.nickname } ?? "",
            message: event.message.message,
            filename: event.message.filename,
            channelName: event.channel.name,
            fileTypeFriendly: TemplateValues.fileTypeFriendly(contentType: event.message.files.first?.contentType ?? "")
        )
    }

    /// `{file_type_friendly}` from a MIME type: its `audio/`, `image/` or `video/` prefix, else `File`.
    public static func fileTypeFriendly(contentType: String) -> String {
        let lowered = contentType.lowercased()
        if lowered.hasPrefix("audio/") { return "Audio" }
        if lowered.hasPrefix("image/") { return "Image" }
        if lowered.hasPrefix("video/") { return "Video" }
        return "File"
    }

    /// The value of variable `name` (without braces), or nil for a name templates do not know.
    public subscript(variable name: Substring) -> String? {
        switch name {
        case "sender_name": senderName
        case "message": message
        case "filename": filename
        case "channel_name": channelName
        case "file_type_friendly": fileTypeFriendly
        default: nil
        }
    }
}
